"""The touch console's `input` and `choose` events against real Socket.IO clients on a live
server: who may send what (display/console_inputs.py). The submit callback records the bodies
it is given and answers like the runner's (tests/display/test_browser_console.py plays it with
the real daemon)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import socketio

from display.access import LoginLimiter
from display.server import DEALER, TABLE, ServerHandle, create_app, run_server

TOKEN = "dealer-token-1"
FLOOR = "floor-token-1"
WAIT = 10.0


class Recorder:
    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.chosen: list[str | None] = []

    def submit(self, body_json: str) -> tuple[bool, str, list[dict[str, Any]]]:
        body = json.loads(body_json)
        if body.get("type") == "game.choose" and body.get("game") == "pinochle":
            return False, "unknown game 'pinochle'", []
        self.bodies.append(body)
        return True, "", []


@pytest.fixture
def server() -> Iterator[tuple[ServerHandle, Recorder]]:
    rec = Recorder()
    app, live, _ = create_app(dealer_token=TOKEN, floor_token=FLOOR, submit=rec.submit,
                              on_choose=rec.chosen.append,
                              login_limiter=LoginLimiter(max_failures=3))
    handle = run_server(app, live, "127.0.0.1", 0)
    try:
        yield handle, rec
    finally:
        handle.stop()


def client(url: str, namespace: str, **connect: Any) -> socketio.Client:
    c = socketio.Client(reconnection=False)
    c.connect(url, namespaces=[namespace], transports=["polling"], wait_timeout=WAIT, **connect)
    return c


def ask(c: socketio.Client, event: str, data: Any, namespace: str = DEALER) -> Any:
    return c.call(event, data, namespace=namespace, timeout=WAIT)


def test_a_dealer_input_reaches_submit_and_its_answer_comes_back(server: Any) -> None:
    handle, rec = server
    c = client(handle.url, DEALER, auth={"token": TOKEN})
    try:
        reply = ask(c, "input", json.dumps({"type": "action", "seat": 3, "kind": "call"}))
        refused = ask(c, "input", json.dumps({"type": "game.choose", "game": "pinochle"}))
    finally:
        c.disconnect()
    assert reply == {"ok": True, "reason": "", "findings": []}
    assert refused == {"ok": False, "reason": "unknown game 'pinochle'", "findings": []}
    assert rec.bodies == [{"type": "action", "seat": 3, "kind": "call"}]


@pytest.mark.parametrize("data, reason", [
    ({"type": "zone.read", "uid": "04A1", "zone": "seat:1"}, "'zone.read' is not a console input"),
    ({"type": "deck.register", "deck": "x", "tags": {}}, "'deck.register' is not a console"),
    ({"type": "action", "seat": 1, "kind": "call", "seq": 9}, "send no seq or ts"),
    ({"type": "card.exposed", "uid": "04A1B2C3D4E5F6"}, "never a tag uid"),
    ("not json", "not valid JSON"),
    (12, "one event body as a JSON string"),
])
def test_what_the_page_may_not_send(server: Any, data: Any, reason: str) -> None:
    handle, rec = server
    c = client(handle.url, DEALER, auth={"token": TOKEN})
    try:
        payload = data if isinstance(data, int) or data == "not json" else json.dumps(data)
        reply = ask(c, "input", payload)
    finally:
        c.disconnect()
    assert reply["ok"] is False and reason in reply["reason"]
    assert rec.bodies == []


def test_a_ruling_needs_the_floor_token_in_the_same_message(server: Any) -> None:
    handle, rec = server
    ruling = json.dumps({"type": "floor.ruling", "text": "stands", "outcome": "stand"})
    c = client(handle.url, DEALER, auth={"token": TOKEN})
    try:
        bare = ask(c, "input", ruling)
        dealer_token = ask(c, "input", {"body": ruling, "floor": {"token": TOKEN}})
        good = ask(c, "input", {"body": ruling, "floor": {"token": FLOOR}})
        # failed floor logins count against the login rate limit (3 here)
        ask(c, "input", {"body": ruling, "floor": {"token": "x"}})
        ask(c, "input", {"body": ruling, "floor": {"token": "y"}})
        limited = ask(c, "input", {"body": ruling, "floor": {"token": FLOOR}})
    finally:
        c.disconnect()
    assert bare["ok"] is False and bare["reason"] == "a ruling needs the floor's login"
    assert dealer_token["ok"] is False  # the dealer's token is not the floor's
    assert good["ok"] is True
    assert limited == {"ok": False, "reason": "too many failed logins: try again later",
                       "findings": []}
    assert [b["type"] for b in rec.bodies] == ["floor.ruling"]


TOURNAMENT_INPUTS = [
    ({"type": "tournament.level", "level": 3}, "a tournament level needs the floor's login"),
    ({"type": "tournament.players", "remaining": 18},
     "a count of the players left needs the floor's login"),
]


@pytest.mark.parametrize("body, refusal", TOURNAMENT_INPUTS, ids=["level", "players"])
def test_a_tournament_input_needs_the_floor_token_in_the_same_message(
    server: Any, body: dict[str, Any], refusal: str
) -> None:
    handle, rec = server
    data = json.dumps(body)
    c = client(handle.url, DEALER, auth={"token": TOKEN})
    try:
        bare = ask(c, "input", data)
        no_login = ask(c, "input", {"body": data})
        dealer_token = ask(c, "input", {"body": data, "floor": {"token": TOKEN}})
        good = ask(c, "input", {"body": data, "floor": {"token": FLOOR}})
        # the dealer's token was the first failed floor login (the bare ones carried none):
        # two more reach the limit (3)
        ask(c, "input", {"body": data, "floor": {"token": "x"}})
        ask(c, "input", {"body": data, "floor": {"token": "y"}})
        limited = ask(c, "input", {"body": data, "floor": {"token": FLOOR}})
    finally:
        c.disconnect()
    assert bare == no_login == {"ok": False, "reason": refusal, "findings": []}
    assert dealer_token == {"ok": False, "reason": refusal, "findings": []}
    assert good == {"ok": True, "reason": "", "findings": []}
    assert limited == {"ok": False, "reason": "too many failed logins: try again later",
                       "findings": []}
    # the body reaches the table as sent, stamped with the floor login that was checked
    assert rec.bodies == [{**body, "ruled_by": "floor"}]


def test_a_wrong_floor_login_on_a_tournament_input_counts_for_a_ruling_too(server: Any) -> None:
    """One rate limit per address for every floor input: wrong logins on the level and the
    players left lock out the next ruling."""
    handle, rec = server
    c = client(handle.url, DEALER, auth={"token": TOKEN})
    try:
        for body, _ in TOURNAMENT_INPUTS:
            ask(c, "input", {"body": json.dumps(body), "floor": {"token": "wrong"}})
        ask(c, "input", {"body": json.dumps(TOURNAMENT_INPUTS[0][0]), "floor": {"user": "x"}})
        ruling = json.dumps({"type": "floor.ruling", "text": "stands"})
        limited = ask(c, "input", {"body": ruling, "floor": {"token": FLOOR}})
    finally:
        c.disconnect()
    assert limited["reason"] == "too many failed logins: try again later"
    assert rec.bodies == []


def test_no_floor_login_configured_refuses_tournament_inputs() -> None:
    rec = Recorder()
    app, live, _ = create_app(dealer_token=TOKEN, submit=rec.submit)
    handle = run_server(app, live, "127.0.0.1", 0)
    c = client(handle.url, DEALER, auth={"token": TOKEN})
    try:
        reply = ask(c, "input", {"body": json.dumps({"type": "tournament.level", "level": 2}),
                                 "floor": {"token": FLOOR}})
    finally:
        c.disconnect()
        handle.stop()
    assert reply == {"ok": False, "findings": [],
                     "reason": "no floor login is configured: a tournament level is refused"}
    assert rec.bodies == []


def test_the_public_namespace_sends_nothing(server: Any) -> None:
    handle, rec = server
    c = client(handle.url, TABLE)
    try:
        reply = ask(c, "input", json.dumps({"type": "hand.end"}), namespace=TABLE)
        with pytest.raises(socketio.exceptions.TimeoutError):  # no handler: no answer
            c.call("choose", {"card": "As"}, namespace=TABLE, timeout=1)
    finally:
        c.disconnect()
    assert reply["ok"] is False and reply["reason"] == "the public view cannot send inputs"
    assert rec.bodies == [] and rec.chosen == []


def test_the_chosen_card_goes_to_the_hook(server: Any) -> None:
    handle, rec = server
    c = client(handle.url, DEALER, auth={"token": TOKEN})
    try:
        assert ask(c, "choose", {"card": "As"})["chosen"] == "As"
        assert ask(c, "choose", {"card": "last"})["chosen"] == "last"
        assert ask(c, "choose", {"card": "Zz"})["ok"] is False
        assert ask(c, "choose", {"card": None})["chosen"] is None
    finally:
        c.disconnect()
    assert rec.chosen == ["As", "last", None]


def test_no_submit_wired_refuses_inputs() -> None:
    app, live, _ = create_app(dealer_token=TOKEN)
    handle = run_server(app, live, "127.0.0.1", 0)
    c = client(handle.url, DEALER, auth={"token": TOKEN})
    try:
        reply = ask(c, "input", json.dumps({"type": "hand.end"}))
    finally:
        c.disconnect()
        handle.stop()
    assert reply["ok"] is False and "no table is attached" in reply["reason"]


def test_the_runners_submit_journals_first_and_refuses_what_the_vocabulary_refuses(tmp_path):
    """``controller.daemon.console_submit``: the body parsed as the journal reads it back, then
    ``TableDaemon.submit``; a refusal is one line and nothing is journaled; a journal that
    cannot take the event answers "not recorded" instead of raising into the server."""
    from controller.daemon.console_submit import console_submit
    from controller.daemon.table_daemon import TableDaemon
    from controller.events import SeatTake, TableSetup
    from controller.journal import Journal, read_events

    journal = Journal(tmp_path / "j.sqlite")
    daemon = TableDaemon(journal)
    daemon.submit(TableSetup(seats=2))
    daemon.submit(SeatTake(seat=1, player="Ann", stack=100))
    daemon.submit(SeatTake(seat=2, player="Bob", stack=100))
    submit = console_submit(daemon)
    assert submit(json.dumps({"type": "hand.start"})) == (True, "", [])
    ok, reason, _ = submit(json.dumps({"type": "action", "seat": 1, "kind": "jump"}))
    assert not ok and "unknown action 'jump'" in reason and "\n" not in reason
    ok, reason, _ = submit("{")
    assert not ok and reason
    ok, reason, _ = submit(json.dumps({"type": "card.exposed", "card": "As"}))
    assert not ok and "As" in reason  # no card has been dealt: the core's reason
    assert [e.type for e in read_events(journal.path)][-1] == "hand.start"
    journal.close()  # the journal gone: an input is answered, not raised
    ok, reason, _ = submit(json.dumps({"type": "shuffle.done"}))
    assert not ok and reason.startswith("not recorded")


def test_the_console_page_sits_behind_the_login_and_the_login_returns_to_it() -> None:
    app, _, _ = create_app(dealer_token=TOKEN)
    web = app.test_client()
    form = web.get("/dealer/console")
    assert form.status_code == 200 and b'name="next" value="/dealer/console"' in form.data
    assert web.get("/dealer/console?token=" + TOKEN).headers["Location"] == "/dealer/console"
    back = web.post("/dealer/login", data={"token": TOKEN, "next": "/dealer/console"})
    assert back.status_code == 303 and back.headers["Location"] == "/dealer/console"
    page = web.get("/dealer/console")
    assert page.status_code == 200 and b'<body data-role="console">' in page.data
    # the form's `next` is never an open redirect
    other = app.test_client().post("/dealer/login",
                                   data={"token": TOKEN, "next": "https://evil.example/"})
    assert other.headers["Location"] == "/dealer"


@pytest.mark.parametrize("body, reason", [
    ({"type": "tournament.level", "level": 0}, "level"),
    ({"type": "tournament.level", "level": "2"}, "level"),
    ({"type": "tournament.level"}, "level"),
    ({"type": "tournament.players", "remaining": 0}, "'remaining' must be >= 1"),
    ({"type": "tournament.players", "remaining": 2.5}, "remaining"),
    ({"type": "tournament.players", "remaining": 5, "by": "floor"}, "by"),
])
def test_the_runners_submit_refuses_malformed_tournament_bodies(
    tmp_path: Any, body: dict[str, Any], reason: str
) -> None:
    """A tournament input that passed the floor check is still the vocabulary's to judge
    (``controller.daemon.console_submit``): a malformed one is refused with a one-line reason and
    never journaled; a good one is."""
    from controller.daemon.console_submit import console_submit
    from controller.daemon.table_daemon import TableDaemon
    from controller.events import SeatTake, TableSetup, TournamentSetup
    from controller.journal import Journal, read_events

    journal = Journal(tmp_path / "j.sqlite")
    daemon = TableDaemon(journal)
    daemon.submit(TableSetup(seats=2, profile="tda-tournament"))
    daemon.submit(SeatTake(seat=1, player="Ann", stack=100))
    daemon.submit(SeatTake(seat=2, player="Bob", stack=100))
    daemon.submit(TournamentSetup(levels=({"small_blind": 1, "big_blind": 2},
                                          {"small_blind": 2, "big_blind": 4})))
    submit = console_submit(daemon)
    try:
        ok, why, _ = submit(json.dumps(body))
        assert not ok and reason in why and "\n" not in why
        assert [e.type for e in read_events(journal.path)][-1] == "tournament.setup"
        assert submit(json.dumps({"type": "tournament.players", "remaining": 9})) == (True, "", [])
        assert daemon.last_snapshot["hand"]["players_left"] == 9
    finally:
        journal.close()
