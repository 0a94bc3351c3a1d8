"""``feltguard config check FILE`` and ``feltguard --version``: a one-screen summary and exit 0,
or one line naming the file and the bad key and exit 2; the package's version."""

from __future__ import annotations

import json
import socket
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from controller.cli import main
from controller.config import Config
from controller.poker.cards import FULL_DECK

EXAMPLE = Path(__file__).resolve().parent.parent / "hardware" / "table.example.toml"


@pytest.fixture(autouse=True)
def _desk_gpio(monkeypatch):
    """A desk machine made to look like a table to gpiozero: its default factory is the mock
    (as ``GPIOZERO_PIN_FACTORY=mock`` does by hand), so the check's GPIO probe passes here."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")


def _status(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse's --version and usage errors
        return int(exc.code or 0)


def test_config_check_of_the_example_summarises_it_on_one_screen(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # the journal path is relative: resolved from here
    assert _status(["tls", "init", "--config", str(EXAMPLE)]) == 0  # (tls/ beside it)
    capsys.readouterr()
    assert _status(["config", "check", str(EXAMPLE)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[0] == f"{EXAMPLE}: ok"
    assert len(lines) <= 24  # one screen; and lines a terminal keeps (but a path's length)
    assert max(len(x) for x in lines if str(tmp_path) not in x and str(EXAMPLE) not in x) <= 110
    text = "\n".join(lines)
    for expected in (
        "game         No-limit hold'em (nlhe), no-limit (its usual)",
        "stakes       blinds 1/2",
        "house rules  profile roberts (the default)",
        "seats        6; players at set-up: seat 1 Ann 200, seat 2 Bob 200",
        "readers      /dev/pokershoe at 115200 baud",
        "LEDs         one pin per LED, 26 pins ([leds.pins])",
        "display      listens on 0.0.0.0:5000 (every interface: the table's network reaches it)",
        "broadcast /broadcast: every hole card 1800 s late (a public table)",
        f"journal      {tmp_path / 'feltguard-journal.sqlite'} (new)",
        f"key {tmp_path / 'feltguard-journal.sqlite.key'} (created at start)",
        f"anchors {tmp_path / 'feltguard-journal.sqlite.anchors'}",
        "a new segment at the first hand's end of each day",
    ):
        assert expected in text, expected
    assert "https://127.0.0.1:5000/" in text  # an address to browse, not 0.0.0.0
    assert f"HTTPS: {tmp_path / 'tls' / 'server.pem'} (" in text and "(396 days)" in text


def test_config_check_of_a_shift_register_stud_table(capsys, tmp_path):
    deck = tmp_path / "deck-red.json"
    deck.write_text(json.dumps({f"04A1B2{i:02X}": c for i, c in enumerate(FULL_DECK)}))
    p = tmp_path / "table.toml"
    p.write_text(f"""
[table]
game = "stud"
ante = 1
bring_in = 2
small_bet = 4
big_bet = 8
profile = "wsop-2009"
settings = {{ stud_last_card_up = "rest_down" }}

[leds]
driver = "shift_register"

[leds.shift_register]
enable = ""
seats = 8

[display]
host = "127.0.0.1"
port = 0

[journal]
path = "{tmp_path / 'j.sqlite'}"

