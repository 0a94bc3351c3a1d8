"""The live table: state across hands, ``apply`` (state, event) -> Step, seating and blinds,
mixed games, the devices, the dealer's keys and ``snapshot``."""
