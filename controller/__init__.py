"""Feltguard controller: the daemon, sensing, journal, CLI and the pure rules core (``rules``)."""
