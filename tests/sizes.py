"""The two sizes of a long test (issue 26): a slice in the default suite, the full size under
the ``long`` marker.

``make test`` runs ``pytest -m "not long"``, so every long property, fuzz or soak test still
runs there, on a smaller but meaningful sample; ``make test-long`` runs ``pytest -m long``: the
same tests at their full size. ``.ci/run`` runs both. A test takes its size as a parameter::

    @pytest.mark.parametrize("examples", sizes(slice_=200, full=2_000))
    def test_x(examples: int) -> None: ...

and shows it in its id (``test_x[slice]``, ``test_x[full]``).
"""

from __future__ import annotations

from typing import Any

import pytest


def sizes(slice_: int, full: int, *full_marks: Any) -> list[Any]:
    """The parameters of a long test's size: ``slice_`` in the default suite, ``full`` marked
    ``long`` (with ``full_marks``, e.g. a longer ``pytest.mark.timeout``)."""
    if not 0 < slice_ < full:
        raise ValueError(f"a slice is smaller than the full size: {slice_} against {full}")
    return [pytest.param(slice_, id="slice"),
            pytest.param(full, id="full", marks=[pytest.mark.long, *full_marks])]
