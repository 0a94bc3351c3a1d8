"""Reading and writing PHH: every field the specification defines, .phh and .phhs, numbers as
written, errors that name the hand and the action, and a round trip through our writer and
PokerKit's reader."""

from __future__ import annotations

import datetime
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.phh import HandHistory, PhhError, load, load_all, loads, loads_all, read_file
from controller.phh.notation import VARIANT_CODES, parse_action
from controller.phh.reader import read_text
from controller.phh.writer import dump_all, dumps, dumps_all, toml_string

BADUGI = """\
# An example badugi hand (shape of the Wikipedia example in the PHH corpus).
variant = "FB"
ante_trimming_status = true
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0]
small_bet = 2
big_bet = 4
starting_stacks = [200, 200, 200, 200]
actions = [
  # Pre-draw
  "d dh p1 ????????",  # Bob
  "d dh p2 ????????",
  "d dh p3 ????????",
  "d dh p4 ????????",
  "p3 f",
  "p4 cc  # Alice limps",
  "",
  "p1 sd ????",
]
author = "Juho Kim"
players = ["Bob", "Carol", "Ted", "Alice"]
time = 20:30:00
_note = "user field"
"""

PHHS = """\
[1]
# source: a/0.phh
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [50, 100]
min_bet = 100
starting_stacks = [10000, 10000]
actions = ['d dh p1 TcQc', 'd dh p2 8s4c', 'p2 f']
hand = 0
finishing_stacks = [10050, 9950]

[2]
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [50, 100]
min_bet = 100
starting_stacks = [10000, 10000]
actions = ['d dh p1 TcQc', 'd dh p2 8s4c', 'p2 cc', 'p1 cc']
hand = 1
finishing_stacks = [10112.5, 9887.5]
"""


def test_reads_every_kind_of_field() -> None:
    h = loads(BADUGI, source="badugi.phh")
    assert h.variant == "FB"
    assert h.ante_trimming_status is True
    assert h.antes == (0, 0, 0, 0)
    assert h.blinds_or_straddles == (1, 2, 0, 0)
    assert (h.small_bet, h.big_bet, h.min_bet, h.bring_in) == (2, 4, None, None)
    assert h.starting_stacks == (200,) * 4
    assert h.players == ("Bob", "Carol", "Ted", "Alice")
    assert h.optional == {"author": "Juho Kim", "time": datetime.time(20, 30)}
    assert h.user == {"_note": "user field"}
    assert [a.code for a in h.actions] == ["dh"] * 4 + ["f", "cc", "", "sd"]
    assert h.actions[0].cards == (None,) * 4
    assert h.actions[5].commentary == "Alice limps"
    assert h.name == "badugi.phh"


def test_phhs_tables_in_order_and_half_chips_as_written() -> None:
    hands = loads_all(PHHS, source="x.phhs")
    assert [h.hand for h in hands] == [0, 1]
    assert [h.name for h in hands] == ["x.phhs [1]", "x.phhs [2]"]
    assert hands[1].finishing_stacks == (Decimal("10112.5"), Decimal("9887.5"))
    assert isinstance(hands[0].finishing_stacks[0], int)  # type: ignore[index]
    assert hands[1].label == "x.phhs [2] (hand 1)"


