"""The event vocabulary: parsing, validation, and errors that name the line."""

from __future__ import annotations

import json
import re
from dataclasses import fields

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.events import (
    ACTION_KINDS,
    BODY_TYPES,
    DECK_FAULTS,
    POST_KINDS,
    Action,
    ChipsRegister,
    ChipsZone,
    DeckRegister,
    Event,
    EventError,
    HandStart,
    SeatTake,
    ShoeDraw,
    TableSetup,
    TrayCounts,
    ZoneLeave,
    iter_lines,
    make,
    parse_event,
    parse_line,
    read_scenario,
    validate_body,
)
from controller.poker.cards import FULL_DECK
from controller.poker.house_rules import PROFILES
from controller.poker.variants import GAME_IDS


def test_round_trip_every_field():
    e = Event(7, 123, DeckRegister(deck="red", tags={"04A1": "As"}))
    assert parse_event(e.to_json()) == e
    for body in (ChipsRegister(set="house", chips={"C1": 5, "C2": 25}, colours={25: "green"}),
                 ChipsZone(zone="bet:3", total=30, counts={5: 1, 25: 1}, uids=("C1", "C2"),
                           added=("C2",), removed=("C9",)),
                 TrayCounts(counts={1: 100, 5: 0})):
        c = Event(9, 125, body)
        assert parse_line(c.to_line()) == c  # denominations are JSON keys: "25" -> 25
    a = Event(8, 124, Action(seat=3, kind="raise", amount=12))
    assert parse_event(a.to_json()) == a


def test_scenario_lines_are_numbered_when_seq_is_missing():
    lines = ['# a comment', '', '{"type": "shoe.draw", "uid": "AA"}', '{"type": "hand.end"}']
    events = list(iter_lines(lines))
    assert [e.seq for e in events] == [1, 2]
    assert events[0].body == ShoeDraw(uid="AA", face_up=False)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"type": "shoe.drop", "uid": "AA"}', "unknown event type 'shoe.drop'"),
        ('{"type": "shoe.draw"}', "shoe.draw needs field 'uid'"),
        ('{"type": "shoe.draw", "uid": "AA", "faceup": true}', "unknown field"),
        ('{"type": "zone.read", "uid": "AA", "zone": "seat:11"}', "field 'zone'"),
        ('{"type": "action", "seat": 2, "kind": "bet"}', "needs field 'amount'"),
        ('{"type": "action", "seat": 2, "kind": "limp"}', "unknown action 'limp'"),
        ('{"type": "deck.register", "deck": "d", "tags": {"AA": "1s"}}', "not a card"),
        ('{"type": "seat.take", "seat": 1, "player": "A", "stack": true}', "integer"),
        ("[1, 2]", "must be a JSON object"),
        ('{"type": "zone.leave", "uid": "AA", "zone": "shoe"}', "'shoe' only with lost true"),
        ('{"type": "zone.leave", "uid": "AA", "zone": "seat:2", "lost": 1}',
         "field 'lost' must be true or false"),
        ('{"type": "zone.leave", "uid": "AA", "zone": "floor", "lost": true}', "field 'zone'"),
    ],
)
def test_a_malformed_line_names_the_line_and_the_problem(tmp_path, line, message):
    p = tmp_path / "bad.jsonl"
    p.write_text('{"type": "hand.start"}\n# comment\n' + line + "\n")
    with pytest.raises(EventError) as info:
        read_scenario(p)
    assert str(info.value).startswith(f"{p}:3: ")
    assert message in str(info.value)


def test_a_lost_leave_round_trips_and_a_plain_one_keeps_its_v1_line():
    lost = Event(5, 0, ZoneLeave(uid="AA", zone="shoe", lost=True))
    assert parse_event(lost.to_json()) == lost
    plain = Event(6, 0, ZoneLeave(uid="AA", zone="seat:3"))
    assert "lost" not in plain.to_json()  # journals written before the field read the same
    assert parse_event(plain.to_json()).body == ZoneLeave(uid="AA", zone="seat:3", lost=False)


def test_seq_must_increase():
    with pytest.raises(EventError, match=":2: seq 1 does not follow seq 5"):
        list(iter_lines(['{"seq": 5, "type": "hand.end"}', '{"seq": 1, "type": "hand.end"}']))


