"""``feltguard replay`` and ``feltguard verify`` as a person and a script use them."""

from __future__ import annotations

import io
import json

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
    assert "broken at seq 8" in capsys.readouterr().out


def test_replay_missing_file(capsys):
    assert main(["replay", "/nonexistent/x.jsonl"]) == 2
    assert "nonexistent" in capsys.readouterr().err


def test_replay_output_is_deterministic(tmp_path):
    p = tmp_path / "hand.jsonl"
    p.write_text(HAND)
    outs = []
    for _ in range(2):
        buf = io.StringIO()
        from controller.cli import build_parser, cmd_replay

        cmd_replay(build_parser().parse_args(["replay", "--json", str(p)]), out=buf)
        outs.append(buf.getvalue())
    assert outs[0] == outs[1]
