"""The central service's web server: the review of every table, from the central store.

- ``GET /``: the cardroom's tables (how far the store has each, duplicates dropped, any place a
  table's chain does not follow), each a link to its review; surveillance only.
- ``/t/TABLE/review`` and its API and exports: the surveillance review (display/review.py) of
  that table's events as the store holds them, replayed in one worker process for all tables.
- ``POST /login``, ``/logout``, ``GET /audit``: the same login desk as a table's
  (display/login.py), with the service's own accounts and audit log.
- ``GET /healthz`` (public: table ids and counts, nothing of a hand).

It reads the store only: a review here cannot disturb any table.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, redirect, render_template, request
from flask.typing import ResponseReturnValue

import display
from controller.security.accounts import REVIEW, Accounts
from controller.security.audit import AuditLog
from controller.surveillance.central_store import CentralStore
from display.live import ServerHandle, serve_pages

__all__ = ["CardroomServer", "cardroom_app", "serve_cardroom"]

# the display package's own pages and templates, wherever it is installed
DISPLAY = Path(display.__file__).resolve().parent
# where a login may come back to: the tables' list, the audit, a table's review or an export
_BACK = re.compile(r"/|/audit|/t/[a-z0-9_-]{1,32}/review(?:/hand/[0-9]{1,9}\.(?:phh|jsonl))?")


def cardroom_app(store: CentralStore, accounts: Accounts, audit: AuditLog,
                 tls_status: Callable[[], Mapping[str, Any]] | None = None) -> Flask:
    from display.access import add_security_headers
    from display.login import LoginDesk
    from display.review import review_blueprint

    app = Flask(__name__, static_folder=str(DISPLAY / "static"),
                template_folder=str(DISPLAY / "templates"))
    app.config["MAX_CONTENT_LENGTH"] = 16 * 1024
    desk = LoginDesk(authenticate=accounts.authenticate, accounts=accounts, audit=audit,
                     back=_BACK, home="/")
    desk.install(app)
    app.register_blueprint(review_blueprint(store.path, identity=desk.identity, audit=audit,
                                            login_form=desk.form, cardroom=True))

    @app.get("/")
    def tables() -> ResponseReturnValue:
        if request.query_string:
            return redirect("/", code=303)
        return desk.gate("/", REVIEW) or render_template("cardroom.html", tables=store.tables())

    @app.get("/healthz")
    def healthz() -> Response:
        return jsonify(tables=[{"table": t.table, "last_seq": t.last_seq, "events": t.events,
                                "duplicates_dropped": t.duplicates, "problems": list(t.problems)}
                               for t in store.tables()],
                       tls=dict(tls_status()) if tls_status is not None else None)

    @app.after_request
    def headers(response: Response) -> Response:
        return add_security_headers(response, request.is_secure)  # type: ignore[no-any-return]

    return app


@dataclass
class CardroomServer:
    handle: ServerHandle
    app: Flask

    @property
    def url(self) -> str:
        return self.handle.url

    def stop(self) -> None:
        from display.server import close_app

        self.handle.stop()
        close_app(self.app)  # the review's worker process


def serve_cardroom(store: CentralStore, host: str, port: int, accounts: Accounts,
                   audit: AuditLog, cert: Any = None) -> CardroomServer:
    """The app served as a table serves its pages (display/live.py ``serve_pages``: uvicorn,
    each request on a thread of a2wsgi's pool, the request log without query strings), from a
    loop thread of its own; with ``cert`` (controller/security/tls.py ``ServedCert``) over
    HTTPS, a client certificate required where it says so. OSError if the port cannot be
    bound."""
    app = cardroom_app(store, accounts, audit, tls_status=cert.status if cert else None)
    return CardroomServer(serve_pages(app, host, port, tls=cert.context if cert else None), app)
