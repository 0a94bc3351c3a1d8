"""``replace`` for the core's records: ``dataclasses.replace``, without its cost on plain ones.

The core is pure: every event makes new records from old ones, ten or more
``dataclasses.replace`` calls a card (the table, the hand, its board...). The standard one reads
every field by name, then runs the class's generated ``__init__`` with them all as keywords:
about a fifth of the rules core's time per card frame (the reader's thread, before the LEDs).

For a *plain* record, the same new object can be made by copying the old one's fields and
setting the changed ones: a dataclass with the generated ``__init__``, every field an ``init``
field, no ``__post_init__`` (nothing to check or derive), and a ``__dict__``. For anything else
(validation in ``__post_init__``, slots, a hand-written ``__init__``, a name that is not a
field) this is ``dataclasses.replace`` itself, errors included. Equality, hashing and
immutability are the class's own either way: the fields hold the same values.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["replace"]

T = TypeVar("T")

# per class: its field names if it is plain, else None (filled on first use)
_plain: dict[type, frozenset[str] | None] = {}


def _plain_fields(cls: type) -> frozenset[str] | None:
    if cls in _plain:
        return _plain[cls]
    names: frozenset[str] | None = None
    params = getattr(cls, "__dataclass_params__", None)
    init = getattr(cls, "__init__", None)
    code = getattr(init, "__code__", None)
    if (params is not None and params.init and not hasattr(cls, "__post_init__")
            and "__slots__" not in vars(cls)
            # the __init__ dataclasses generated (compiled from source text), not one written
            # in the class or a base
            and code is not None and code.co_filename == "<string>"):
        every = getattr(cls, "__dataclass_fields__", {})
        fields = dataclasses.fields(cls)
        # every entry a plain init field: no InitVar, no field left out of __init__
        if len(fields) == len(every) and all(f.init for f in fields):
            names = frozenset(f.name for f in fields)
    _plain[cls] = names
    return names


_new = object.__new__
_set = object.__setattr__


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)``: a new record with ``changes`` (module doc)."""
    cls = type(obj)
    # (the cache read inline, and the new fields built as one dict set whole: a replay makes
    # about ten of these an event)
    names = _plain[cls] if cls in _plain else _plain_fields(cls)
    if names is None or not changes.keys() <= names:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    new: T = _new(cls)
    fields = obj.__dict__.copy()
    fields.update(changes)
    _set(new, "__dict__", fields)
    return new
