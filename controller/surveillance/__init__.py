"""The cardroom's side of a table: the relay to Redis, the collector and central store, and the
surveillance review of past hands."""
