"""``feltguard chips``: chip sets enrolled through a chip reader, a denomination at a time.

    feltguard chips enrol --set ID --denomination N [--colour C] --reader URL [--antenna A]
                          [--baudrate B] [--settle S] [--timeout S] -o FILE

The cardroom puts the chips of one denomination on the enrolment antenna (``--antenna``, an
antenna of the chip reader at ``URL``, default 1). The real driver
(``drivers.chip_reader.ChipReader``) reads its scan cycles and chip sensing's own settling
(``controller.sensing.chips.ChipSensing``) decides when the inventory is still: once it has been
the same for ``--settle`` seconds, its chips are added to set ID of the chip-set FILE
(``controller/tags/chipfile.py``; created if absent, its first set the one in play at start,
rewritten atomically) as chips of N, with the colour C. It prints how many chips it enrolled
and the set's totals per denomination. Repeat for each denomination.

It refuses, exit status 2 and one line naming the tag (or the colour) and why, with FILE left
as it was: a tag already in the file under another denomination or in another set
(``controller/tags/chip_enrol.py``), no chip settled on the antenna by ``--timeout``, a colour that
is not the set's colour for N, an unreadable reader or file. A bad ``--denomination`` is
argparse's one-line usage error.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from typing import Any, TextIO

from controller.cli.common import fail, fraction, whole
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

# The chips are laid down by hand, in stacks, over a few seconds: still for 2 s means the
# cardroom has finished (sensing's 300 ms at the table is for a bet pushed in one motion).
DEFAULT_SETTLE_S = 2.0
DEFAULT_TIMEOUT_S = 30.0
DEFAULT_ANTENNA = 1
# The zone the enrolment antenna is given for chip sensing (any zone name will do: only the
# settled tags are used, never the zone).
_ZONE = "tray"


def read_settled(url: str, antenna: int, *, baudrate: int = 115200,
                 settle_s: float = DEFAULT_SETTLE_S, timeout_s: float = DEFAULT_TIMEOUT_S,
                 connect_s: float = CONNECT_S, on_open: Any = None) -> tuple[str, ...]:
    """The tags on ``antenna`` of the chip reader at ``url`` once they have been the same for
    ``settle_s`` (and are not none), within ``timeout_s`` of the reader opening. PassError
    when the reader cannot be read; EnrolError when nothing settled in time."""
    from controller.events import ChipsZone
    from controller.sensing.chips import ChipSensing
    from controller.tags.chip_enrol import EnrolError
    from drivers.chip_protocol import ChipInventory, TrayCounts
    from drivers.chip_reader import ChipReader

    cycles: queue.Queue[ChipInventory] = queue.Queue()
    trays: list[TrayCounts] = []
    reader = ChipReader(url, cycles.put, trays.append, baudrate=baudrate, name="chip-enrol",
                        backoff=(0.05, 0.5))
    reader.start()
    try:
        await_open(reader, url, connect_s)
        if on_open is not None:
            on_open()
        # Every reader id on the line may report the antenna: each is one more antenna of the
        # one zone, which is still only when all of them are (chip sensing's rule).
        zones: dict[tuple[int, int], str] = {}
        sensing = ChipSensing(antennas=zones, settle_s=settle_s)
        heard: set[int] = set()
        last: tuple[str, ...] = ()
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            check_still_open(reader, url, "enrolment")
            try:
                inv = cycles.get(timeout=0.05)
            except queue.Empty:
                bodies = sensing.tick(time.monotonic())
            else:
                heard.add(inv.antenna)
                if inv.antenna != antenna:
                    continue
                zones.setdefault((inv.reader, inv.antenna), _ZONE)
                last = inv.uids
                bodies = sensing.on_inventory(inv)
            for body in bodies:
                if isinstance(body, ChipsZone) and body.uids:
                    return body.uids
        if last:
            raise EnrolError(f"the {len(last)} chips on antenna {antenna} were still moving "
                             f"after {timeout_s:g} s (still for {settle_s:g} s is needed)")
        if antenna in heard:
            raise EnrolError(f"antenna {antenna} of {url} read no chip in {timeout_s:g} s: "
                             "put the chips on it")
        if trays:
            raise EnrolError(f"{url} is a counting tray: its chips carry no tag to enrol")
        others = f" (it reports antennas {', '.join(map(str, sorted(heard)))})" if heard else ""
        raise EnrolError(f"antenna {antenna} of {url} reported nothing in {timeout_s:g} s"
                         f"{others}")
    finally:
        reader.stop()


def cmd_chips_enrol(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from controller.tags.chip_enrol import EnrolError, check_colour, describe, enrol
    from controller.tags.chipfile import ChipSets, load_chip_sets, write_chip_sets

    out = out or sys.stdout
    quiet_driver(args, "drivers.chip_reader")
    path = args.output
    try:
        sets: ChipSets | None = read_output(path, load_chip_sets)
    except OutputError as exc:
        return fail("chips enrol", str(exc))
    what = f"set {args.set} denomination {args.denomination}"
    try:
        check_colour(sets, args.set, args.denomination, args.colour)
    except EnrolError as exc:
        return fail("chips enrol", f"{what} refused, {path} unchanged: {exc}")
    colour = f" ({args.colour})" if args.colour else ""

    def ready() -> None:
        print(f"enrolling chips of {args.denomination}{colour} into set {args.set} from "
              f"{args.reader} antenna {args.antenna}: put them on the antenna; they are read "
              f"once still for {args.settle:g} s (waiting up to {args.timeout:g} s)",
              file=out, flush=True)

    try:
        uids = read_settled(args.reader, args.antenna, baudrate=args.baudrate,
                            settle_s=args.settle, timeout_s=args.timeout, on_open=ready)
        done = enrol(sets, args.set, args.denomination, args.colour, uids)
    except EnrolError as exc:
        return fail("chips enrol", f"{what} refused, {path} unchanged: {exc}")
    except PassError as exc:
        return fail("chips enrol", str(exc))
    if done.new:
        try:
            write_chip_sets(path, done.sets)
        except OSError as exc:
            return fail("chips enrol", f"{path}: cannot write: {exc.strerror or exc}")
    again = f" ({len(done.already)} read were enrolled already)" if done.already else ""
    print(f"set {args.set}: {len(done.new)} chips of {args.denomination} enrolled in {path}"
          f"{again}", file=out)
    print(f"set {args.set}: {describe(done.sets, args.set)} (sets: "
          f"{', '.join(done.sets.chips)}; in play at start: {done.sets.in_play})",
          file=out, flush=True)
    return 0


def colour_name(value: str) -> str:
    """An argparse type: a colour as the chip-set file holds it (1..40 characters)."""
    from controller.events import CHIP_NAME_MAX

    if not value.strip() or len(value) > CHIP_NAME_MAX:
        raise argparse.ArgumentTypeError(f"must be a colour name of 1..{CHIP_NAME_MAX} "
                                         f"characters, got {value!r}")
    return value


def add_chips_parser(sub: Any) -> None:
    """Add ``chips enrol`` to the ``feltguard`` subcommands."""
    from controller.events import INT_MAX

    chips = sub.add_parser("chips", help="chip sets: enrol a denomination through a chip reader")
    cmds = chips.add_subparsers(dest="chips_command", required=True)
    p = cmds.add_parser("enrol", help="read the chips of one denomination on the enrolment "
                        "antenna and add them to a set of the chip-set file")
    p.add_argument("--set", required=True, type=deck_id, metavar="ID",
                   help="the chip set's id, e.g. house")
    p.add_argument("--denomination", required=True, type=whole(1, INT_MAX), metavar="N",
                   help="the value of each chip on the antenna, whole units of the table's money")
    p.add_argument("--colour", default=None, type=colour_name, metavar="C",
                   help="the denomination's colour in the set (e.g. red)")
    add_reader_options(p, "the chip reader: a device (/dev/feltchips) or any pyserial URL")
    p.add_argument("--antenna", type=whole(0, 255), default=DEFAULT_ANTENNA, metavar="A",
                   help=f"the enrolment antenna of the reader (default {DEFAULT_ANTENNA})")
    p.add_argument("--settle", type=fraction(0.1, 60), default=DEFAULT_SETTLE_S, metavar="S",
                   help=f"seconds the chips must lie still to be read (default "
                        f"{DEFAULT_SETTLE_S:g})")
    p.add_argument("--timeout", type=fraction(0.5, 600), default=DEFAULT_TIMEOUT_S,
                   metavar="S", help=f"seconds to wait for the chips to settle (default "
                                     f"{DEFAULT_TIMEOUT_S:g})")
    add_output_option(p, "chip-set file")
    p.set_defaults(func=cmd_chips_enrol)