def test_a_single_hand_document_read_as_a_list() -> None:
    assert [h.variant for h in loads_all(BADUGI)] == ["FB"]
    assert read_text("") == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("variant = \"FB\"", "variant = \"XX\""), "unknown variant 'XX'"),
        (("small_bet = 2\n", ""), "variant FB needs field 'small_bet'"),
        (("antes = [0, 0, 0, 0]", "antes = [0, 0, 0]"), "'antes' has 3 values for 4 players"),
        (("antes = [0, 0, 0, 0]", "antes = [0, 0, -1, 0]"), "'antes' must be non-negative"),
        (("starting_stacks = [200, 200, 200, 200]", "starting_stacks = [200, 0, 200, 200]"),
         "'starting_stacks' must be positive"),
        (("big_bet = 4", "big_bet = \"4\""), "'big_bet' must be a number"),
        (("big_bet = 4", "big_bet = nan"), "'big_bet' must be a number"),
        (("author = \"Juho Kim\"", "autor = \"Juho Kim\""), "unknown field 'autor'"),
        (("author = \"Juho Kim\"", "year = \"2019\""), "'year' must be an integer"),
        (("players = [\"Bob\", \"Carol\", \"Ted\", \"Alice\"]", "players = [\"Bob\"]"),
         "'players' has 1 values for 4 players"),
        (("ante_trimming_status = true", "ante_trimming_status = 1"),
         "'ante_trimming_status' must be true or false"),
        (("\"p3 f\"", "\"p3 fold\""), "action 5: 'p3 fold': unknown action 'fold'"),
        (("\"p3 f\"", "\"p5 f\""), "action 5: 'p5 f': p5 is not one of the 4 players"),
        (("\"p3 f\"", "3"), "action 5: 3: an action must be a string"),
        (("variant = \"FB\"\n", ""), "missing required field 'variant'"),
    ],
)
def test_malformed_hands_say_what_and_where(change: tuple[str, str], message: str) -> None:
    old, new = change
    assert old in BADUGI
    with pytest.raises(PhhError) as info:
        loads(BADUGI.replace(old, new), source="badugi.phh")
    assert message in str(info.value)
    assert str(info.value).startswith("badugi.phh")


def test_one_bad_hand_in_a_phhs_loses_nothing_else() -> None:
    text = PHHS.replace("'p2 cc', 'p1 cc'", "'p2 cc', 'p1 check'")
    items = read_text(text, source="x.phhs")
    assert isinstance(items[0], HandHistory)
    assert isinstance(items[1], PhhError)
    assert str(items[1]).startswith("x.phhs [2] (hand 1): action 4: 'p1 check'")
    with pytest.raises(PhhError, match=r"x.phhs \[2\]"):
        loads_all(text, source="x.phhs")


def test_broken_toml_in_one_table_names_that_table_and_its_line() -> None:
    lines = PHHS.splitlines()
    bad = lines.index("min_bet = 100", 12)  # the second hand's
    lines[bad] = "min_bet = = 100"
    items = read_text("\n".join(lines), source="x.phhs")
    assert isinstance(items[0], HandHistory)
    assert isinstance(items[1], PhhError)
    assert "x.phhs [2]: not valid TOML" in str(items[1])
    assert f"line {bad + 1}," in str(items[1])


def test_broken_single_hand_and_unreadable_files(tmp_path: Path) -> None:
    (bad := tmp_path / "bad.phh").write_text("variant = \n", encoding="utf-8")
    [err] = read_file(bad)
    assert isinstance(err, PhhError) and "bad.phh: not valid TOML" in str(err)
    (latin := tmp_path / "latin.phh").write_bytes(b"author = '\xe9'\n")
    [err] = read_file(latin)
    assert isinstance(err, PhhError) and "not UTF-8" in str(err)
    [err] = read_file(tmp_path / "missing.phh")
    assert isinstance(err, PhhError) and "missing.phh" in str(err)
    with pytest.raises(PhhError):
        load(tmp_path / "missing.phh")


def test_unknown_stacks_are_infinite() -> None:
    h = loads(BADUGI.replace("[200, 200, 200, 200]", "[200, inf, 200, 200]"))
    assert h.starting_stacks[1] == Decimal("inf")
    with pytest.raises(PhhError, match="must be finite"):
        loads(BADUGI.replace("big_bet = 4", "big_bet = inf"))


# --- writing --------------------------------------------------------------------------------------


def test_round_trip_keeps_every_field(tmp_path: Path) -> None:
    h = loads(BADUGI)
    assert loads(dumps(h)) == h
    hands = loads_all(PHHS)
    dump_all(hands, tmp_path / "out.phhs")
    assert load_all(tmp_path / "out.phhs") == hands
    assert "finishing_stacks = [10112.5, 9887.5]" in dumps(hands[1])


