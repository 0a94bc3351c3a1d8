"""``feltguard replay`` and ``feltguard verify`` as a person and a script use them."""

from __future__ import annotations

import io
import json

import pytest

from controller.cli import main
from controller.events import iter_lines
from controller.journal import Journal

HAND = """\
{"type":"table.setup","seats":6,"small_blind":1,"big_blind":2}
{"type":"seat.take","seat":1,"player":"Ann","stack":200}
{"type":"seat.take","seat":2,"player":"Bob","stack":200}
{"type":"seat.take","seat":3,"player":"Cat","stack":200}
{"type":"deck.register","deck":"red","tags":{"01":"As","02":"Kd","03":"Qh","04":"Jc","05":"Ts","06":"9d","07":"2c","08":"3c"}}
{"type":"hand.start","button":1}
{"type":"action","seat":2,"kind":"post","amount":1}
{"type":"action","seat":3,"kind":"post","amount":2}
{"type":"shoe.draw","uid":"01"}
{"type":"zone.read","uid":"01","zone":"seat:3"}
{"type":"action","seat":1,"kind":"fold"}
{"type":"action","seat":2,"kind":"fold"}
{"type":"hand.end"}
"""


def test_replay_for_a_person_names_rule_and_remedy(tmp_path, capsys):
    p = tmp_path / "hand.jsonl"
    p.write_text(HAND)
    assert main(["replay", str(p)]) == 0
    out = capsys.readouterr().out
    assert "MISDEAL_FIRST_CARD_WRONG_POSITION" in out
    assert "roberts-rules-v11.txt" in out
    assert "1. " in out  # the remedy, step by step
    assert "final state" in out and "Ann" in out