[deck]
file = "{deck}"
""")
    assert _status(["config", "check", str(p)]) == 0
    text = capsys.readouterr().out
    assert "Seven-card stud (stud), limit (its usual)" in text
    assert "blinds 1/2, ante 1, bring-in 2, small bet 4, big bet 8" in text
    assert "profile wsop-2009; settings stud_last_card_up = 'rest_down'" in text
    assert ("74HCT595 chain, 8 seats: data GPIO10, clock GPIO11, latch GPIO8, enable tied to "
            "GND") in text
    assert "display      off (display.port = 0)" in text
    assert f"deck         {deck}" in text


@pytest.mark.parametrize(("toml", "line"), [
    ("[table]\nseats = 12\n", "table.seats: must be 2..10, got 12"),
    ("[display]\nhots = \"0.0.0.0\"\n", "display.hots: unknown key (known: client_ca, "
                                        "dealer_token, floor_token, host, port, tls, tls_cert, "
                                        "tls_key)"),
    ("[display]\nserver = \"gunicorn\"\n", "display.server: no longer a setting: the live "
                                           "view is served by uvicorn"),
    ("[leds.pins]\nalert = \"GPIO99\"\n", "leds.pins: "),
    ("[display]\nhost = \"no-such-host.invalid\"\n", "display.host: cannot resolve "
                                                     "'no-such-host.invalid'"),
    ("[deck]\nfile = \"missing.json\"\n", "deck.file: missing.json: cannot read"),
    ("[table\n", "not valid TOML"),
    ("[broadcast]\ndelay_s = 0\n", "broadcast.delay_s: 0 would show hole cards live"),
    ("[broadcast]\ndelay_s = -5\n", "broadcast.delay_s: must be 0..86400 seconds, got -5"),
])
def test_config_check_names_the_bad_key_on_one_line_and_exits_2(toml, line, capsys, tmp_path,
                                                                monkeypatch):
    monkeypatch.chdir(tmp_path)
    p = tmp_path / "table.toml"
    p.write_text(toml)
    assert _status(["config", "check", str(p)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    [got] = err.splitlines()
    assert got.startswith(f"feltguard config check: {p}: {line}"), got


def test_config_check_of_a_missing_file(capsys, tmp_path):
    assert _status(["config", "check", str(tmp_path / "none.toml")]) == 2
    [got] = capsys.readouterr().err.splitlines()
    assert got == f"feltguard config check: {tmp_path / 'none.toml'}: cannot read: No such file " \
                  "or directory"


def test_version_is_the_installed_packages(capsys):
    assert _status(["--version"]) == 0
    assert capsys.readouterr().out == f"feltguard {version('feltguard')}\n"


def test_run_listens_on_every_interface_by_default_and_sim_on_this_machine_only():
    """The tablet must reach the table; the demo shows nothing to the network unless asked
    (docs/display.md, "Where it listens")."""
    from controller.cli.main import build_parser

    assert Config().host == "0.0.0.0"
    assert build_parser().parse_args(["sim"]).host == "127.0.0.1"
    assert socket.inet_aton(Config().host)  # an address the server binds, not a name


@pytest.mark.parametrize("section", ["leds", "keys"])
def test_config_check_refuses_pins_gpiozero_cannot_drive_here_and_names_the_setting(
        section, capsys, tmp_path, monkeypatch):
    """Off a Pi, ``run`` failed after four gpiozero fallback warnings although the check had
    passed (issue 26): the check makes the pin factory ``run`` will use and names the setting."""
    monkeypatch.setitem(sys.modules, "lgpio", None)  # as on a desk: no lgpio to import
    p = tmp_path / "table.toml"
    if section == "leds":
        p.write_text('[leds]\npin_factory = "lgpio"\n')
    else:  # keys take "" (gpiozero's default, lgpio here) or "mock"
        monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")
        p.write_text('[keys]\nenabled = true\n[leds]\nenabled = false\n')
    assert _status(["config", "check", str(p)]) == 2
    [got] = capsys.readouterr().err.splitlines()
    assert got.startswith(f"feltguard config check: {p}: {section}.pin_factory: no GPIO pins "
                          "on this machine"), got
    assert f'set {section}.pin_factory = "mock" for a desk test' in got
    assert "lgpio" in got


def test_run_refused_for_its_pins_writes_nothing(capsys, tmp_path, monkeypatch):
    """``run`` refuses what the check refuses, before any token, audit log or journal."""
    monkeypatch.setitem(sys.modules, "lgpio", None)
    folder = tmp_path / "table"
    folder.mkdir()
    p = tmp_path / "table.toml"
    p.write_text(f'[leds]\npin_factory = "lgpio"\n[display]\nhost = "127.0.0.1"\nport = 0\n'
                 f'[journal]\npath = "{folder / "journal.sqlite"}"\n')
    assert _status(["run", "--config", str(p)]) == 2
    [got] = capsys.readouterr().err.splitlines()
    assert got.startswith(f"feltguard run: {p}: leds.pin_factory: no GPIO pins"), got
    assert list(folder.iterdir()) == []


def test_run_that_cannot_open_its_journal_leaves_no_token_or_audit_log(capsys, tmp_path):
    """A refusal found only when the table opens (here a journal whose chain does not check
    out with its key) comes after the live view's tokens and audit log were made: they go
    again, as if never started."""
    from controller.events import Event, TableSetup
    from controller.journal import Journal

    folder = tmp_path / "table"
    folder.mkdir()
    path = folder / "journal.sqlite"
    with Journal(path) as journal:
        journal.append(Event(seq=1, ts=0, body=TableSetup()))
    with Journal(tmp_path / "other.sqlite"):
        pass  # another journal's key, put in place of this one's
    Path(f"{path}.key").write_bytes(Path(f"{tmp_path / 'other.sqlite'}.key").read_bytes())
    def files() -> list[str]:  # (SQLite's own -wal and -shm come and go with the journal)
        return sorted(x.name for x in folder.iterdir() if not x.name.endswith(("-wal", "-shm")))

    kept = files()
    p = tmp_path / "table.toml"
    with socket.socket() as probe:  # a free port: the live view is made before the table
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    p.write_text(f'[leds]\npin_factory = "mock"\n[display]\nhost = "127.0.0.1"\ntls = false\n'
                 f'port = {port}\n[journal]\npath = "{path}"\n')
    assert _status(["run", "--config", str(p)]) == 2
    [got] = capsys.readouterr().err.splitlines()
    assert got.startswith("feltguard run: ") and "another key" in got, got
    assert files() == kept
