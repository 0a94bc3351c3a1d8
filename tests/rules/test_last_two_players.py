"""The tournament's last two players as an explicit event (issue 31): ``tournament.players``.

Fixed limit: heads-up the raising is unlimited (RR Section 3 Betting and Raising r.5), except in
a tournament until the event is down to its last two players (RR Section 15 r.23; AZW Section 3
r.5, Section 15 r.23). A table of a multi-table event cannot see the other tables: the director
tells it the players left (``tournament.players``, or the entrants of ``tournament.setup``),
each player busted here lowers the count, and ``new_hand.last_two`` takes the count as the rule
when told (else it infers the last two from this table, as before). The scenarios
tests/scenarios/table/last_two_*.jsonl replay the two stories; these tests vary them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from controller.console.lines import parse_command
from controller.events import (
    Action,
    Event,
    EventError,
    SeatTake,
    TableSetup,
    TournamentPlayers,
    TournamentSetup,
    make,
    parse_event,
    parse_line,
    read_scenario,
)
from controller.rules import apply, initial_state, snapshot
from controller.rules.findings import Finding
from controller.rules.table import seating
from controller.rules.table.state import TableState
from controller.surveillance.review_words import event_words

TABLE = Path(__file__).resolve().parent.parent / "scenarios" / "table"
TOLD = TABLE / "last_two_told_by_the_director_roberts.jsonl"
BUST = TABLE / "last_two_after_a_bust_here_tda.jsonl"


def _replay(events: list[Event]) -> tuple[TableState, list[Finding], dict[int, dict]]:
    """The final state, every finding, and each hand's snapshot as it started."""
    state = initial_state()
    found: list[Finding] = []
    hands: dict[int, dict] = {}
    for event in events:
        step = apply(state, event)
        state = step.state
        found.extend(step.findings)
        if event.type == "hand.start":
            hand = snapshot(state)["hand"]
            hands[hand["number"]] = hand
    return state, found, hands


def _raises(events: list[Event], seat: int) -> list[int]:
    """The seqs of ``seat``'s raises."""
    return [e.seq for e in events
            if isinstance(e.body, Action) and e.body.seat == seat and e.body.kind == "raise"]


# --- the count decides -----------------------------------------------------------------------


def _until(events: list[Event], seq: int) -> list[Event]:
    return [e for e in events if e.seq <= seq]


def test_nothing_told_the_table_infers_the_last_two_as_before() -> None:
    """The same two-handed table told nothing: no other seat has chips, so the table takes its
    two for the event's last two and hand 1 raises without a cap (the inference, unchanged):
    seat 2's fourth raise of the round stands."""
    events = [e for e in read_scenario(TOLD) if not isinstance(e.body, TournamentPlayers)]
    events = [replace(e, body=replace(e.body, players=None))
              if isinstance(e.body, TournamentSetup) else e for e in events]
    fourth = _raises(events, 2)[1]
    state, found, hands = _replay(_until(events, fourth))
    assert [f.code for f in found] == []
    assert snapshot(state)["hand"]["current_bet"] == 10
    assert hands[1]["players_left"] is None and hands[1]["house"] == {}


def test_the_entrants_alone_keep_the_cap_at_a_two_handed_table() -> None:
    """Told only the entrants (40, ``tournament.setup``): the event is not down to two, the
    cap holds heads-up in hand 2 too (seat 1's fourth raise of the round)."""
    events = [e for e in read_scenario(TOLD) if not isinstance(e.body, TournamentPlayers)]
    fourth = _raises(events, 1)[-1]
    _, found, hands = _replay(_until(events, fourth))
    assert [(f.code, f.seq) for f in found] == [("RAISE_CAPPED", _raises(events, 2)[1]),
                                                 ("RAISE_CAPPED", fourth)]
    assert hands[1]["players_left"] == hands[2]["players_left"] == 40
    assert hands[2]["house"] == {"heads_up_uncapped": "never"}