def test_every_game_is_a_variant_or_a_rotation_of_variants():
    from controller.poker.variants import GAME_IDS, ROTATIONS, VARIANTS, family

    for game in GAME_IDS:
        games = [g for g, _ in ROTATIONS[game].games] if game in ROTATIONS else [game]
        assert all(family(VARIANTS[g]) in ("board", "stud", "draw") for g in games), game


def test_table_setup_takes_limit_and_stud_stakes_and_refuses_unknown_games():
    (event,) = iter_lines(['{"seq":1,"ts":0,"type":"table.setup","game":"razz","ante":1,'
                           '"bring_in":2,"small_bet":5,"big_bet":10}'])
    assert (event.body.game, event.body.bring_in, event.body.big_bet) == ("razz", 2, 10)
    with pytest.raises(EventError, match="unknown game 'omaha9'"):
        list(iter_lines(['{"seq":1,"ts":0,"type":"table.setup","game":"omaha9"}']))
    with pytest.raises(EventError, match="needs field 'amount'"):
        list(iter_lines(['{"seq":1,"ts":0,"type":"action","seat":2,"kind":"draw"}']))


# --- bad input (issue 9): everything the parser refuses, refused the same way when built ------


def test_a_line_that_is_not_utf8_names_the_file_and_the_line(tmp_path):
    p = tmp_path / "latin1.jsonl"
    p.write_bytes(b'{"type": "hand.start"}\n{"type": "seat.take", "seat": 1, "player": "Jos\xe9",'
                  b' "stack": 5}\n')
    with pytest.raises(EventError) as info:
        read_scenario(p)
    assert str(info.value) == f"{p}:2: not UTF-8 text (byte 0xe9 at column 48)"


def test_a_byte_order_mark_before_the_first_line_is_not_an_error(tmp_path):
    p = tmp_path / "bom.jsonl"
    p.write_bytes(b'\xef\xbb\xbf{"type": "hand.start"}\n')
    assert [e.type for e in read_scenario(p)] == ["hand.start"]


@pytest.mark.parametrize("key", ["bring_in", "small_bet", "big_bet", "ante"])
@pytest.mark.parametrize("value", ['"two"', "2.5", "true", "null", "NaN", "[]"])
def test_every_stake_must_be_a_whole_number(key, value):
    with pytest.raises(EventError, match=f"field '{key}' must be an integer"):
        parse_line(f'{{"type": "table.setup", "game": "razz", "{key}": {value}}}')


# One value of a JSON type no field takes, for each kind of field.
WRONG = {"int": "x", "optional int": "x", "str": 5, "optional str": 5, "choice str": 5,
         "bool": 1, "mapping": [], "levels": {}, "str list": "AA"}


def _kind(name: str) -> str:
    from controller import events

    kinds = {"int": events.INT_FIELDS, "optional int": events.OPTIONAL_INT_FIELDS,
             "str": events.STR_FIELDS, "optional str": events.OPTIONAL_STR_FIELDS,
             "choice str": events.CHOICE_STR_FIELDS, "bool": events.BOOL_FIELDS,
             "levels": {"levels"}, "str list": events.STR_LIST_FIELDS,
             "mapping": events.MAPPING_FIELDS - {"levels"}}
    [kind] = [k for k, names in kinds.items() if name in names]
    return kind


