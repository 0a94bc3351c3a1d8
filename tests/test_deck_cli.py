"""``feltguard deck enrol`` and ``feltguard deck check`` through the real CardReader on a pty,
the simulated reader (drivers/simulated_reader.py) feeding the shoe's read frames."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.cli.main import build_parser, main
from controller.poker.cards import FULL_DECK
from controller.tags.deck_enrol import NEW_DECK_ORDER
from controller.tags.deckfile import Registry, load_registry, write_registry
from drivers.simulated_reader import SimulatedReader

DEADLINE = 20.0  # seconds; generous for a loaded box, never reached when things work
# The pass ends this long after the last card (--timeout): long enough that a reader thread
# starved on a loaded box does not end a pass early.
PASS_S = "1.5"
RED = [f"04AA{i:06X}" for i in range(52)]  # the tags of deck red, in new-deck order
BLUE = [f"04BB{i:06X}" for i in range(52)]


class Out:
    """What the command prints, written from its thread and read from the test's."""

    def __init__(self) -> None:
        self.text = ""
        self._lock = threading.Lock()

    def write(self, s: str) -> int:
        with self._lock:
            self.text += s
        return len(s)

    def flush(self) -> None:
        pass

    def wait_for(self, needle: str) -> bool:
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            with self._lock:
                if needle in self.text:
                    return True
            time.sleep(0.01)
        return False


class Command:
    """A ``feltguard deck`` command running on its own thread, as at the terminal."""

    def __init__(self, argv: list[str]) -> None:
        self.args = build_parser().parse_args(argv)
        self.out = Out()
        self.status: int | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        self.status = self.args.func(self.args, self.out)

    def wait(self) -> int | None:
        self.thread.join(DEADLINE)
        assert not self.thread.is_alive(), self.out.text
        return self.status


@pytest.fixture
def shoe(tmp_path: Path) -> Iterator[SimulatedReader]:
    with SimulatedReader(tmp_path / "pokershoe") as reader:
        yield reader


def enrol(shoe: SimulatedReader, output: Path, deck: str, uids: list[str],
          *more: str, timeout: str = PASS_S) -> Command:
    """Run ``deck enrol`` and pass ``uids`` through the shoe once it is open."""
    cmd = Command(["deck", "enrol", "--deck", deck, "--reader", shoe.link_path, "--timeout",
                   timeout, "-o", str(output), *more])
    assert cmd.out.wait_for("pass its"), cmd.out.text
    for uid in uids:
        shoe.send_read(1, 0, uid)
    return cmd


def check(shoe: SimulatedReader, registry: Path, uids: list[str], *more: str,
          timeout: str = PASS_S) -> Command:
    cmd = Command(["deck", "check", "--registry", str(registry), "--reader", shoe.link_path,
                   "--timeout", timeout, *more])
    assert cmd.out.wait_for("pass it through"), cmd.out.text
    for uid in uids:
        shoe.send_read(1, 0, uid)
    return cmd