def test_a_count_told_during_a_hand_applies_from_the_next_hand() -> None:
    """'2 left' told during hand 1, before the fourth raise: hand 1 keeps the cap it was dealt
    with (RAISE_CAPPED), hand 2 raises without a limit."""
    events = read_scenario(TOLD)
    two = next(e for e in events if isinstance(e.body, TournamentPlayers)
               and e.body.remaining == 2)
    rest = [e for e in events if e is not two]
    fourth = _raises(rest, 2)[1]  # seat 2's second raise: the fourth of the round
    at = next(i for i, e in enumerate(rest) if e.seq == fourth)
    moved = [*rest[:at], replace(two, seq=fourth - 1), *rest[at:]]
    moved = [replace(e, seq=i) for i, e in enumerate(moved, start=1)]
    state, found, hands = _replay(moved)
    assert [(f.code, list(f.seats)) for f in found] == [("RAISE_CAPPED", [2])]
    assert hands[1]["players_left"] == 5 and hands[2]["players_left"] == 2
    assert hands[2]["house"] == {}
    assert state.seating.players_left == 2


def test_a_bust_here_lowers_the_count_and_the_count_not_the_table_rules() -> None:
    """Told 4 at the 3-handed table: seat 3 busts, 3 are left, somebody plays at another
    table. Hand 2 is dealt heads-up with nobody else seated here (the inference would lift the
    cap): the count keeps it, seat 1's fourth raise of the round is RAISE_CAPPED."""
    events = [replace(e, body=TournamentPlayers(remaining=4))
              if isinstance(e.body, TournamentPlayers) else e for e in read_scenario(BUST)]
    fourth = _raises(events, 1)[1]
    state, found, hands = _replay(_until(events, fourth))
    assert [(f.code, f.seq) for f in found] == [("RAISE_CAPPED", fourth)]
    assert found[0].rule.rule == "23"
    assert hands[1]["players_left"] == 4 and hands[2]["players_left"] == 3
    assert hands[2]["house"] == {"heads_up_uncapped": "never"}
    assert state.seating.eliminated == ("CCC",)


# --- where the count may be told -------------------------------------------------------------


def _table(*bodies: object) -> tuple[TableState, list[Finding]]:
    state = initial_state()
    found: list[Finding] = []
    for seq, body in enumerate(bodies, start=1):
        step = apply(state, make(seq, body))  # type: ignore[arg-type]
        state = step.state
        found.extend(step.findings)
    return state, found


THREE = (SeatTake(seat=1, player="Ann", stack=100), SeatTake(seat=2, player="Bob", stack=100),
         SeatTake(seat=3, player="Cyd", stack=100))


def test_a_cash_table_has_no_players_left_to_count() -> None:
    state, found = _table(TableSetup(game="flhe"), *THREE, TournamentPlayers(remaining=2))
    assert [f.code for f in found] == ["EVENT_OUT_OF_PLACE"]
    assert "not a tournament" in found[0].message
    assert state.seating.players_left is None
    assert snapshot(state)["hand"]["players_left"] is None


def test_fewer_left_than_the_players_with_chips_here_is_refused() -> None:
    tour = TableSetup(game="flhe", profile="tda-tournament")
    state, found = _table(tour, *THREE, TournamentPlayers(remaining=2))
    assert [f.code for f in found] == ["EVENT_OUT_OF_PLACE"]
    assert "cannot have 2 players left: 3 players have chips" in found[0].message
    assert state.seating.players_left is None
    state, found = _table(tour, *THREE, TournamentSetup(
        levels=({"small_blind": 1, "big_blind": 2},), players=2))
    assert "cannot have 2 entrants" in found[0].message
    state, found = _table(tour, *THREE, TournamentPlayers(remaining=3))
    assert found == [] and snapshot(state)["hand"]["players_left"] == 3


def test_the_count_outlives_a_schedule_and_a_set_up_sent_again() -> None:
    tour = TableSetup(game="flhe", profile="tda-tournament")
    levels = ({"small_blind": 1, "big_blind": 2},)
    state, found = _table(tour, *THREE, TournamentSetup(levels=levels, players=90),
                          TournamentPlayers(remaining=12), TournamentSetup(levels=levels), tour)
    assert found == [] and state.seating.players_left == 12
    state, _ = _table(tour, TournamentPlayers(remaining=12), TableSetup(game="flhe"))
    assert state.seating.players_left is None  # a cash table now