def test_every_field_of_every_event_type_has_one_kind_and_a_wrong_type_is_refused():
    """No field escapes checking (bring_in, small_bet and big_bet did: a string reached the
    domain check and was a TypeError traceback)."""
    for kind_name, cls in BODY_TYPES.items():
        for f in fields(cls):
            value = WRONG[_kind(f.name)]
            obj = {"type": kind_name, f.name: value}
            with pytest.raises(EventError):
                parse_event(obj)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"type": "seat.take", "seat": 1, "player": "A", "stack": 9007199254740992}',
         "field 'stack' must be <= 9007199254740991"),
        ('{"type": "action", "seat": 1, "kind": "bet", "amount": ' + "9" * 4000 + "}",
         "field 'amount' must be <= 9007199254740991, got a 13288-bit number"),
        ('{"type": "hand.end", "seq": ' + "7" * 5000 + "}", "a number too long to read"),
        ('{"type": "hand.end", "ts": 1e3}', "field 'ts' must be an integer"),
        ("[" * 100_000, "nested too deeply"),
        ('{"type": "zone.read", "uid": "AA", "zone": "board\\n"}', "field 'zone'"),
        ('{"type": "deck.register", "deck": "d", "tags": {"AA": "As\\n"}}', "not a card"),
        ('{"type": "button.draw", "cards": {"1": "As\\n", "2": "Kd"}}', "not a card"),
        ('{"type": "button.draw", "cards": {"\u00b2": "As", "2": "Kd"}}', "not a seat number"),
        ('{"type": "button.draw", "cards": {"01": "As", "1": "Kd"}}', "not a seat number"),
        ('{"type": "seat.take", "seat": 1, "player": "  ", "stack": 5}', "non-empty string"),
        ('{"type": "floor.ruling", "text": ""}', "non-empty string"),
        ('{"type": "deck.register", "deck": "d", "tags": {" ": "As"}}', "bad uid"),
        ('{"type": "deck.audit", "uids": ["AA", " "]}', "field 'uids': bad uid"),
        ('{"type": "deck.audit", "uids": ["AA", 5]}', "field 'uids' must be a list of strings"),
        ('{"type": "chiprace.end", "stacks": {"1": 9007199254740992}}', "0..9007199254740991"),
        ('{"type": "chips.register", "set": "h", "chips": {}}', "needs one chip at least"),
        ('{"type": "chips.register", "set": "h", "chips": {"AA": 0}}',
         "uid AA has denomination 0"),
        ('{"type": "chips.register", "set": "h", "chips": {"AA": true}}',
         "uid AA has denomination True"),
        ('{"type": "chips.register", "set": "h", "chips": {"AA": 5}, "colours": {"25": "g"}}',
         "denomination 25 is no chip of set h"),
        ('{"type": "chips.register", "set": "h", "chips": {"AA": 5}, "colours": {"5": ""}}',
         "has colour ''"),
        ('{"type": "chips.zone", "zone": "bet:11", "total": 0, "counts": {}}', "field 'zone'"),
        ('{"type": "chips.zone", "zone": "seat:1", "total": 0, "counts": {}}', "field 'zone'"),
        ('{"type": "chips.zone", "zone": "pot", "total": 6, "counts": {"5": 1}}',
         "field 'total': 6 is not what 'counts' make (5)"),
        ('{"type": "chips.zone", "zone": "pot", "total": 5, "counts": {"05": 1}}',
         "'05' is not a denomination"),
        ('{"type": "chips.zone", "zone": "pot", "total": 0, "counts": {"0": 1}}',
         "'0' is not a denomination"),
        ('{"type": "chips.zone", "zone": "pot", "total": 0, "counts": {"5": -1}}',
         "denomination 5 has count -1"),
        ('{"type": "chips.zone", "zone": "pot", "total": 0, "counts": {}, "uids": ["A", "A"]}',
         "field 'uids': a uid is listed twice"),
        ('{"type": "chips.zone", "zone": "pot", "total": 0, "counts": {}, "added": ["A"]}',
         "a tag added must be among 'uids'"),
        ('{"type": "chips.zone", "zone": "pot", "total": 0, "counts": {}, "uids": ["A"], '
         '"removed": ["A"]}', "a tag removed cannot be among 'uids'"),
        ('{"type": "tray.counts", "counts": {"25": 1.5}}', "denomination 25 has count 1.5"),
        ('{"type": "tray.counts", "counts": []}', "field 'counts' must be an object"),
        ('{"type": "tournament.setup", "levels": [{"small_blind": 1, "big_blind": '
         '9007199254740992}]}', "0..9007199254740991"),
    ],
)
def test_values_the_journal_or_the_core_could_not_take_are_refused(line, message):
    with pytest.raises(EventError, match=re.escape(message)):
        parse_line(line)


