"""The assembled processes: the table (``feltguard run``), the simulated table (``feltguard
sim``) and the cardroom service (``feltguard surveillance``)."""