def _refusal(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    [line] = err.splitlines()
    return line


def test_enrol_a_full_deck_in_new_deck_order(shoe: SimulatedReader, tmp_path: Path) -> None:
    out = tmp_path / "decks.json"
    cmd = enrol(shoe, out, "red", RED[:10])
    shoe.send_read(1, 0, RED[9])  # the tenth card read again at once: the same card
    for uid in RED[10:]:
        shoe.send_read(1, 0, uid)
    assert cmd.wait() == 0, cmd.out.text
    reg = load_registry(str(out))
    assert reg.in_play == "red" and list(reg.decks) == ["red"]
    assert reg.decks["red"] == dict(zip(RED, NEW_DECK_ORDER, strict=True))
    assert NEW_DECK_ORDER == FULL_DECK and reg.decks["red"][RED[0]] == "2c"
    assert reg.decks["red"][RED[51]] == "As"
    assert f" 52/52 As {RED[51]}" in cmd.out.text
    assert "deck red: 52 cards enrolled" in cmd.out.text


def test_enrol_a_second_deck_with_its_joker_into_the_same_registry(
        shoe: SimulatedReader, tmp_path: Path) -> None:
    out = tmp_path / "decks.json"
    write_registry(str(out), Registry("red", {"red": dict(zip(RED, FULL_DECK, strict=True))}))
    cmd = enrol(shoe, out, "blue", [*BLUE, "04BBFFFFFF"], "--jokers", "1")
    assert cmd.wait() == 0, cmd.out.text
    reg = load_registry(str(out))
    assert list(reg.decks) == ["red", "blue"] and reg.in_play == "red"
    assert reg.decks["blue"]["04BBFFFFFF"] == "Xx" and len(reg.decks["blue"]) == 53
    assert "53/53 Xx 04BBFFFFFF" in cmd.out.text


def test_enrol_refuses_a_deck_missing_a_card_and_writes_nothing(
        shoe: SimulatedReader, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "decks.json"
    cmd = enrol(shoe, out, "red", RED[:51])
    assert cmd.wait() == 2
    assert _refusal(capsys) == (
        f"feltguard deck enrol: deck red refused, {out} unchanged: missing As: the pass ended "
        "after 51 of 52 cards (As was due next; a card missing earlier shifts the rest, so "
        "check the deck's order)")
    assert not out.exists()


def test_enrol_refuses_a_tag_read_twice_where_a_new_card_is_due(
        shoe: SimulatedReader, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "decks.json"
    cmd = enrol(shoe, out, "red", RED[:10], timeout="3")
    time.sleep(0.7)  # past the shoe's debounce: a second pass of the card, not a repeat
    shoe.send_read(1, 0, RED[3])
    assert cmd.wait() == 2
    line = _refusal(capsys)
    assert line.startswith(f"feltguard deck enrol: deck red refused, {out} unchanged: tag "
                           f"{RED[3]} read again where Qc was due: it is already 5c of this "
                           "pass"), line
    assert not out.exists()


def test_enrol_refuses_an_extra_tag(shoe: SimulatedReader, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "decks.json"
    cmd = enrol(shoe, out, "red", [*RED, "04AAFFFFFF"])
    assert cmd.wait() == 2
    assert _refusal(capsys).endswith("an extra tag 04AAFFFFFF after the last card (As): a deck "
                                     "of 52 cards ends there")
    assert not out.exists()


def test_enrol_refuses_a_tag_of_another_registered_deck_and_keeps_the_registry(
        shoe: SimulatedReader, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "decks.json"
    write_registry(str(out), Registry("red", {"red": dict(zip(RED, FULL_DECK, strict=True))}))
    before = out.read_bytes()
    cmd = enrol(shoe, out, "blue", [*BLUE[:12], RED[40]])  # red's 3s in the blue deck
    assert cmd.wait() == 2
    assert _refusal(capsys).endswith(f"tag {RED[40]}, read where Ac was due, is 3s of deck red, "
                                     "already enrolled: take it out of deck blue")
    assert out.read_bytes() == before


def test_enrol_refuses_a_deck_id_already_enrolled_and_a_bad_output_before_reading(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "decks.json"
    write_registry(str(out), Registry("red", {"red": dict(zip(RED, FULL_DECK, strict=True))}))
    link = str(tmp_path / "no-shoe")
    assert main(["deck", "enrol", "--deck", "red", "--reader", link, "-o", str(out)]) == 2
    assert _refusal(capsys) == (f"feltguard deck enrol: {out}: deck red is already enrolled in "
                                "it (enrol under another id, or take it out of the file first)")
    assert main(["deck", "enrol", "--deck", "red", "--reader", link, "-o", str(tmp_path)]) == 2
    assert _refusal(capsys) == f"feltguard deck enrol: {tmp_path}: is a directory"
    assert main(["deck", "enrol", "--deck", "blue", "--reader", link, "-o", str(out)]) == 2
    assert _refusal(capsys).startswith(f"feltguard deck enrol: {link}: cannot open the reader: ")
    with pytest.raises(SystemExit) as exc:
        main(["deck", "enrol", "--deck", "red deck", "--reader", link, "-o", str(out)])
    assert exc.value.code == 2
    assert "argument --deck: must be one word" in _refusal(capsys)


@pytest.fixture
def registry(tmp_path: Path) -> Path:
    path = tmp_path / "decks.json"
    write_registry(str(path), Registry("red", {"red": dict(zip(RED, FULL_DECK, strict=True)),
                                               "blue": dict(zip(BLUE, FULL_DECK, strict=True))}))
    return path


def test_check_a_whole_deck_exits_0(shoe: SimulatedReader, registry: Path) -> None:
    cmd = check(shoe, registry, BLUE)  # the deck found from its tags: blue
    assert cmd.wait() == 0, cmd.out.text
    assert "deck blue: 52 cards read, 52 enrolled" in cmd.out.text
    assert "deck blue is whole: 52 cards, each read once" in cmd.out.text


def test_check_names_a_card_of_another_deck_and_the_card_missing(
        shoe: SimulatedReader, registry: Path) -> None:
    kd = FULL_DECK.index("Kd")
    read = [*RED[:kd], BLUE[kd], *RED[kd + 1:]]  # blue's Kd where red's is
    cmd = check(shoe, registry, read, "--deck", "red")
    assert cmd.wait() == 1, cmd.out.text
    lines = cmd.out.text.splitlines()
    assert "missing (1): Kd" in lines
    assert f"of another deck (1): Kd of deck blue (tag {BLUE[kd]})" in lines
    assert lines[-1] == "deck red is NOT whole"


def test_check_names_extra_tags_and_cards_read_more_than_once(
        shoe: SimulatedReader, registry: Path) -> None:
    cmd = check(shoe, registry, [*RED[:20], BLUE[5], "0411223344"], timeout="3")
    time.sleep(0.7)  # past the debounce: red's 3c passes a second time
    for uid in RED[20:]:
        shoe.send_read(1, 0, uid)
    shoe.send_read(1, 0, RED[1])
    assert cmd.wait() == 1, cmd.out.text
    lines = cmd.out.text.splitlines()
    assert "deck red: 55 cards read, 52 enrolled" in lines
    assert "extra (1): tag 0411223344 of no registered deck" in lines
    assert f"of another deck (1): 7c of deck blue (tag {BLUE[5]})" in lines
    assert f"read more than once: 3c: tag {RED[1]} (deck red) 2 times" in lines
    assert f"read more than once: 7c: tag {RED[5]} (deck red), tag {BLUE[5]} (deck blue)" in lines
    assert not any(line.startswith("missing") for line in lines)


def test_check_refuses_a_bad_registry_and_an_unknown_deck(
        tmp_path: Path, registry: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "one.json"
    bad.write_text(json.dumps({"04A1B2C3": "As"}))
    link = str(tmp_path / "no-shoe")
    assert main(["deck", "check", "--registry", str(bad), "--reader", link]) == 2
    assert _refusal(capsys) == (f"feltguard deck check: --registry: {bad}: deck one has 1 tag; "
                                "a deck has 52 cards: missing 2c, 3c, 4c, 5c, 6c, 7c, 8c, 9c "
                                "and 43 more")
    assert main(["deck", "check", "--registry", str(registry), "--deck", "green",
                 "--reader", link]) == 2
    assert _refusal(capsys) == (f"feltguard deck check: {registry}: no deck green in it (decks: "
                                "red, blue)")


def test_a_reader_unplugged_mid_pass_is_named_not_taken_for_missing_cards(
        shoe: SimulatedReader, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "decks.json"
    cmd = enrol(shoe, out, "red", RED[:10])
    time.sleep(0.2)  # the ten cards are read before the shoe goes
    shoe.unplug()
    assert cmd.wait() == 2
    assert _refusal(capsys).startswith(f"feltguard deck enrol: {shoe.link_path}: the reader "
                                       "went away during the pass: ")
    assert not out.exists()