def test_a_bust_by_the_seating_layer_lowers_the_count_never_below_the_table() -> None:
    table = seating.new_table(tournament=True, levels=(seating.Level(60_000, 1, 2),))
    for n, name in ((1, "Ann"), (2, "Bob"), (3, "Cyd")):
        table = seating.sit_down(table, n, name, 100)
    told = replace(table, players_left=5)
    assert seating.bust(told, 3).players_left == 4
    # a count told too low never says fewer than the players still seated with chips here
    assert seating.bust(replace(table, players_left=3), 3).players_left == 2
    assert seating.bust(replace(table, players_left=2), 3).players_left == 2
    assert seating.bust(table, 3).players_left is None  # not told: nothing to lower


# --- the vocabulary --------------------------------------------------------------------------


@pytest.mark.parametrize(("obj", "message"), [
    ({"type": "tournament.players", "remaining": 0}, "field 'remaining' must be >= 1"),
    ({"type": "tournament.players", "remaining": -3}, "field 'remaining' must be >= 1"),
    ({"type": "tournament.players", "remaining": "x"}, "field 'remaining' must be an integer"),
    ({"type": "tournament.players", "remaining": True}, "field 'remaining' must be an integer"),
    ({"type": "tournament.players"}, "tournament.players needs field 'remaining'"),
    ({"type": "tournament.setup", "levels": [{"small_blind": 1, "big_blind": 2}],
      "players": 0}, "field 'players' must be >= 1"),
    ({"type": "tournament.setup", "levels": [{"small_blind": 1, "big_blind": 2}],
      "players": "many"}, "field 'players' must be an integer"),
])
def test_a_bad_count_is_one_line_naming_the_field(obj: dict, message: str) -> None:
    with pytest.raises(EventError, match=message) as err:
        parse_event(obj)
    assert "\n" not in str(err.value)


def test_the_events_read_back_and_an_old_schedule_line_is_unchanged() -> None:
    line = '{"seq":1,"ts":0,"type":"tournament.players","remaining":5}'
    assert parse_line(line).to_line() == line
    old = '{"seq":2,"ts":0,"type":"tournament.setup","levels":[{"small_blind":1,"big_blind":2}]}'
    assert parse_line(old).to_line() == old
    entrants = parse_line(old[:-1] + ',"players":40}')
    assert entrants.body.players == 40 and parse_line(entrants.to_line()) == entrants
    # entered at the touch console: stamped with the floor login that was checked
    for stamped in ('{"seq":3,"ts":0,"type":"tournament.players","remaining":4,'
                    '"ruled_by":"flo"}',
                    '{"seq":4,"ts":0,"type":"tournament.level","level":2,"ruled_by":"flo"}'):
        assert parse_line(stamped).to_line() == stamped
    with pytest.raises(EventError, match="field 'ruled_by' is longer than 64 characters"):
        parse_event({"type": "tournament.level", "level": 2, "ruled_by": "x" * 65})


def test_the_console_line_and_the_review_words() -> None:
    assert parse_command("players 5") == TournamentPlayers(remaining=5)
    for bad, message in (("players", "usage: players N"), ("players x", "whole number"),
                         ("players 0", "field 'remaining' must be >= 1")):
        with pytest.raises(EventError, match=message):
            parse_command(bad)
    assert event_words({"type": "tournament.players", "remaining": 5}, {}, {}) == \
        "tournament: 5 players left in the event"
    assert event_words({"type": "tournament.level", "level": 3, "ruled_by": "flo"}, {}, {}) == \
        "tournament level 3 (set by the floor: flo)"
    assert event_words({"type": "tournament.setup", "levels": [{}], "players": 40}, {}, {}) == \
        "tournament: 1 levels, 40 entrants"
