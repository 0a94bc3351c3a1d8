"""``feltguard tls``: the table's certificates (controller/security/tls.py; docs/security.md,
"TLS").

    feltguard tls init   (--config FILE | --dir DIR) [--host NAME ...] [--name NAME] [--owner USER]
    feltguard tls renew  (--config FILE | --dir DIR) [--host NAME ...] [--owner USER]
    feltguard tls client NAME (--config FILE | --dir DIR) [--owner USER]
    feltguard tls show   (--config FILE | --dir DIR)

``init`` makes an authority and the server certificate and prints the authority's SHA-256
fingerprint: whoever installs ``ca.pem`` on a tablet checks it against that line. ``renew``
makes a new server certificate from the same authority (a running table loads it within the
hour, ``/healthz`` at once). With ``--config`` the folder is the one ``feltguard run`` reads
(``tls`` beside the journal, unless ``[display] tls_cert`` names a cardroom's own).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from controller.cli.common import fail, text


def _folder(args: argparse.Namespace) -> Path:
    if args.dir:
        return Path(args.dir)
    from controller.config import load

    config = load(args.config)
    if config.tls_cert:
        raise ValueError(f"{args.config}: display.tls_cert names a certificate of the "
                         "cardroom's own PKI: renew it there, or give --dir")
    return config.tls_folder()


def cmd_tls(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from controller.config import ConfigError
    from controller.security import tls

    out = out or sys.stdout
    command = f"tls {args.tls_command}"
    try:
        folder = _folder(args)
        if args.tls_command == "show":
            tf = tls.TlsFolder(folder)
            ca = tls.load_cert(tf.ca_cert)
            status = tls.check_pair(tf.server_cert, tf.server_key, ca_path=tf.ca_cert)
            out.write(f"authority  {tf.ca_cert}\n  SHA-256  {tls.fingerprint(ca)}\n"
                      f"server     {status.path} ({', '.join(status.hosts)})\n"
                      f"  expires  {status.not_after:%Y-%m-%d} "
                      f"({int(status.days_left())} days)\n")
            if status.warning():
                out.write(f"WARNING: {status.warning()}\n")
            return 0
        if args.tls_command == "init":
            made = tls.init_folder(folder, hosts=args.host, owner=args.owner, name=args.name)
        elif args.tls_command == "renew":
            made = tls.renew_server(folder, hosts=args.host, owner=args.owner)
        else:
            made = tls.issue_client(folder, args.name, owner=args.owner)
    except (tls.TlsError, ConfigError, ValueError) as exc:
        return fail(command, str(exc))
    except OSError as exc:
        return fail(command, f"{exc.filename or folder}: {exc.strerror or exc}")
    what = "client certificate" if args.tls_command == "client" else "server certificate"
    out.write(f"{what} {made.cert} (key {made.key}, mode 0600)\n")
    if made.hosts:
        out.write(f"  for      {', '.join(made.hosts)}\n")
    out.write(f"  expires  {made.not_after:%Y-%m-%d}\n")
    out.write(f"authority  {made.folder.ca_cert}\n  SHA-256  {made.ca_fingerprint}\n")
    if args.tls_command == "init":
        out.write("Install ca.pem on each tablet and screen as a trusted authority, and check "
                  "its SHA-256 against the line above.\nKeep ca.key secret (and backed up "
                  "apart): it signs every renewal.\n")
    return 0


def add_tls_parser(sub: Any) -> None:
    """Add ``tls`` to the ``feltguard`` subcommands."""
    p = sub.add_parser("tls", help="the table's certificates: an authority of its own, the "
                       "server certificate its pages are served with, client certificates")
    commands = p.add_subparsers(dest="tls_command", required=True)
    helps = {
        "init": "make the authority and the server certificate (once, at install); prints the "
                "authority's SHA-256 fingerprint for enrolling tablets",
        "renew": "a new server certificate from the same authority (no tablet re-enrolled)",
        "client": "a client certificate from the authority (mutual TLS: [display] client_ca, "
                  "a relay to a Redis that asks for one)",
        "show": "the authority's fingerprint and the server certificate's names and expiry",
    }
    for name, help_text in helps.items():
        c = commands.add_parser(name, help=help_text)
        if name == "client":
            c.add_argument("name", type=text("a name"), help="whose certificate (a screen, a "
                           "table's relay): letters, digits, '-', '_', '.'")
        where = c.add_mutually_exclusive_group(required=True)
        where.add_argument("--config", type=text("a file"), metavar="FILE",
                           help="the table's configuration: its tls folder beside the journal")
        where.add_argument("--dir", type=text("a folder"), metavar="DIR",
                           help="the folder of ca.pem, ca.key, server.pem, server.key")
        if name in ("init", "renew"):
            c.add_argument("--host", action="append", default=[], metavar="NAME",
                           help="a host name or address the table is reached by (repeat it); "
                                "default: this machine's name, NAME.local, localhost, its "
                                "addresses (renew: the names the old certificate had)")
        if name == "init":
            c.add_argument("--name", default="", metavar="NAME",
                           help="the authority's name (default this machine's host name; "
                                "e.g. cardroom)")
        if name != "show":
            c.add_argument("--owner", default=None, metavar="USER",
                           help="hand the files to this user (the service user, e.g. "
                                "feltguard; needs root)")
        c.set_defaults(func=cmd_tls)
