"""A corpus of bad files against every subcommand: one line on stderr naming the file, exit 2.

The corpus is built in a tmp dir at test time: random bytes, an empty file, a directory, a
missing path, text that is not UTF-8, a JSON Lines file with a bad line, JSON nested too deep,
a number of 5,000 digits, an SQLite header followed by garbage, an SQLite file with no events
table, a real journal cut in half, a journal holding a record the parser refuses, a bad TOML
config, a config whose deck file is bad, a deck file with a card that is not one. Each file is
given to every subcommand in every role it can play there (the file to replay, verify or
export; the config of ``run``, its deck file, its journal; the journal or truth file of
``sim``; the output of ``phh export``; the registry of ``deck check``, the output of ``deck
enrol``), and for each pair: exit status 2, exactly one line on
stderr, the line names the file, no traceback anywhere, and nothing journaled. A case that
hangs instead (a bad journal taken, and ``run`` starting the table) meets the suite's timeout.

``controller.cli.main.main`` is called in-process (capsys) for speed; two cases go through the real
entry point, ``.venv/bin/feltguard``, in a subprocess.
"""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.cli import main
from controller.events import DeckRegister, Event, iter_lines
from controller.journal import SQLITE_MAGIC, Journal

HAND = """\
{"type":"table.setup","seats":6,"small_blind":1,"big_blind":2}
{"type":"seat.take","seat":1,"player":"Ann","stack":200}
{"type":"seat.take","seat":2,"player":"Bob","stack":200}
{"type":"deck.register","deck":"red","tags":{"04A1B2C3":"As","04A1B2C4":"Kd"}}
{"type":"hand.start","button":1}
{"type":"action","seat":2,"kind":"post","amount":1}
{"type":"action","seat":1,"kind":"post","amount":2}
{"type":"shoe.draw","uid":"04A1B2C3"}
{"type":"zone.read","uid":"04A1B2C3","zone":"seat:2"}
{"type":"action","seat":2,"kind":"fold"}
{"type":"hand.end"}
"""

GOOD_DECK = '{"04A1B2C3": "As", "04A1B2C4": "Kd"}'


def _journal(path: Path, bad_record: bool = False) -> Path:
    """A real journal of HAND (``bad_record``: with a deck.register the parser refuses, written
    past the parser as a buggy writer would, in the middle)."""
    events = list(iter_lines(HAND.splitlines()))
    with Journal(path, checkpoint_every=None) as j:
        for e in events:
            if bad_record and e.seq == 6:
                j.append(Event(6, 0, DeckRegister(deck="bad", tags={"04A1B2C5": "Zz"})))
                continue
            j.append(e)
        j.checkpoint()
    return path


