"""Sensing: the readers' raw reads -> table events (cards, chips and the settle clock), and the
readers' health monitor."""
