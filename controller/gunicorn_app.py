"""``feltguard run`` in production: the table served by gunicorn's threaded worker.

Flask-SocketIO's deployment.rst documents gunicorn with threads and **one** worker
(``gunicorn -w 1 --threads N``) as the production server of threading mode (research/
ecosystem.md §3.2). The table must live in the process that serves Socket.IO (the daemon
publishes every snapshot in-process), and gunicorn serves from a forked worker, so the whole
table runs inside that single worker: ``TableApplication.load()``, called in the worker after
the fork (no preload), builds the app and opens the table (journal recovered, readers, LEDs);
the arbiter only listens, forks and watches. Process model and the reasons: docs/architecture.md.

systemd and the worker: the arbiter would send its own ``READY=1`` as soon as it listens, before
any table exists (gunicorn/arbiter.py, ``systemd.sd_notify("READY=1...")``). So ``serve`` makes
the table's notifier first (its socket is connected then and survives the fork), then removes
``NOTIFY_SOCKET`` from the environment, which silences gunicorn's own notify; the worker sends
READY=1, STATUS=, WATCHDOG=1 and STOPPING=1 (the unit's ``NotifyAccess=all``: the worker is not
the main PID).

Stopping: systemd's SIGTERM reaches the arbiter and the worker (the unit's control group). The
worker's handler closes the table at once on a thread of its own (STOPPING=1, readers, journal
checkpointed and closed) and closes the Socket.IO clients, whose WebSocket threads would
otherwise hold gunicorn's graceful stop to its time-out; the exit hook waits for that close.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from gunicorn.app.base import BaseApplication
from gunicorn.arbiter import Arbiter
from gunicorn.workers.gthread import ThreadWorker

from controller.config import Config
from controller.keypad import ChosenCard
from controller.runner import (
    RunningTable,
    StartError,
    attach_console,
    display_app,
    live_view_line,
    open_table,
    start_console,
)
from controller.service import notifier
from display.server import close_app

# Each WebSocket holds one of the worker's threads for its life, and each polling request one
# while it lasts (deployment.rst's example runs 100). A table's screens (the dealer's, the
# console, public and broadcast screens, surveillance browsers) stay well under 100; 128 leaves
# room for 100 of them and the requests besides (docs/display.md, "The fan-out").
THREADS = 128
# How long the arbiter waits for the worker to stop before SIGKILL (the unit's TimeoutStopSec
# is longer); the table itself closes at the signal, not at the end of this.
GRACEFUL_S = 5
# A worker silent this long is killed by the arbiter; opening the table (a long journal's
# replay) happens before the worker's loop reports, so this bounds the start too.
BOOT_TIMEOUT_S = 120


@dataclass
class Served:
    """What the worker serves: the WSGI app, what to do once it listens (its sockets), and how
    to stop the table (idempotent; returns once closed)."""

    wsgi: Any
    ready: Callable[[list[Any]], None]
    stop: Callable[[], None]


class TableWorker(ThreadWorker):  # type: ignore[misc]
    """gunicorn's gthread worker that stops the table first when told to stop."""

    def handle_exit(self, sig: int, frame: Any) -> None:  # SIGTERM: graceful
        super().handle_exit(sig, frame)
        served = getattr(self.app, "served", None)
        if served is not None:  # off the signal handler: the close takes locks
            threading.Thread(target=served.stop, name="table-stop").start()

    def handle_quit(self, sig: int, frame: Any) -> None:  # SIGINT (Ctrl-C), SIGQUIT: at once
        for s in (signal.SIGINT, signal.SIGQUIT):
            # the arbiter's SIGQUIT must not cut the close; a handler, not SIG_IGN, for one
            # already pending (Python reports a pending signal whose handler became SIG_IGN)
            signal.signal(s, _ignore)
        served = getattr(self.app, "served", None)
        if served is not None:
            served.stop()
        super().handle_quit(sig, frame)