def test_replay_json_lines(tmp_path, capsys):
    p = tmp_path / "hand.jsonl"
    p.write_text(HAND)
    assert main(["replay", "--json", str(p)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    finding = next(x for x in lines if x["type"] == "finding")
    assert finding["code"] == "MISDEAL_FIRST_CARD_WRONG_POSITION"
    # The card's finding carries the seq of its shoe.draw (line 9), the moment it left the shoe.
    # Seats: the one that should have had it (2) and the one that got it (3).
    assert finding["seq"] == 9 and finding["seats"] == [2, 3] and finding["cards"] == ["As"]
    assert set(finding) >= {"code", "seq", "seats", "cards", "rule", "remedy"}
    assert lines[-1]["type"] == "state"


def test_replay_reads_a_journal_too(tmp_path, capsys):
    journal = tmp_path / "j.sqlite"
    with Journal(journal) as j:
        for event in iter_lines(HAND.splitlines()):
            j.append(event)
    assert main(["replay", "--json", str(journal)]) == 0
    codes = [json.loads(x).get("code") for x in capsys.readouterr().out.splitlines()]
    assert "MISDEAL_FIRST_CARD_WRONG_POSITION" in codes
    assert main(["verify", str(journal)]) == 0


def test_replay_pots_at_hand_end(tmp_path, capsys):
    p = tmp_path / "walk.jsonl"
    # Everyone folds to the big blind: the pot goes to seat 3 without showdown.
    deal = [("01", 2), ("02", 3), ("03", 1), ("04", 2), ("05", 3), ("06", 1)]
    cards = [
        json.dumps(e)
        for uid, seat in deal
        for e in ({"type": "shoe.draw", "uid": uid},
                  {"type": "zone.read", "uid": uid, "zone": f"seat:{seat}"})
    ]
    end = ['{"type":"action","seat":1,"kind":"fold"}', '{"type":"action","seat":2,"kind":"fold"}',
           '{"type":"hand.end"}']
    p.write_text("\n".join(HAND.splitlines()[:8] + cards + end) + "\n")
    assert main(["replay", "--json", str(p)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert not [x for x in lines if x["type"] == "finding"]
    pots = next(x for x in lines if x["type"] == "pots")
    assert pots["hand"] == 1
    won: dict[str, int] = {}
    for pot in pots["pots"]:
        for seat, chips in pot["shares"].items():
            won[seat] = won.get(seat, 0) + chips
    assert won == {"3": 3}  # the big blind's own 1 back uncalled, plus the small blind's 1 + 1
    final = lines[-1]["snapshot"]
    assert sum(s["stack"] for s in final["seats"]) == 600


def test_a_malformed_line_is_an_error_naming_the_line(tmp_path, capsys):
    p = tmp_path / "bad.jsonl"
    p.write_text(HAND.splitlines()[0] + '\n{"type": "action", "seat": 2, "kind": "bet"}\n')
    assert main(["replay", str(p)]) == 2
    err = capsys.readouterr().err
    assert f"{p}:2:" in err and "needs field 'amount'" in err


def test_verify_reports_a_broken_chain(tmp_path, capsys):
    import sqlite3

    journal = tmp_path / "j.sqlite"
    with Journal(journal) as j:
        for event in iter_lines(HAND.splitlines()):
            j.append(event)
    db = sqlite3.connect(journal)
    db.execute("DROP TRIGGER events_no_delete")
    db.execute("DELETE FROM events WHERE seq = 7")
    db.commit()
    db.close()
    assert main(["verify", str(journal)]) == 1
    assert "record seq 8 follows seq 6" in capsys.readouterr().out


def test_replay_missing_file(capsys):
    assert main(["replay", "/nonexistent/x.jsonl"]) == 2
    assert "nonexistent" in capsys.readouterr().err


def test_replay_output_is_deterministic(tmp_path):
    p = tmp_path / "hand.jsonl"
    p.write_text(HAND)
    outs = []
    for _ in range(2):
        buf = io.StringIO()
        from controller.cli.journal import cmd_replay
        from controller.cli.main import build_parser

        cmd_replay(build_parser().parse_args(["replay", "--json", str(p)]), out=buf)
        outs.append(buf.getvalue())
    assert outs[0] == outs[1]


# --- bad input (issue 9): one line on stderr naming the file or option, exit 2 --------------------


def _refused(argv, capsys) -> str:
    """Run the CLI on ``argv``; it must refuse with status 2 and exactly one line on stderr."""
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse
        status = exc.code
    out, err = capsys.readouterr()
    assert status == 2, (status, out, err)
    assert "Traceback" not in out + err
    [line] = err.splitlines()
    return line


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seats", "11"], "argument --seats: must be a whole number 2..10, got 11"),
        (["--seats", "1"], "argument --seats: must be a whole number 2..10, got 1"),
        (["--game", "razz", "--seats", "7"], "argument --seats: razz is simulated at 2..6 "
                                             "seats, got 7"),
        (["--game", "27_triple", "--seats", "8"], "argument --seats: 27_triple is simulated "
                                                  "at 2..6 seats, got 8"),
        (["--hands", "-5"], "argument --hands: must be a whole number >= 0, got -5"),
        (["--hands", "many"], "argument --hands: must be a whole number >= 0, got 'many'"),
        (["--mistakes", "2"], "argument --mistakes: must be a number 0..1, got 2"),
        (["--mistakes", "nan"], "argument --mistakes: must be a number 0..1, got nan"),
        (["--seat-changes", "2"], "argument --seat-changes: must be a number 0..1, got 2"),
        (["--chips", "--chip-mistakes", "1.5"], "argument --chip-mistakes: must be a number "
                                                "0..1, got 1.5"),
        (["--pace", "-1"], "argument --pace: must be a number 0..60, got -1"),
        (["--pace", "inf"], "argument --pace: must be a number 0..60, got inf"),
        (["--port", "70000"], "argument --port: must be a whole number 0..65535, got 70000"),
        (["--game", "omaha5", "--seats", "9"], "argument --seats: omaha5 is simulated at 2..8 "
                                               "seats, got 9"),
        (["--game", "horse", "--seats", "7"], "argument --seats: horse is simulated at 2..6 "
                                              "seats, got 7"),
        (["--game", "holdem"], "argument --game: invalid choice: 'holdem'"),
        (["--structure", "pot"], "argument --structure: invalid choice: 'pot'"),
        (["--game", "omaha5", "--structure", "limit"], "argument --structure: Five-card Omaha "
                                                       "is not dealt at limit; it is dealt at "
                                                       "pot-limit"),
        (["--game", "horse", "--structure", "limit"], "argument --structure: HORSE deals each "
                                                      "game at its own structure"),
        (["--host", ""], "argument --host: must be a host name or address, not empty"),
        (["--truth", ""], "argument --truth: must be a file, not empty"),
    ],
)
def test_sim_refuses_an_option_out_of_range_naming_it_and_the_range(argv, message, capsys):
    line = _refused(["sim", "--no-web", "--hands", "1", *argv], capsys)
    assert line.startswith(f"feltguard sim: {message}"), line
    assert line.endswith("(see feltguard sim --help)")


def test_the_seat_range_of_sim_is_what_the_simulated_dealer_deals():
    """cli.sim_seats against the dealer: every game's smallest and largest table deals a hand,
    one seat fewer or more is refused; the ranges follow the game's most players and its deck
    (hold'em ten, five-card Omaha eight, stud six, 2-7 triple draw six, a mixed game its
    smallest game's)."""
    import random

    from controller.cli.sim import sim_seats
    from controller.poker.variants import GAME_IDS
    from controller.sim import SIM_GAMES, SimDealer

    assert set(SIM_GAMES) == set(GAME_IDS)  # --game's choices: every game of the table
    expected = {"nlhe": 10, "omaha": 10, "omaha5": 8, "short_deck": 10, "pineapple": 10,
                "stud": 6, "razz": 6, "27_triple": 6, "badugi": 8, "draw5": 10, "horse": 6,
                "dealers_choice": 6}
    for game, hi in expected.items():
        assert sim_seats(game) == (2, hi), game
    for game in SIM_GAMES:
        lo, hi = sim_seats(game)
        for seats in (lo, hi):
            assert SimDealer(random.Random(1), seats=seats, game=game).next_hand()
        for seats in (lo - 1, hi + 1):
            with pytest.raises(ValueError, match="seats"):
                SimDealer(random.Random(1), seats=seats, game=game)


def test_sim_refuses_a_port_it_cannot_listen_on_before_starting_anything(tmp_path, capsys):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        journal = tmp_path / "j.sqlite"
        line = _refused(["sim", "--hands", "1", "--port", str(port), "--journal", str(journal)],
                        capsys)
    assert line.startswith(f"feltguard sim: --host/--port: cannot listen on 127.0.0.1:{port}: ")
    assert not journal.exists()


def test_sim_refuses_a_truth_file_it_could_not_write_before_dealing(tmp_path, capsys):
    journal = tmp_path / "j.sqlite"
    line = _refused(["sim", "--no-web", "--hands", "1", "--pace", "0", "--journal", str(journal),
                     "--truth", str(tmp_path / "no" / "truth.jsonl")], capsys)
    assert line == (f"feltguard sim: --truth {tmp_path / 'no' / 'truth.jsonl'}: no directory "
                    f"'{tmp_path / 'no'}' to write it in")
    assert not journal.exists()


def test_replay_of_a_non_utf8_scenario_names_the_file_and_line(tmp_path, capsys):
    p = tmp_path / "bad.jsonl"
    p.write_bytes(HAND.splitlines()[0].encode() + b'\n{"type":"seat.take","seat":1,"player":'
                  b'"Jos\xe9","stack":200}\n')
    line = _refused(["replay", str(p)], capsys)
    assert line == f"feltguard replay: {p}:2: not UTF-8 text (byte 0xe9 at column 43)"


@pytest.mark.parametrize("key", ["bring_in", "small_bet", "big_bet"])
def test_replay_of_a_stake_that_is_not_a_number_names_the_field(tmp_path, capsys, key):
    p = tmp_path / "stud.jsonl"
    p.write_text(f'{{"type":"table.setup","game":"razz","{key}":"two"}}\n')
    line = _refused(["replay", str(p)], capsys)
    assert line == f"feltguard replay: {p}:1: field '{key}' must be an integer, got 'two'"


def test_replay_of_an_empty_file_says_so(tmp_path, capsys):
    p = tmp_path / "empty.jsonl"
    p.write_text("# nothing but a comment\n")
    assert _refused(["replay", str(p)], capsys) == f"feltguard replay: {p}: no events in it"


def _run_config(tmp_path, deck_text: str) -> tuple[str, object]:
    deck = tmp_path / "deck-red.json"
    deck.write_text(deck_text)
    journal = tmp_path / "journal.sqlite"
    config = tmp_path / "table.toml"
    config.write_text(f"""
[[players]]
seat = 1
name = "Ann"
stack = 200

[leds]
enabled = false

[display]
port = 0

[journal]
path = "{journal}"

[deck]
file = "{deck}"
""")
    return str(config), journal


@pytest.mark.parametrize(
    ("deck", "problem"),
    [
        ('{"04A1B2C3": "As", "04A1B2C4": "Zz"}', "uid 04A1B2C4: 'Zz' is not a card"),
        ('{"04A1B2C3": "As", "04A1B2C4": "As"}', "uid 04A1B2C4: As is already the card of uid "
                                                 "04A1B2C3"),
        ('["As"]', "must hold a JSON object of tag uid -> card"),
        # issue 12: a deck of one tag was taken
        ('{"04A1B2C3": "As"}', "deck deck-red has 1 tag; a deck has 52 cards: missing 2c, 3c, "
                               "4c, 5c, 6c, 7c, 8c, 9c and 43 more"),
        ('{"decks": {"red": {"04A1B2C3": "As"}, "blue": {"04A1B2C3": "Kd"}}}',
         "uid 04A1B2C3 is in deck red (As) and in deck blue (Kd): one tag, two decks"),
    ],
)
def test_run_refuses_a_bad_deck_file_and_journals_nothing(tmp_path, capsys, deck, problem):
    """The deck was journaled as it was, and the journal then could not be replayed."""
    config, journal = _run_config(tmp_path, deck)
    line = _refused(["run", "--config", config], capsys)
    assert line.startswith(f"feltguard run: {config}: deck.file: {tmp_path / 'deck-red.json'}: "
                           f"{problem}"), line
    assert not journal.exists()


def test_run_refuses_a_config_that_is_not_utf8(tmp_path, capsys):
    p = tmp_path / "table.toml"
    p.write_bytes(b"[table]\nseats = 6 # Jos\xe9\n")
    line = _refused(["run", "--config", str(p)], capsys)
    assert line == f"feltguard run: {p}: not UTF-8 text (byte 0xe9 on line 2; TOML files are UTF-8)"


def test_verify_names_a_record_that_no_longer_parses_under_an_intact_chain(tmp_path, capsys):
    from controller.events import DeckRegister, Event

    journal = tmp_path / "j.sqlite"
    with Journal(journal) as j:
        for event in iter_lines(HAND.splitlines()):
            if event.seq == 5:  # written past the parser, as a buggy writer would
                event = Event(5, 0, DeckRegister(deck="bad", tags={"04A1B2C5": "Zz"}))
            j.append(event)
    line = _refused(["verify", str(journal)], capsys)
    assert line.startswith(f"feltguard verify: {journal}: record seq 5: field 'tags'")


def test_phh_export_refuses_to_write_over_the_journal_it_exports(tmp_path, capsys):
    journal = tmp_path / "j.sqlite"
    with Journal(journal) as j:
        for event in iter_lines(HAND.splitlines()):
            j.append(event)
    before = journal.read_bytes()
    line = _refused(["phh", "export", str(journal), "-o", str(journal)], capsys)
    assert line == (f"feltguard phh export: -o {journal}: is the file being exported; refusing "
                    "to overwrite it")
    assert journal.read_bytes() == before


def test_phh_replay_of_a_file_with_no_readable_hand_is_exit_2(tmp_path, capsys):
    p = tmp_path / "hands.phhs"
    p.write_text('[1]\nvariant = "NT"\n\n[2]\nvariant = "XX"\n', "utf-8")
    line = _refused(["phh", "replay", str(p)], capsys)
    assert line.startswith(f"feltguard phh replay: {p}: not one hand could be read: [1]: ")
    assert line.endswith("(and 1 more like it)")


def test_a_message_with_a_line_break_stays_one_line(capsys):
    from controller.cli.common import fail

    assert fail("replay", "/tmp/a\nb: no such file") == 2
    assert capsys.readouterr().err == "feltguard replay: /tmp/a\\nb: no such file\n"


def test_a_reader_that_stops_reading_gets_no_traceback(tmp_path):
    """`feltguard replay --json J | head -1`: the pipe closes under the writer (it was a
    BrokenPipeError traceback)."""
    import subprocess
    import sys
    from pathlib import Path

    feltguard = Path(sys.executable).parent / "feltguard"
    if not feltguard.exists():
        pytest.skip(f"no {feltguard}")
    p = tmp_path / "undos.jsonl"  # each undo of an undo is a finding: ~400 KB of JSON lines
    p.write_text('{"type":"table.setup"}\n' + '{"type":"undo"}\n' * 400)
    proc = subprocess.Popen([str(feltguard), "replay", "--json", str(p)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(100)
    proc.stdout.close()  # as head does
    err = proc.stderr.read().decode()
    # 141 as the shell says of a command SIGPIPE stopped: not 1, a tampered journal's status
    assert proc.wait(30) == 128 + 13
    assert err == ""


def test_help_opens_with_plain_words(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "feltguard: the controller of an instrumented live poker table" in out
    assert "``" not in out


@pytest.mark.parametrize(("snapshots", "seqs"), [
    ("none", [13]),  # the final state only
    ("hand", [13, 13]),  # after the hand's end, then the final state
    ("every", [*range(1, 14), 13]),
])
def test_replay_gives_a_snapshot_only_where_asked(tmp_path, capsys, snapshots, seqs):
    p = tmp_path / "hand.jsonl"
    p.write_text(HAND)
    assert main(["replay", "--json", "--snapshots", snapshots, str(p)]) == 0
    states = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    states = [x for x in states if x["type"] == "state"]
    assert [x.get("seq", x["snapshot"]["last_seq"]) for x in states] == seqs
    assert all(x["snapshot"]["last_seq"] == x.get("seq", 13) for x in states)
