"""``feltguard surveillance``: the cardroom's central service (docs/cardroom.md)."""

from __future__ import annotations

import argparse
from typing import Any

from controller.cli.common import fail, text, whole


def cmd_surveillance(args: argparse.Namespace) -> int:
    from controller.processes.cardroom import SurveillanceOptions, run_surveillance

    if not args.redis.startswith(("redis://", "rediss://", "unix://")):
        return fail("surveillance", f"--redis: must be a redis://, rediss:// or unix:// URL, "
                                    f"got {args.redis!r}")
    return run_surveillance(SurveillanceOptions(
        redis_url=args.redis, store_path=args.store, host=args.host, port=args.port,
        web=not args.no_web, accounts_path=args.accounts))


def add_surveillance_parser(sub: Any) -> None:
    """Add ``surveillance`` to the ``feltguard`` subcommands."""
    p = sub.add_parser("surveillance", help="the cardroom's central service: every table's "
                       "events from Redis into one store, and the review of every table")
    p.add_argument("--redis", required=True, type=text("a redis:// URL"), metavar="URL",
                   help="the Redis the tables relay to ([central] url of each table)")
    p.add_argument("--store", required=True, type=text("a file"), metavar="FILE",
                   help="the central store (SQLite), created if absent")
    p.add_argument("--host", default="127.0.0.1", help="where the review listens")
    p.add_argument("--port", type=whole(0, 65535), default=5100,
                   help="port of the review (default 5100; 0: any free port)")
    p.add_argument("--accounts", default=None, type=text("a file"), metavar="FILE",
                   help="the surveillance accounts (feltguard user add --accounts FILE; "
                        "the audit log beside it); needed unless --no-web")
    p.add_argument("--no-web", action="store_true", help="collect only")
    p.set_defaults(func=cmd_surveillance)
