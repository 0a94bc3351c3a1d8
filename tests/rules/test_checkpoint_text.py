"""The table's state as a checkpoint's text and back (controller/rules/table/checkpoint.py): every
state of every recorded scenario (every game family, mid-hand and between hands) reads back equal
to itself, field by field, its undo state and its snapshot included; the rest of the stream
applied to the state read back gives the same steps as applied to the state itself; and a text
that is not a state of this code is refused in one line, never with another exception."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.events import read_scenario
from controller.rules import (
    CheckpointError,
    TableState,
    apply,
    initial_state,
    snapshot,
    state_from_text,
    state_to_text,
)

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
EVERY = 5  # every fifth state of each stream, and every hand's end and start


def _streams() -> list[Path]:
    out = []
    for path in sorted(SCENARIOS.glob("*.jsonl")):
        try:
            read_scenario(path)
        except ValueError:  # (the malformed-scenario fixtures)
            continue
        out.append(path)
    return out


STREAMS = _streams()


def _same(a: TableState, b: TableState) -> None:
    assert b == a
    assert b.previous == a.previous and b.previous_event == a.previous_event
    assert snapshot(b) == snapshot(a)


def test_the_scenarios_cover_every_game_family() -> None:
    families: Counter[str] = Counter()
    for path in STREAMS:
        state = initial_state()
        for event in read_scenario(path):
            state = apply(state, event).state
        families[str(snapshot(state)["table"].get("family"))] += 1
    assert {"board", "stud", "draw"} <= set(families), families


@pytest.mark.parametrize("path", STREAMS, ids=[p.stem for p in STREAMS])
def test_every_state_reads_back_equal_and_deals_on_the_same(path: Path) -> None:
    events = read_scenario(path)
    state = initial_state()
    middle = len(events) // 2
    for i, event in enumerate(events):
        state = apply(state, event).state
        boundary = event.body.TYPE in ("hand.start", "hand.end", "misdeal.declared")
        if i % EVERY and not boundary and i != middle:
            continue
        text = state_to_text(state)
        back = state_from_text(text)
        _same(state, back)
        assert state_to_text(back) == text  # equal states, equal text
        if i == middle:  # the rest of the stream from the state read back: the same steps
            a, b = state, back
            for later in events[i + 1:]:
                step_a, step_b = apply(a, later), apply(b, later)
                assert step_b.findings == step_a.findings and step_b.results == step_a.results
                a, b = step_a.state, step_b.state
                _same(a, b)


@pytest.fixture(scope="module")
def a_text() -> str:
    state = initial_state()
    for event in read_scenario(STREAMS[0]):
        state = apply(state, event).state
    return state_to_text(state)


def _edit(text: str, change) -> str:
    doc = json.loads(text)
    change(doc)
    return json.dumps(doc)


@pytest.mark.parametrize(("change", "said"), [
    (lambda d: d.update(version=0), "an older format"),
    (lambda d: d.update(schema="0" * 64), "an older format"),
    (lambda d: d.update(format="pickle"), "not a feltguard state"),
    (lambda d: d["state"].update({"@": "os.system"}), "an unknown record 'os.system'"),
    (lambda d: d["state"].pop("hand_number"), "fields not as the record has them: hand_number"),
    (lambda d: d["state"].update(extra=1), "fields not as the record has them: extra"),
    (lambda d: d.update(state=[1, 2]), "the text holds no table state"),
    (lambda d: d["state"].update(findings={"pickle": []}), "an unknown container 'pickle'"),
    (lambda d: d["state"].update(carry={"dict": [[{"list": []}, 1]]}), "a mapping key"),
    (lambda d: d["state"].update(seating={"dict": []}), "a state the core cannot read"),
    # a byte cut from a street's opener ("blinds" -> "linds"): the engine's replay of the hand's
    # log then failed with an IndexError (hypothesis found it)
    (lambda d: d["state"]["hand"]["game"]["variant"]["streets"][0].update(opener="linds"),
     "a state that does not rebuild"),
])
def test_a_text_that_is_not_a_state_of_this_code_is_refused_in_one_line(a_text, change, said):
    with pytest.raises(CheckpointError) as caught:
        state_from_text(_edit(a_text, change))
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_a_hand_whose_log_the_engine_refuses_is_refused(tmp_path) -> None:
    state = initial_state()
    for event in read_scenario(SCENARIOS / "clean_heads_up.jsonl")[:-3]:
        state = apply(state, event).state
    assert state.hand is not None and state.hand.game.log
    doc = json.loads(state_to_text(state))
    doc["state"]["hand"]["game"]["log"] = [["no-such-command", 1]]
    with pytest.raises(CheckpointError, match=r"does not rebuild|not a value|unknown"):
        state_from_text(json.dumps(doc))


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_any_damage_to_a_text_is_a_checkpoint_error_or_a_state(a_text, data) -> None:
    """Bytes cut, flipped or inserted anywhere: the answer is a state or a CheckpointError."""
    raw = bytearray(a_text.encode())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw) - 1))
        how = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        if how == "flip":
            raw[at] = data.draw(st.integers(0, 255))
        elif how == "cut":
            del raw[at:at + data.draw(st.integers(1, 64))]
        else:
            raw[at:at] = data.draw(st.binary(min_size=1, max_size=8))
    try:
        got = state_from_text(bytes(raw))
    except CheckpointError as exc:
        assert "\n" not in str(exc)
    else:
        assert isinstance(got, TableState)
