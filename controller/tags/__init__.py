"""Decks and chip sets: the registry files the table reads, and enrolment through a reader."""