def test_strings_and_user_fields_are_escaped_and_structured() -> None:
    assert toml_string('a "b"\\\n\x01') == '"a \\"b\\"\\\\\\n\\u0001"'
    h = loads(PHHS.split("[2]")[0].replace("[1]\n", ""))
    findings = [{"code": "BURN_MISSING_OR_EXTRA", "seq": 31, "seats": [], "cards": ["Kd"],
                 "rule": "roberts-rules-v11.txt, Section 3, rule 16"}]
    h2 = HandHistory(**{**h.__dict__, "user": {"_findings": findings, "_odd key": "x\ty",
                                                "_t": datetime.time(1, 2, 3)},
                        "players": ('Ann "the rock"', "Bob's")})
    back = loads(dumps(h2))
    assert back == h2
    assert back.user["_findings"] == findings


def test_writer_refuses_what_toml_cannot_hold() -> None:
    h = loads(PHHS.split("[2]")[0].replace("[1]\n", ""))
    with pytest.raises(PhhError, match="field '_x'"):
        dumps(HandHistory(**{**h.__dict__, "user": {"_x": None}}))
    with pytest.raises(PhhError, match="must start with '_'"):
        dumps(HandHistory(**{**h.__dict__, "user": {"x": 1}}))


def test_pokerkit_reads_what_we_write() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    for h in [loads(BADUGI), *loads_all(PHHS)]:
        theirs = pokerkit.HandHistory.loads(dumps(h))
        assert theirs.variant == h.variant
        assert list(theirs.starting_stacks) == list(h.starting_stacks)
        assert list(theirs.actions) == [a.text for a in h.actions]
        assert theirs.finishing_stacks == (list(h.finishing_stacks)
                                           if h.finishing_stacks else None)
        assert theirs.user_defined_fields == h.user
    two = pokerkit.HandHistory.loads_all(dumps_all(loads_all(PHHS)))
    assert [t.hand for t in two] == [0, 1]


# --- a property: anything the model holds survives the writer and the reader ----------------------

_amount = st.one_of(st.integers(0, 10**9),
                    st.decimals(0, 10**6, places=2, allow_nan=False, allow_infinity=False))
_cards = st.lists(st.sampled_from(["Ac", "Kd", "7h", "2s", "Ts", None]), min_size=1, max_size=4)
_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)


@st.composite
def _hands(draw: st.DrawFn) -> HandHistory:
    n = draw(st.integers(2, 9))
    variant = draw(st.sampled_from([c for c in VARIANT_CODES if c != "NS"]))
    per = st.lists(_amount, min_size=n, max_size=n)
    actions = []
    for _ in range(draw(st.integers(0, 8))):
        p = f"p{draw(st.integers(1, n))}"
        cards = "".join("??" if c is None else c for c in draw(_cards))
        text = draw(st.sampled_from([f"d dh {p} {cards}", f"d db {cards}", f"{p} f", f"{p} cc",
                                     f"{p} cbr {draw(st.integers(1, 10**6))}", f"{p} sd",
                                     f"{p} sm {cards}", f"{p} sm -", f"{p} pb"]))
        comment = draw(st.sampled_from(["", " # why not"]))
        actions.append(parse_action(text + comment, n))
    stacks = tuple(draw(st.lists(st.integers(1, 10**9), min_size=n, max_size=n)))
    return HandHistory(
        variant=variant, antes=tuple(draw(per)), starting_stacks=stacks, actions=tuple(actions),
        blinds_or_straddles=tuple(draw(per)), small_bet=draw(st.integers(1, 100)),
        big_bet=draw(st.integers(1, 100)), min_bet=draw(st.integers(1, 100)),
        bring_in=draw(st.integers(1, 100)), ante_trimming_status=draw(st.booleans()),
        finishing_stacks=tuple(draw(per)), players=tuple(draw(st.lists(_text, min_size=n,
                                                                      max_size=n))),
        hand=draw(st.one_of(st.integers(0, 10**6), _text)),
        optional={"event": draw(_text), "seat_count": n},
        user={"_x": draw(st.lists(st.integers(), max_size=3)), "_y": {"k": draw(_text)}},
    )


@settings(max_examples=150, deadline=None)
@given(_hands())
def test_property_round_trip(h: HandHistory) -> None:
    assert loads(dumps(h)) == h
    assert loads_all(dumps_all([h, h])) == [h, h]