def _build(root: Path) -> dict[str, Path]:
    """The corpus: name -> path (a missing path too)."""
    rng = random.Random(9)
    root.mkdir()
    c: dict[str, Path] = {}

    def write(name: str, data: bytes | str) -> None:
        p = root / name
        if isinstance(data, str):
            p.write_text(data, encoding="utf-8")
        else:
            p.write_bytes(data)
        c[name] = p

    write("random.bin", bytes([0xFF, 0xFE]) + rng.randbytes(4096))
    write("empty", b"")
    (root / "a-directory").mkdir()
    c["a-directory"] = root / "a-directory"
    c["missing"] = root / "no-such-file.jsonl"
    write("latin1.jsonl", HAND.splitlines()[0].encode() + b'\n{"type":"seat.take","seat":1,'
          b'"player":"Jos\xe9","stack":200}\n')
    write("bad-line.jsonl", HAND.splitlines()[0] + '\n{"type":"action","seat":2,"kind":"bet"}\n')
    write("bad-bring-in.jsonl", '{"type":"table.setup","game":"razz","bring_in":"two"}\n')
    write("deep.jsonl", "[" * 100_000 + "\n")
    write("huge-number.jsonl", '{"type":"hand.start","seq":' + "7" * 5000 + "}\n")
    write("garbage.sqlite", SQLITE_MAGIC + rng.randbytes(8192))
    db = sqlite3.connect(root / "other.sqlite")
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    db.execute("INSERT INTO notes (text) VALUES ('not a journal')")
    db.commit()
    db.close()
    c["other.sqlite"] = root / "other.sqlite"
    whole = _journal(root / "whole.sqlite").read_bytes()
    write("truncated.sqlite", whole[: len(whole) // 2])
    c["bad-record.sqlite"] = _journal(root / "bad-record.sqlite", bad_record=True)
    write("bad.toml", "[table\nseats = 6\n")
    write("latin1.toml", b"[table]\nprofile = \"roberts\" # Jos\xe9\n")
    write("bad-card.json", '{"04A1B2C3": "As", "04A1B2C4": "Zz"}')
    write("bad-deck.toml", _config(root, deck=root / "bad-card.json", journal=root / "j1.sqlite"))
    return c


def _config(root: Path, *, deck: Path | None = None, journal: Path | None = None) -> str:
    """A run config that starts nothing real: no LEDs, no live view."""
    lines = ["[[players]]", "seat = 1", 'name = "Ann"', "stack = 200",
             "[leds]", "enabled = false", "[display]", "port = 0"]
    lines += ["[journal]", f'path = "{journal or root / "journal.sqlite"}"']
    if deck is not None:
        lines += ["[deck]", f'file = "{deck}"']
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return _build(tmp_path_factory.mktemp("bad") / "corpus")


# The roles a file plays: role -> (the names in the corpus that are bad in that role, how to
# build the command line from the file and a scratch dir). A name left out of a role is a
# good file there (an empty config is the defaults; an empty journal path is a new journal).
INPUTS = ("random.bin", "empty", "a-directory", "missing", "latin1.jsonl", "bad-line.jsonl",
          "bad-bring-in.jsonl", "deep.jsonl", "huge-number.jsonl", "garbage.sqlite",
          "other.sqlite", "truncated.sqlite", "bad-record.sqlite", "bad.toml", "latin1.toml",
          "bad-card.json", "bad-deck.toml")
NOT_A_NEW_JOURNAL = tuple(n for n in INPUTS if n not in ("empty", "missing"))
OUTPUTS = ("a-directory", "garbage.sqlite", "other.sqlite", "truncated.sqlite")

Argv = Callable[[Path, Path], list[str]]
ROLES: dict[str, tuple[tuple[str, ...], Argv]] = {
    "replay": (INPUTS, lambda f, d: ["replay", str(f)]),
    "replay --json": (INPUTS, lambda f, d: ["replay", "--json", str(f)]),
    "verify": (INPUTS, lambda f, d: ["verify", str(f)]),
    "phh replay": (INPUTS, lambda f, d: ["phh", "replay", str(f)]),
    "phh export": (INPUTS, lambda f, d: ["phh", "export", str(f)]),
    "phh export -o": (OUTPUTS, lambda f, d: ["phh", "export", str(_journal(d / "j.sqlite")),
                                             "-o", str(f)]),
    "run --config": (tuple(n for n in INPUTS if n != "empty"),
                     lambda f, d: ["run", "--config", str(f)]),
    "run [deck] file": (INPUTS, lambda f, d: ["run", "--config", str(_write(
        d / "table.toml", _config(d, deck=f, journal=d / "journal.sqlite")))]),
    "run [journal] path": (NOT_A_NEW_JOURNAL, lambda f, d: ["run", "--config", str(_write(
        d / "table.toml", _config(d, journal=f)))]),
    "sim --journal": (NOT_A_NEW_JOURNAL, lambda f, d: [
        "sim", "--no-web", "--hands", "1", "--pace", "0", "--seed", "1", "--journal", str(f)]),
    "sim --truth": (("a-directory",), lambda f, d: [
        "sim", "--no-web", "--hands", "1", "--pace", "0", "--seed", "1",
        "--journal", str(d / "journal.sqlite"), "--truth", str(f)]),
    # refused before any reader is opened (the reader path does not exist)
    "deck check --registry": (INPUTS, lambda f, d: [
        "deck", "check", "--registry", str(f), "--reader", str(d / "no-shoe")]),
    "deck enrol -o": (tuple(n for n in INPUTS if n != "missing"), lambda f, d: [
        "deck", "enrol", "--deck", "red", "--reader", str(d / "no-shoe"), "-o", str(f)]),
}

def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _cases() -> list[object]:
    return [pytest.param(role, name, id=f"{role}|{name}")
            for role, (names, _) in ROLES.items() for name in names]


def _journaled(path: Path) -> int:
    """How many events the journal at ``path`` holds (0 when there is none)."""
    if not path.is_file() or path.stat().st_size == 0:
        return 0
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT count(*) FROM events").fetchone()[0])
    except sqlite3.Error:
        return 0
    finally:
        db.close()


@pytest.mark.parametrize(("role", "name"), _cases())
def test_a_bad_file_is_one_line_naming_it_and_exit_2(
        role: str, name: str, corpus: dict[str, Path], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", _EmptyStdin())  # `run` reads console lines: none
    path = _copy(corpus[name], tmp_path / "given")
    argv = ROLES[role][1](path, tmp_path)
    before = _contents(path)
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse
        status = exc.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    lines = err.splitlines()
    assert status == 2, (status, err)
    assert len(lines) == 1, err
    shown = str(path)
    assert shown in lines[0], (shown, lines[0])
    assert lines[0].startswith(f"feltguard {role.split(' -')[0].split(' [')[0]}: ")
    # nothing journaled: no scratch journal got events, and no corpus file was written to
    assert _journaled(tmp_path / "journal.sqlite") == 0
    assert _journaled(corpus["bad-deck.toml"].parent / "j1.sqlite") == 0  # bad-deck.toml's
    assert _contents(path) == before


def _copy(src: Path, dest_dir: Path) -> Path:
    """The corpus entry copied into ``dest_dir`` (a directory made, a missing path left
    missing), so that no case can change the file another case is given."""
    dest_dir.mkdir()
    dest = dest_dir / src.name
    if src.is_dir():
        dest.mkdir()
    elif src.exists():
        for sidecar in (".key", ".anchors"):  # a journal's key and anchors come with it
            if src.with_name(src.name + sidecar).exists():
                dest.with_name(dest.name + sidecar).write_bytes(
                    src.with_name(src.name + sidecar).read_bytes())
        dest.write_bytes(src.read_bytes())
    return dest


def _contents(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None


class _EmptyStdin:
    """Standard input at its end (a console with no lines)."""

    def __iter__(self) -> _EmptyStdin:
        return self

    def __next__(self) -> str:
        raise StopIteration

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        return ""


def test_the_corpus_is_what_it_says(corpus: dict[str, Path]) -> None:
    """The files are bad in the way their names say (so the test above tests that)."""
    assert not corpus["missing"].exists() and corpus["a-directory"].is_dir()
    assert corpus["empty"].stat().st_size == 0
    with pytest.raises(UnicodeDecodeError):
        corpus["latin1.jsonl"].read_text(encoding="utf-8")
    assert corpus["garbage.sqlite"].read_bytes().startswith(SQLITE_MAGIC)
    assert corpus["truncated.sqlite"].read_bytes().startswith(SQLITE_MAGIC)
    db = sqlite3.connect(corpus["other.sqlite"])
    assert [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")] == [
        "notes"]
    db.close()
    db = sqlite3.connect(corpus["bad-record.sqlite"])
    assert '"Zz"' in db.execute("SELECT line FROM events WHERE seq = 6").fetchone()[0]
    db.close()


FELTGUARD = Path(sys.executable).parent / "feltguard"


@pytest.mark.parametrize("argv", [
    ["replay", "{latin1.jsonl}"],
    ["run", "--config", "{bad-deck.toml}"],
])
def test_the_real_entry_point(argv: list[str], corpus: dict[str, Path]) -> None:
    if not FELTGUARD.exists():
        pytest.skip(f"no {FELTGUARD} (the package is not installed in this interpreter's venv)")
    args = [str(corpus[a[1:-1]]) if a.startswith("{") else a for a in argv]
    proc = subprocess.run([str(FELTGUARD), *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, check=False)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    [line] = proc.stderr.splitlines()
    named = next(a for a in args if a.startswith("/"))
    if argv[0] == "run":  # the config names the deck file; the line names that and the uid
        named = str(corpus["bad-card.json"])
        assert "04A1B2C4" in line
    assert named in line
