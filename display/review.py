"""The surveillance review screen: a Flask blueprint over one journal
(controller/surveillance/review.py).

Routes (every one needs the ``review`` permission, controller/security/accounts.py):

- ``GET /review``: the page (display/static/review.html and review.js);
- ``GET /review/api/hands``: the hand index, newest first, searched by the query parameters
  ``since``, ``until`` (ms or ISO 8601), ``seat``, ``player``, ``code``, ``game``, ``limit``,
  ``offset``; anything else is a 400 with a one-line ``error``;
- ``GET /review/api/hand/<n>``: one hand stepped through (audited: ``view_hand``);
- ``GET /review/api/findings``: the findings timeline (same parameters);
- ``GET /review/hand/<n>.phh`` and ``/review/hand/<n>.jsonl``: the hand exported, as an
  attachment (audited: ``export_hand``).

The journal is replayed in a worker process (``controller.surveillance.review.ReviewProcess``,
started at the first request; ``app.extensions["feltguard.review"].close()`` stops it), never in the
table's own threads. Nobody logged in gets the login form; a role without ``review`` (the
dealer) gets 403 and an audit ``refused`` entry. The data is built from the journal alone,
never from the live table, and comes back with ``Cache-Control: no-store`` (it holds hole
cards) and the app's security headers (display/access.py ``SECURITY_HEADERS``).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, g, jsonify, request, send_from_directory
from flask.typing import ResponseReturnValue

from controller.events import EventError
from controller.journal import JournalError
from controller.security.accounts import REVIEW, Identity, may
from controller.security.audit import AuditError, AuditLog
from controller.surveillance.central_store import StoreError, store_tables
from controller.surveillance.review import QueryError, ReviewError, ReviewProcess, parse_query
from display.access import add_security_headers
from display.login import client_address

__all__ = ["PAGE", "review_blueprint"]

log = logging.getLogger(__name__)

PAGE = "/review"
STATIC = Path(__file__).with_name("static")


def _error(message: str, status: int) -> ResponseReturnValue:
    return jsonify(error=message.splitlines()[0] if message else "error"), status


def review_blueprint(
    journal: Path,
    *,
    identity: Callable[[], Identity | None],
    audit: AuditLog | None,
    login_form: Callable[[str], ResponseReturnValue],
    cardroom: bool = False,
) -> Blueprint:
    """The review screen over ``journal`` (an SQLite journal or a JSON Lines scenario file).

    ``identity`` says who the current request is (None: nobody logged in); ``audit`` records
    each hand viewed or exported and each refusal (None: not recorded); ``login_form(next)``
    is the answer to a request without a login, ``next`` the page to come back to.

    ``cardroom``: ``journal`` is the central store of every table (docs/cardroom.md), and each
    table's review is under ``/t/TABLE`` (``/t/TABLE/review``, ``/t/TABLE/review/api/...``);
    a table the store does not hold is a 404, and the audit names the table with the hand."""
    bp = Blueprint("review", __name__, url_prefix="/t/<table>" if cardroom else None)
    # the replay runs in a worker process: a review must not slow the table's threads
    base = ReviewProcess(journal)
    bp.record_once(lambda state: state.app.extensions.setdefault("feltguard.review", base))

    @bp.url_value_preprocessor
    def which_table(endpoint: str | None, values: dict[str, Any] | None) -> None:
        g.review_table = values.pop("table", None) if values else None

    def current() -> ReviewProcess:
        return base if g.review_table is None else base.for_table(g.review_table)

    def subject(n: int) -> str:
        return f"hand {n}" if g.review_table is None else f"table {g.review_table} hand {n}"

    def who() -> Identity | None:
        return identity()

    def record(who_: Identity, action: str, subject: str) -> bool:
        """Write the audit entry; False when it cannot be written (then nothing is shown)."""
        if audit is None:
            return True
        try:
            audit.record(who_.name, who_.role, action, subject, client_address(request))
        except (AuditError, sqlite3.Error, OSError) as exc:
            log.error("review: the audit log cannot be written (%s): %s %s refused", exc,
                      action, subject)
            return False
        return True

    @bp.before_request
    def guard() -> ResponseReturnValue | None:
        person = who()
        if person is None:
            # the page, or an export, is where to come back to; an API call comes back to the page
            back = request.path.split("/api/")[0]  # an API call comes back to its page
            return login_form(back)
        if not may(person, REVIEW):
            record(person, "refused", request.path[:200])
            log.warning("refused %s (%s) the review page %s", person.name, person.role,
                        request.path)
            if f"{PAGE}/api/" in request.path:
                return _error("your role may not review hands", 403)
            return Response("Forbidden: your role may not review hands.\n", 403,
                            mimetype="text/plain")
        if g.review_table is not None and g.review_table not in store_tables(journal):
            return _error(f"no table {g.review_table[:40]!r} in the cardroom", 404)
        return None

    @bp.after_request
    def headers(response: Response) -> Response:
        return add_security_headers(response, request.is_secure)  # type: ignore[no-any-return]

    @bp.errorhandler(StoreError)
    @bp.errorhandler(JournalError)
    @bp.errorhandler(EventError)
    @bp.errorhandler(OSError)
    @bp.errorhandler(BrokenProcessPool)
    def unreadable(exc: Exception) -> ResponseReturnValue:
        # the journal (or its file) cannot be read: say so in one line, never a traceback
        log.error("review: %s", exc)
        return _error(f"the journal cannot be read: {exc}", 503)

    @bp.get(PAGE)
    def page() -> ResponseReturnValue:
        if request.query_string:
            return _error("the review page takes no parameters", 400)
        return send_from_directory(STATIC, "review.html")

    @bp.get(f"{PAGE}/api/hands")
    def hands() -> ResponseReturnValue:
        try:
            q = parse_query(request.args.to_dict())
        except QueryError as exc:
            return _error(str(exc), 400)
        return jsonify(current().hands_page(q))

    @bp.get(f"{PAGE}/api/findings")
    def findings() -> ResponseReturnValue:
        try:
            q = parse_query(request.args.to_dict())
        except QueryError as exc:
            return _error(str(exc), 400)
        return jsonify(current().timeline_page(q))

    def _number(text: str) -> int | ResponseReturnValue:
        if not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) < 1:
            return _error(f"hand: a hand number is needed, not {text[:40]!r}", 400)
        return int(text)

    def _hand(text: str, action: str, make: Callable[[int], Any]) -> ResponseReturnValue | Any:
        n = _number(text)
        if not isinstance(n, int):
            return n
        if request.query_string:
            return _error("this address takes no parameters", 400)
        try:
            data = make(n)
        except ReviewError as exc:
            return _error(str(exc), 404)
        person = who()
        # fail closed: a hand nobody can see in the audit log is not shown
        if person is None or not record(person, action, subject(n)):
            return _error("the audit log cannot be written, so the hand is not shown", 503)
        return data

    @bp.get(f"{PAGE}/api/hand/<text>")
    def hand(text: str) -> ResponseReturnValue:
        got = _hand(text, "view_hand", current().steps)
        return jsonify(got) if isinstance(got, dict) else got

    @bp.get(f"{PAGE}/hand/<text>.phh")
    def export_phh(text: str) -> ResponseReturnValue:
        return _attachment(_hand(text, "export_hand", current().phh), text, "phh",
                           "application/toml")

    @bp.get(f"{PAGE}/hand/<text>.jsonl")
    def export_jsonl(text: str) -> ResponseReturnValue:
        return _attachment(_hand(text, "export_hand", current().jsonl), text, "jsonl",
                           "application/x-ndjson")

    return bp


def _attachment(got: Any, number: str, ext: str, mimetype: str) -> ResponseReturnValue:
    if not isinstance(got, str):
        return got  # type: ignore[no-any-return]
    response = Response(got, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="hand-{int(number)}.{ext}"'
    return response
