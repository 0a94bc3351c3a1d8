"""``feltguard deck``: decks enrolled through the shoe, and checked by reading them through.

    feltguard deck enrol --deck ID --reader URL [--baudrate B] [--timeout S] [--jokers N] -o FILE
    feltguard deck check --registry FILE [--deck ID] --reader URL [--baudrate B] [--timeout S]

Both open the reader at ``URL`` (a device path such as ``/dev/pokershoe``, or any pyserial URL)
with the real driver (``drivers.card_reader.CardReader``) and take one pass of the deck through
it: every read debounced by sensing's own shoe rule (a tag repeated within
``Sensing.shoe_debounce_s`` is the same card), the pass ending ``--timeout`` seconds after the
last card (the first card is awaited up to ``FIRST_CARD_S``).

``enrol`` maps each tag to the card due in new-deck order (``controller.tags.deck_enrol``) and adds
the deck to the registry FILE (``controller.tags.deckfile``; created if absent; the first deck
enrolled is the one in play at start). It refuses, exit status 2 and one line naming the card,
a pass short of the deck, an extra tag, one tag read twice, or a tag already enrolled in
another deck of FILE; FILE is then left as it was.

``check`` counts the pass against the registry (``controller.poker.deck_count``, the count
behind the core's ``deck.audit``) and prints the cards missing by name, the tags of no deck,
the cards of another registered deck (naming it) and every card read more than once. The deck
checked is ``--deck``, or else the deck most of the tags read belong to. Exit status 0 when the
deck is whole (every card once, nothing else), 1 when it is not, 2 on bad input (a bad
registry, an unknown deck, a reader that cannot be opened).
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TextIO

from controller.cli.common import fail, fraction, text, whole
from controller.cli.enrolment import (
    CONNECT_S,
    OutputError,
    PassError,
    add_output_option,
    add_reader_options,
    await_open,
    check_still_open,
    deck_id,
    quiet_driver,
    read_output,
)

# The first card of a pass is awaited this long: the operator starts the shoe after the command.
FIRST_CARD_S = 30.0
DEFAULT_TIMEOUT_S = 3.0


def read_pass(url: str, on_card: Callable[[str], object], *, baudrate: int = 115200,
              quiet_s: float = DEFAULT_TIMEOUT_S, first_s: float = FIRST_CARD_S,
              connect_s: float = CONNECT_S, on_open: Callable[[], object] | None = None) -> None:
    """Read one pass of a deck through the reader at ``url``: ``on_open()`` once the reader is
    open (bytes sent before are flushed by the open), then ``on_card(uid)`` for each card, in
    order, until ``quiet_s`` seconds pass with no new card (``first_s`` before the first). A
    repeated read of a card resting on the reader is not a new card (sensing's shoe debounce)
    and does not hold the pass open. An exception from ``on_card`` ends the pass."""
    from controller.events import ShoeDraw
    from controller.sensing.cards import SHOE, Sensing
    from drivers.card_reader import CardReader, TagRead

    reads: queue.Queue[TagRead] = queue.Queue()
    reader = CardReader(url, reads.put, baudrate=baudrate, name="deck-pass",
                        backoff=(0.05, 0.5))  # a reader lost mid-pass is back within 0.5 s
    reader.start()
    try:
        await_open(reader, url, connect_s)
        if on_open is not None:
            on_open()
        sensing = Sensing(antennas={(1, 0): SHOE})  # every read of this reader is the shoe's
        deadline = time.monotonic() + first_s
        while True:
            try:
                read = reads.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            shoe_read: Any = replace(read, reader=1, antenna=0)  # (TagReadLike, read-only)
            for body in sensing.on_read(shoe_read):
                if isinstance(body, ShoeDraw):  # what a shoe read gives
                    on_card(body.uid)
                    deadline = time.monotonic() + quiet_s
        check_still_open(reader, url, "pass")
    finally:
        reader.stop()


def cmd_deck_enrol(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from controller.tags.deck_enrol import EnrolError, Enrolment
    from controller.tags.deckfile import Registry, load_registry, write_registry

    out = out or sys.stdout
    quiet_driver(args, "drivers.card_reader")
    path = args.output
    try:
        registry: Registry | None = read_output(path, load_registry)
    except OutputError as exc:
        return fail("deck enrol", str(exc))
    if registry is not None and args.deck in registry.decks:
        return fail("deck enrol", f"{path}: deck {args.deck} is already enrolled in it "
                    "(enrol under another id, or take it out of the file first)")
    decks = dict(registry.decks) if registry is not None else {}
    known = {u: (d, c) for d, tags in decks.items() for u, c in tags.items()}
    try:
        enrol = Enrolment(args.deck, args.jokers, known)
    except EnrolError as exc:
        return fail("deck enrol", str(exc))
    n = len(enrol.order)
    joker = ", then the joker" if args.jokers else ""

    def ready() -> None:
        print(f"enrolling deck {args.deck} from {args.reader}: pass its {n} cards through the "
              f"shoe in new-deck order (2c 3c ... Ac, 2d ... Ad, 2h ... Ah, 2s ... As{joker}); "
              f"the pass ends {args.timeout:g} s after the last card", file=out, flush=True)

    def on_card(uid: str) -> None:
        card = enrol.add(uid)
        print(f"{len(enrol.tags):3d}/{n} {card} {uid}", file=out, flush=True)

    try:
        read_pass(args.reader, on_card, baudrate=args.baudrate, quiet_s=args.timeout,
                  on_open=ready)
        tags = enrol.finish()
    except EnrolError as exc:
        return fail("deck enrol", f"deck {args.deck} refused, {path} unchanged: {exc}")
    except PassError as exc:
        return fail("deck enrol", str(exc))
    decks[args.deck] = tags
    new = Registry(in_play=registry.in_play if registry is not None else args.deck, decks=decks)
    try:
        write_registry(path, new)
    except OSError as exc:
        return fail("deck enrol", f"{path}: cannot write: {exc.strerror or exc}")
    print(f"deck {args.deck}: {n} cards enrolled in {path} (decks: {', '.join(decks)}; in play "
          f"at start: {new.in_play})", file=out, flush=True)
    return 0


def cmd_deck_check(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from controller.config import ConfigError
    from controller.poker.cards import DeckRegistry
    from controller.poker.deck_count import count_deck
    from controller.tags.deckfile import load_registry

    out = out or sys.stdout
    quiet_driver(args, "drivers.card_reader")
    try:
        registry = load_registry(args.registry, label="--registry")
    except ConfigError as exc:
        return fail("deck check", str(exc))
    if args.deck is not None and args.deck not in registry.decks:
        return fail("deck check", f"{args.registry}: no deck {args.deck} in it (decks: "
                    f"{', '.join(registry.decks)})")
    def ready() -> None:
        print(f"checking {'deck ' + args.deck if args.deck else 'a deck'} from {args.reader}: "
              f"pass it through the shoe; the pass ends {args.timeout:g} s after the last card",
              file=out, flush=True)

    uids: list[str] = []
    try:
        read_pass(args.reader, uids.append, baudrate=args.baudrate, quiet_s=args.timeout,
                  on_open=ready)
    except PassError as exc:
        return fail("deck check", str(exc))
    deck = args.deck or _likeliest(registry.decks, registry.in_play, uids)
    reg = DeckRegistry().put_in_play(deck, registry.decks[deck])
    for other, tags in registry.decks.items():
        reg = reg.with_idle(other, tags)
    count = count_deck(reg, uids)
    print(f"deck {deck}: {len(uids)} cards read, {len(reg)} enrolled", file=out)
    if count.missing:
        print(f"missing ({len(count.missing)}): "
              f"{', '.join(reg.tags[u] for u in count.missing)}", file=out)
    if count.unknown:
        print(f"extra ({len(count.unknown)}): "
              f"{', '.join(f'tag {u} of no registered deck' for u in count.unknown)}", file=out)
    if count.foreign:
        print(f"of another deck ({len(count.foreign)}): "
              f"{', '.join(f'{c} of deck {d} (tag {u})' for u, d, c in count.foreign)}",
              file=out)
    for card, read in count.repeated:
        times = Counter(read)
        named = ", ".join(f"tag {u} ({_deck_name(registry.decks, u)})"
                          + (f" {k} times" if k > 1 else "") for u, k in times.items())
        print(f"read more than once: {card}: {named}", file=out)
    if count.whole:
        print(f"deck {deck} is whole: {len(reg)} cards, each read once", file=out, flush=True)
        return 0
    print(f"deck {deck} is NOT whole", file=out, flush=True)
    return 1


def _likeliest(decks: Mapping[str, Mapping[str, str]], in_play: str, uids: list[str]) -> str:
    """The deck most of the tags read belong to (the file's deck in play on a tie or none)."""
    votes = Counter(d for u in uids for d, tags in decks.items() if u in tags)
    best = max(votes.values(), default=0)
    if not best or votes.get(in_play) == best:
        return in_play
    return next(d for d in decks if votes.get(d) == best)


def _deck_name(decks: Mapping[str, Mapping[str, str]], uid: str) -> str:
    return next((f"deck {d}" for d, tags in decks.items() if uid in tags), "no deck")


def add_deck_parser(sub: Any) -> None:
    """Add ``deck enrol`` and ``deck check`` to the ``feltguard`` subcommands."""
    from controller.tags.deck_enrol import MAX_JOKERS

    deck = sub.add_parser("deck", help="decks: enrol a new deck through the shoe, check a deck")
    cmds = deck.add_subparsers(dest="deck_command", required=True)

    def reader_options(p: argparse.ArgumentParser) -> None:
        add_reader_options(p, "the shoe's reader: a device (/dev/pokershoe) or any pyserial URL")
        p.add_argument("--timeout", type=fraction(0.1, 600), default=DEFAULT_TIMEOUT_S,
                       metavar="S",
                       help=f"seconds after the last card that end the pass (default "
                            f"{DEFAULT_TIMEOUT_S:g}; the first card is awaited "
                            f"{FIRST_CARD_S:g} s)")

    p = cmds.add_parser("enrol", help="read a new deck in new-deck order and add it to the "
                        "registry file")
    p.add_argument("--deck", required=True, type=deck_id, metavar="ID",
                   help="the new deck's id, e.g. red")
    reader_options(p)
    p.add_argument("--jokers", type=whole(0, MAX_JOKERS), default=0, metavar="N",
                   help="jokers after the 52 cards (0 or 1; the joker games: docs/games.md)")
    add_output_option(p, "registry file")
    p.set_defaults(func=cmd_deck_enrol)

    p = cmds.add_parser("check", help="read a deck through and compare it with the registry")
    p.add_argument("--registry", required=True, type=text("a file"), metavar="FILE",
                   help="the registry file (JSON), as [deck] file of the table config")
    p.add_argument("--deck", default=None, type=deck_id, metavar="ID",
                   help="the deck to check (default: the deck most tags read belong to)")
    reader_options(p)
    p.set_defaults(func=cmd_deck_check)
