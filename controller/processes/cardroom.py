"""``feltguard surveillance``: the cardroom's central service.

    feltguard surveillance --redis URL --store FILE [--host H] [--port P] --accounts FILE
    feltguard surveillance --redis URL --store FILE --no-web
        [--redis-user U --redis-password-file F] [--redis-ca CA [--redis-cert C --redis-key K]]

It collects every table's events from Redis into the central store
(controller/surveillance/collector.py, controller/surveillance/central_store.py) and serves the
cardroom's screens from the store, never from a table: a review cannot disturb a table, and a table
keeps dealing whether this service runs or not. Each table's relay
(controller/surveillance/relay.py) catches up whatever the service missed.

It runs until SIGTERM or Ctrl-C, and prints one line when a table first appears and a line
when the link to Redis goes or comes back.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from controller.surveillance.access import RedisAccess
from controller.surveillance.central_store import CentralStore, StoreError
from controller.surveillance.collector import Collector

__all__ = ["SurveillanceOptions", "run_surveillance"]

WATCH_S = 1.0


@dataclass
class SurveillanceOptions:
    redis_url: str
    store_path: str
    host: str = "127.0.0.1"
    port: int = 5100
    web: bool = True
    accounts_path: str | None = None
    access: RedisAccess | None = None  # the login; None: redis_url, logging in as no one
    cert: Any = None  # the review's HTTPS certificate (controller/security/tls.py ServedCert)


def run_surveillance(opts: SurveillanceOptions, halt: threading.Event | None = None,
                     out: TextIO = sys.stdout) -> int:
    """The service until ``halt``, SIGTERM or Ctrl-C; 2 with one line if it cannot start."""
    try:
        store = CentralStore(opts.store_path)
    except StoreError as exc:
        print(f"feltguard surveillance: {exc}", file=sys.stderr)
        return 2
    server = None
    if opts.web:  # the review of every table, behind the surveillance logins
        from controller.processes.cardroom_web import serve_cardroom
        from controller.security.accounts import AccountError, Accounts
        from controller.security.audit import AuditError, AuditLog

        try:
            if not opts.accounts_path:
                raise ValueError("--accounts: the review needs the surveillance accounts "
                                 "(feltguard user add --accounts FILE), or --no-web")
            accounts = Accounts(opts.accounts_path)
            audit = AuditLog(Path(opts.accounts_path).with_name("audit.sqlite"))
            server = serve_cardroom(store, opts.host, opts.port, accounts, audit,
                                    cert=opts.cert)
        except (OSError, ValueError, AccountError, AuditError) as exc:
            print(f"feltguard surveillance: {exc}", file=sys.stderr)
            store.close()
            return 2
        print(f"cardroom review on {server.url}/ (log in as surveillance)", file=out,
              flush=True)
    access = opts.access or RedisAccess(opts.redis_url)
    collector = Collector(access, store).start()
    halt = halt or threading.Event()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda *_: halt.set())
    print(f"collecting every table's events from {access.shown()} into "
          f"{opts.store_path}",
          file=out, flush=True)
    seen: set[str] = set()
    connected = None
    try:
        with contextlib.suppress(KeyboardInterrupt):
            while not halt.wait(WATCH_S):
                status = collector.status()
                if status.connected != connected:
                    connected = status.connected
                    print("link to Redis: up" if connected else
                          f"link to Redis: down ({status.error or 'connecting'})",
                          file=out, flush=True)
                for t in store.tables():
                    if t.table not in seen:
                        seen.add(t.table)
                        print(f"table {t.table}: collecting from seq {t.last_seq}", file=out,
                              flush=True)
    finally:
        collector.stop()
        if server is not None:
            server.stop()
        store.close()
    return 0