def _close_screens(eio: Any) -> None:
    """Close every Socket.IO client so their WebSocket threads end. Without waiting for each
    close packet to be written (Engine.IO's own ``disconnect()`` waits): once the worker's loop
    has stopped, a connection's writer thread may already be gone, and the wait would then hold
    the worker until gunicorn's graceful time-out kills it."""
    for client in list(eio.sockets.values()):
        client.close(wait=False, reason=eio.reason.SERVER_DISCONNECT)
    eio.sockets = {}


def _ignore(sig: int, frame: Any) -> None:
    """A signal that comes while the worker is already stopping."""


def _post_worker_init(worker: Any) -> None:
    served = worker.app.served
    if served is not None:
        served.ready(list(worker.sockets))


def _worker_exit(arbiter: Any, worker: Any) -> None:
    served = getattr(worker.app, "served", None)
    if served is not None:
        served.stop()


class TableApplication(BaseApplication):  # type: ignore[misc]
    """A gunicorn application whose ``load()`` (in the worker) calls ``build``."""

    def __init__(self, build: Callable[[], Served], options: dict[str, Any]) -> None:
        self._build = build
        self.options = options
        self.served: Served | None = None
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)
        if "control_socket_disable" in self.cfg.settings:  # gunicorn >= 25: no control socket
            self.cfg.set("control_socket_disable", True)  # (it would be made in $HOME)
        self.cfg.set("post_worker_init", _post_worker_init)
        self.cfg.set("worker_exit", _worker_exit)

    def load(self) -> Any:
        self.served = self._build()
        return self.served.wsgi


def options(host: str, port: int, **more: Any) -> dict[str, Any]:
    """gunicorn's settings for the table: one worker (Socket.IO keeps its sessions in that
    process; deployment.rst), threads, no preload (the table starts in the worker)."""
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return {"bind": [bind], "workers": 1, "threads": THREADS, "worker_class": TableWorker,
            "preload_app": False, "graceful_timeout": GRACEFUL_S, "timeout": BOOT_TIMEOUT_S,
            "accesslog": None, **more}


def run(build: Callable[[], Served], opts: dict[str, Any]) -> int:
    """Run gunicorn's arbiter until it stops; its exit status (a worker that could not start
    the table exits with gunicorn's WORKER_BOOT_ERROR, having said why)."""
    arbiter = os.getpid()
    try:
        TableApplication(build, opts).run()
    except SystemExit as exc:  # the arbiter halts with sys.exit
        if os.getpid() != arbiter:
            raise  # the forked worker's own exit, up through its copy of this stack: its status
        code = exc.code if isinstance(exc.code, int) else 1
        return 2 if code == Arbiter.WORKER_BOOT_ERROR else code
    return 0


def serve(config: Config, stdin: TextIO | None = None) -> int:
    """``feltguard run`` with ``display.server = "gunicorn"``."""
    notify = notifier()  # connected now; the worker inherits the socket
    os.environ.pop("NOTIFY_SOCKET", None)  # no early READY=1 from the arbiter

    def build() -> Served:
        choice = ChosenCard()  # the touch console's chosen card, for the card keys
        tables: list[RunningTable] = []  # /healthz's journal, once the table is open
        try:
            app, sio, publisher, where = display_app(config, tables, on_choose=choice.set)
            table = open_table(config, [publisher.publish], notify, chosen=choice)
        except StartError as exc:
            print(f"feltguard run: {exc}", file=sys.stderr, flush=True)
            sys.exit(Arbiter.WORKER_BOOT_ERROR)  # the arbiter stops: systemd sees a failure
        attach_console(app, table.daemon)  # the touch console's inputs reach the table
        tables.append(table)

        def ready(sockets: list[Any]) -> None:
            port = sockets[0].sock.getsockname()[1] if sockets else config.port
            print(f"{live_view_line(config.host, port, where)}; served by gunicorn", flush=True)
            table.ready()
            start_console(table.daemon, stdin)

        def stop() -> None:
            table.close()
            _close_screens(sio.server.eio)
            close_app(app)  # the review's worker process

        return Served(app, ready, stop)

    return run(build, options(config.host, config.port))
