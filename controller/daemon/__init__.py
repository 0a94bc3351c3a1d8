"""The table daemon and its ports: the one owner of the table state, the LED plan, systemd's
notify protocol, and the dealer's keys and touch console wired into it."""
