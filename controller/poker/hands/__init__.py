"""Hand strength for every ranking the rulebooks use: high (``evaluate``), low (``lowball``),
badugi, short deck, the joker, and one question for all of them (``rankings``)."""
