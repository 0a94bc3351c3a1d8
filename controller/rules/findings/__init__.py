"""Findings and their catalogue: the ``Finding`` record and every code the rules core can raise,
as data, one module per topic."""
