"""``feltguard surveillance``: the cardroom's central service, and ``feltguard surveillance acl``:
the cardroom's Redis ACL (docs/cardroom.md)."""

from __future__ import annotations

import argparse
from typing import Any

from controller.cli.common import add_redis_login_options, fail, login_values, text, whole


def cmd_surveillance(args: argparse.Namespace) -> int:
    from controller.processes.cardroom import SurveillanceOptions, run_surveillance
    from controller.surveillance.access import SURVEILLANCE_NAMES, AccessError, RedisAccess

    for option, value in (("--redis", args.redis), ("--store", args.store)):
        if value is None:  # (not required by argparse: `surveillance acl` has neither)
            return fail("surveillance", f"{option}: required")
    login = login_values(args, "redis")
    login["user"] = login["user"] or ("surveillance" if login["password_file"] else "")
    access = RedisAccess(args.redis, **login, names=SURVEILLANCE_NAMES)
    try:
        access.check_files()
    except AccessError as exc:
        return fail("surveillance", str(exc))
    cert = None
    if not args.no_web:
        from controller.config import LOOPBACK_HOSTS
        from controller.security.tls import ServedCert, TlsError

        if bool(args.tls_cert) != bool(args.tls_key):
            return fail("surveillance", "--tls-cert and --tls-key: give both")
        if args.client_ca and not args.tls_cert:
            return fail("surveillance", "--client-ca: needs --tls-cert and --tls-key")
        if not args.tls_cert and args.host not in LOOPBACK_HOSTS:
            # the review shows every table's hole cards: never in clear on a network
            return fail("surveillance", f"--host {args.host}: the review is served over "
                        "HTTPS off this machine: give --tls-cert and --tls-key (feltguard tls "
                        "init --dir DIR makes them)")
        if args.tls_cert:
            try:
                cert = ServedCert(args.tls_cert, args.tls_key, args.client_ca)
            except TlsError as exc:
                return fail("surveillance", f"--tls-cert: {exc}")
    return run_surveillance(SurveillanceOptions(
        redis_url=args.redis, store_path=args.store, host=args.host, port=args.port,
        web=not args.no_web, accounts_path=args.accounts, access=access, cert=cert))


def cmd_surveillance_acl(args: argparse.Namespace) -> int:
    from controller.surveillance.acl import write_cardroom

    try:
        written = write_cardroom(args.tables, args.out, surveillance_user=args.user)
    except ValueError as exc:
        return fail("surveillance acl", str(exc))
    acl, *passwords = written
    print(f"{acl}: the cardroom's ACL (aclfile in redis.conf; no clear password in it)")
    for path in passwords:
        print(f"{path}: a password (0600): copy it to the table or service it is for")
    return 0


def add_surveillance_parser(sub: Any) -> None:
    """Add ``surveillance`` (and ``surveillance acl``) to the ``feltguard`` subcommands."""
    p = sub.add_parser("surveillance", help="the cardroom's central service: every table's "
                       "events from Redis into one store, and the review of every table")
    p.add_argument("--redis", default=None, type=text("a redis:// URL"), metavar="URL",
                   help="the Redis the tables relay to ([central] url of each table); "
                        "required")
    p.add_argument("--store", default=None, type=text("a file"), metavar="FILE",
                   help="the central store (SQLite), created if absent; required")
    add_redis_login_options(p, "redis", "the service's ACL user (default surveillance, with a "
                                        "password file)")
    p.add_argument("--host", default="127.0.0.1", help="where the review listens")
    p.add_argument("--port", type=whole(0, 65535), default=5100,
                   help="port of the review (default 5100; 0: any free port)")
    p.add_argument("--accounts", default=None, type=text("a file"), metavar="FILE",
                   help="the surveillance accounts (feltguard user add --accounts FILE; "
                        "the audit log beside it); needed unless --no-web")
    p.add_argument("--tls-cert", default=None, type=text("a file"), metavar="FILE",
                   help="serve the review over HTTPS with this certificate (needed off "
                        "loopback; feltguard tls init --dir DIR makes one)")
    p.add_argument("--tls-key", default=None, type=text("a file"), metavar="FILE",
                   help="the certificate's key (0600)")
    p.add_argument("--client-ca", default=None, type=text("a file"), metavar="FILE",
                   help="require of every screen a client certificate this authority issued "
                        "(mutual TLS; feltguard tls client NAME)")
    p.add_argument("--no-web", action="store_true", help="collect only")
    p.set_defaults(func=cmd_surveillance)
    commands = p.add_subparsers(dest="surveillance_command", metavar="acl")
    a = commands.add_parser("acl", help="write the cardroom's Redis ACL (users.acl) and a "
                            "password file per user: each table may add to its own stream "
                            "only, the service may read and trim")
    a.add_argument("--tables", nargs="+", required=True, metavar="ID",
                   help="the cardroom's table ids ([central] table of each)")
    a.add_argument("--out", required=True, type=text("a folder"), metavar="DIR",
                   help="a new folder, or one without these files (made 0700)")
    a.add_argument("--user", default="surveillance", type=text("a user"),
                   help="the surveillance service's ACL user (default surveillance)")
    a.set_defaults(func=cmd_surveillance_acl)


