"""The core's ``replace`` (controller/poker/records.py) is ``dataclasses.replace``: the same new
record for every state a simulated session goes through, and the standard one's own path
(validation, errors) wherever a record is not plain."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import InitVar, dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.events import Event
from controller.poker.pots import PotAward
from controller.poker.records import _plain_fields, replace
from controller.rules import apply, initial_state
from controller.sim import SimDealer, expand


def _records(value: Any, seen: dict[int, Any]) -> None:
    """Every dataclass instance reachable from ``value`` (fields, tuples, mappings)."""
    if id(value) in seen:
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        seen[id(value)] = value
        for f in dataclasses.fields(value):
            _records(getattr(value, f.name), seen)
    elif isinstance(value, (tuple, list, frozenset, set)):
        for v in value:
            _records(v, seen)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            _records(k, seen)
            _records(v, seen)


def _session_records(seed: int, hands: int = 2) -> dict[type, list[Any]]:
    """The records of every state of a few clean simulated hands, by class."""
    dealer = SimDealer(random.Random(seed), seats=6, mistake_rate=0.2)
    state, seq = initial_state(), 0
    seen: dict[int, Any] = {}
    for _ in range(hands):
        for step in dealer.next_hand():
            for body in expand(step):
                seq += 1
                state = apply(state, Event(seq, 0, body)).state
                _records(state, seen)
    by_class: dict[type, list[Any]] = {}
    for record in seen.values():
        by_class.setdefault(type(record), []).append(record)
    return by_class


RECORDS = _session_records(11)


def test_the_hot_records_are_plain_and_the_validated_ones_are_not() -> None:
    plain = {cls.__name__ for cls in RECORDS if _plain_fields(cls) is not None}
    assert {"TableState", "GameHand", "SeatState"} <= plain
    assert _plain_fields(PotAward) is None  # __post_init__ makes its copies read-only


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_same_record_as_dataclasses_replace(data: st.DataObject) -> None:
    cls = data.draw(st.sampled_from(sorted(RECORDS, key=lambda c: c.__qualname__)))
    old, other = (data.draw(st.sampled_from(RECORDS[cls])) for _ in range(2))
    names = [f.name for f in dataclasses.fields(cls) if f.init]
    changed = data.draw(st.sets(st.sampled_from(names)) if names else st.just(set()))
    changes = {name: getattr(other, name) for name in changed}
    ours, theirs = replace(old, **changes), dataclasses.replace(old, **changes)
    assert type(ours) is type(theirs) and ours is not old
    assert ours == theirs
    try:
        expected = hash(theirs)
    except TypeError:  # unhashable (a field holds a mapping): so is ours
        with pytest.raises(TypeError):
            hash(ours)
    else:
        assert hash(ours) == expected
    if _plain_fields(cls) is not None:
        for f in dataclasses.fields(cls):  # the very values, as the standard one passes them
            assert getattr(ours, f.name) is getattr(theirs, f.name)
        assert vars(ours) == vars(theirs)  # nothing but the fields


def test_a_record_with_post_init_still_runs_it() -> None:
    award = PotAward(10, (1, 2), (1,), {1: 10})
    again = replace(award, shares={2: 10}, eligible=[1, 2])  # type: ignore[arg-type]
    assert isinstance(again.eligible, tuple) and dict(again.shares) == {2: 10}
    with pytest.raises(TypeError):
        again.shares[3] = 1  # type: ignore[index]


def test_what_is_not_plain_takes_the_standard_path() -> None:
    @dataclass(frozen=True)
    class Written:
        a: int

        def __init__(self, a: int) -> None:  # hand-written: it may derive or check
            object.__setattr__(self, "a", abs(a))

    @dataclass(frozen=True, slots=True)
    class Slotted:
        a: int

    @dataclass(frozen=True)
    class WithInitVar:
        a: int
        scale: InitVar[int] = 1

    @dataclass(frozen=True)
    class Derived:
        a: int
        twice: int = field(init=False, default=0)

    for cls in (Written, Slotted, WithInitVar, Derived):
        assert _plain_fields(cls) is None
    assert replace(Written(1), a=-5).a == 5
    assert replace(Slotted(1), a=2) == Slotted(2)
    assert replace(WithInitVar(1), a=2, scale=3).a == 2
    assert replace(Derived(1), a=2) == Derived(2)


def test_a_name_that_is_not_a_field_is_the_standard_error() -> None:
    state = next(iter(RECORDS[type(initial_state())]))
    with pytest.raises(TypeError):
        replace(state, no_such_field=1)