def test_a_body_built_in_code_is_refused_as_its_line_would_be():
    """The console, the simulator and the loaders build bodies; the daemon journals them: a
    body validate_body passes is one the parser takes back (else the journal would not
    replay)."""
    for body in (SeatTake(seat=1, player="Ann", stack=10**20),
                 SeatTake(seat=1, player="", stack=5),
                 TableSetup(bring_in="2"),  # type: ignore[arg-type]
                 Action(seat=1, kind="fold", amount=True),  # type: ignore[arg-type]
                 ShoeDraw(uid="AA", face_up=1)):  # type: ignore[arg-type]
        with pytest.raises(EventError):
            validate_body(body)
    with pytest.raises(EventError, match="field 'ts' must be >= 0"):
        make(1, HandStart(), ts=-1)


def test_a_deck_with_two_tags_for_one_card_is_an_event_the_core_judges():
    """Not refused by the parser: a defective deck is a fact at the table, which the monitor
    flags (DUPLICATE_CARD) when the second copy is dealt; the simulated dealers register one on
    purpose and tests/scenarios/*duplicate_card.jsonl replay it. The deck file of `feltguard
    run` refuses it (controller/tags/deckfile.py)."""
    event = parse_line('{"type": "deck.register", "deck": "d", "tags": {"AA": "As", "BB": "As"}}')
    assert dict(event.body.tags) == {"AA": "As", "BB": "As"}


# Values for every kind of field, mostly ones its events take, to build bodies from: the
# good values by field, the bad ones (and good ones of other fields) by kind.
_UIDS = [f"U{i:02d}" for i in range(52)]
_GOOD = {
    "seat": st.integers(1, 10), "to": st.integers(1, 10), "seats": st.integers(2, 10),
    "stack": st.integers(0, 500), "small_blind": st.integers(0, 2),
    "big_blind": st.integers(1, 4), "ante": st.integers(0, 2), "bring_in": st.integers(0, 3),
    "small_bet": st.integers(0, 4), "big_bet": st.integers(0, 8), "level": st.integers(1, 4),
    "remaining": st.integers(1, 6), "players": st.none() | st.integers(1, 60),
    "rake_percent": st.integers(0, 10), "rake_cap": st.integers(0, 5),
    "button": st.none() | st.integers(1, 10), "amount": st.none() | st.integers(0, 60),
    "cutter": st.none() | st.integers(1, 10), "asked_by": st.none() | st.integers(1, 10),
    "uid": st.sampled_from([*_UIDS, "ZZ", ""]),  # "": a card key named by its card
    "card": st.sampled_from(["", "last", "As", "Kd", "Xx"]),
    "zone": st.sampled_from(["board", "burn", "muck", "aside"] +
                            [f"seat:{n}" for n in range(1, 11)] +
                            ["bet:3", "stack:10", "pot", "tray", "drop"]),  # chips.zone
    "player": st.sampled_from(["Ann", "Bob", "Cyd"]), "deck": st.just("d"),
    "game": st.sampled_from(GAME_IDS), "profile": st.sampled_from(sorted(PROFILES)),
    "structure": st.sampled_from(["", "limit", "pot-limit", "no-limit", "spread"]),
    "kind": st.sampled_from([*ACTION_KINDS, *DECK_FAULTS]),
    "by": st.sampled_from(["dealer", "player", "floor"]),
    "text": st.just("ruled"), "outcome": st.sampled_from(["stand", "void"]),
    "blind": st.none() | st.sampled_from(POST_KINDS),
    "code": st.none() | st.just("MISDEAL_LOCKOUT"), "face_up": st.booleans(),
    "post": st.booleans(), "idle": st.booleans(), "lost": st.booleans(),
    "uids": st.lists(st.sampled_from(_UIDS), max_size=6).map(tuple),
    "settings": st.just({}) | st.just({"button_method": "moving"}),
    "cards": st.dictionaries(st.integers(1, 10), st.sampled_from(FULL_DECK), min_size=2,
                             max_size=4),
    "stacks": st.dictionaries(st.integers(1, 10), st.integers(0, 500), max_size=3),
    "tags": st.dictionaries(st.sampled_from(_UIDS), st.sampled_from([*FULL_DECK, "Xx"]),
                            min_size=1, max_size=4),
    "levels": st.lists(st.fixed_dictionaries({"small_blind": st.integers(0, 2),
                                              "big_blind": st.integers(2, 4)}),
                       min_size=1, max_size=3).map(tuple),
    # reader.health (controller/sensing/health.py)
    "reader": st.integers(0, 3), "antenna": st.none() | st.integers(0, 14),
    "state": st.sampled_from(["ok", "noisy", "fault", "silent", "offline"]),
    "name": st.sampled_from(["", "shoe", "felt"]), "detail": st.just("no heartbeat for 1.6 s"),
    "ruled_by": st.sampled_from(["", "flo"]),  # floor.ruling: who ruled (the touch console)
    # chips.register, chips.zone, tray.counts (a total matches its counts one time in three)
    "set": st.sampled_from(["house", "old"]),
    "chips": st.dictionaries(st.sampled_from(_UIDS), st.sampled_from([1, 5, 25, 100]),
                             min_size=1, max_size=4),
    "colours": st.just({}) | st.just({5: "red"}),
    "total": st.sampled_from([0, 10, 30]),
    "counts": st.sampled_from([{}, {5: 2}, {5: 1, 25: 1}, {1: 0}]),
    "added": st.lists(st.sampled_from(_UIDS[:3]), max_size=1, unique=True).map(tuple),
    "removed": st.lists(st.sampled_from(_UIDS[-3:]), max_size=2, unique=True).map(tuple),
}
_ANY_INT = st.one_of(st.integers(-2, 12), st.sampled_from([2**53 - 1, 2**53, 10**30]),
                     st.booleans(), st.just("3"), st.just(1.0))
_ANY_STR = st.one_of(st.sampled_from(["As", "", " ", "board\n", "seat:11", "Zz"]),
                     st.text(max_size=6), st.integers(0, 3))
_BAD = {"int": _ANY_INT, "optional int": _ANY_INT, "str": _ANY_STR, "optional str": _ANY_STR,
        "choice str": _ANY_STR,
        "bool": st.integers(0, 1) | st.none(),
        "mapping": st.dictionaries(st.integers(-1, 11) | st.sampled_from(["AA", "", "x"]),
                                   _ANY_INT | _ANY_STR, max_size=3) | st.just([]),
        "levels": st.lists(st.dictionaries(st.sampled_from(
            ["small_blind", "big_blind", "ante", "minutes", "x"]), _ANY_INT, max_size=4),
            max_size=3).map(tuple) | st.just([{"small_blind": 1, "big_blind": 2}]),
        "str list": st.lists(_ANY_STR, max_size=3).map(tuple) | st.just(["AA"])}


@st.composite
def _bodies(draw):
    """A body of any type, each field good nine times in ten."""
    cls = draw(st.sampled_from(sorted(BODY_TYPES.values(), key=lambda c: c.TYPE)))
    pick = st.sampled_from(["good"] * 9 + ["bad"])
    return cls(**{f.name: draw(_GOOD[f.name] if draw(pick) == "good" else _BAD[_kind(f.name)])
                  for f in fields(cls)})


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_bodies(), st.integers(0, 2**53 - 1), st.integers(0, 2**53 - 1))
def test_every_body_validate_body_passes_is_journaled_and_read_back_exactly(body, seq, ts):
    try:
        event = make(seq, body, ts=ts)
    except EventError:
        return
    assert parse_line(event.to_line()) == event


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAME_IDS), st.lists(_bodies(), min_size=1, max_size=12))
def test_the_rules_core_takes_every_event_the_parser_takes(game, bodies):
    """The boundary the parser guards: after a table is set up and a hand started, any event
    the parser takes is applied without an exception and the snapshot is plain JSON."""
    from controller.rules import apply, initial_state, snapshot

    deck = {f"U{i:02d}": c for i, c in enumerate(FULL_DECK)}
    state = initial_state()
    seq = 0
    for body in (TableSetup(game=game), SeatTake(seat=1, player="A", stack=100),
                 SeatTake(seat=2, player="B", stack=100), DeckRegister(deck="d", tags=deck),
                 HandStart()):
        seq += 1
        state = apply(state, make(seq, body)).state
    for body in bodies:
        try:
            event = make(seq + 1, body)
        except EventError:
            continue
        seq += 1
        state = apply(state, event).state
        json.dumps(snapshot(state), allow_nan=False)
