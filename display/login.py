"""The login desk of a Feltguard web app: the login form and its POST, logout, the session
cookie, the rate limits, stale logins, refusals and the audit page, for the table's live view
(display/server.py) and the cardroom's surveillance service (controller/processes/cardroom_web.py)
alike.

One check for every way in (``check``): the login form's fields, or a Socket.IO auth dict. It
answers the Identity, the seconds to wait (rate-limited by client address, or by account name
from any address), or None; each answer is an audit entry (controller/security/audit.py). A login
whose account was removed, or whose password or role changed, is closed at its next request
(``current``). No secret is logged or echoed; the audit names a failed login's user only when
it is an account (a password typed into the name field must not land in the log).
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from flask import Flask, Request, redirect, render_template, request
from flask.typing import ResponseReturnValue

from controller.security.accounts import (
    READ_AUDIT,
    AccountError,
    Accounts,
    Identity,
    may,
    normal_name,
)
from controller.security.audit import AuditLog
from display.access import DEFAULT_SESSION_LIFETIME, Authenticator, Login, LoginLimiter, Logins

__all__ = ["AUDIT", "SESSION_COOKIE", "LoginDesk"]

log = logging.getLogger("display.server")  # one logger for the web app's lines (tests read it)

SESSION_COOKIE = "feltguard_session"
AUDIT = "/audit"
AUDIT_PAGE = 1000  # the newest entries the audit page lists
# Failed logins naming one account, from any address, before that name is refused for the
# window: a guesser spread over many addresses still meets a limit (docs/security.md).
USER_MAX_FAILURES = 10
USER_WINDOW_S = 900.0


def client_address(req: Request) -> str:
    # The peer's address: the rate limit's key. Behind a reverse proxy this is the proxy.
    return req.remote_addr or "unknown"


def _name_key(name: Any) -> str:
    """The per-account limit's key: the name as the accounts store it, so "Sam " and "sam"
    are one account to the limit as they are to the login."""
    try:
        return normal_name(name)
    except AccountError:
        return str(name)[:64]


class LoginDesk:
    """Who is logged in to one app, and the routes that log in and out.

    ``authenticate`` None: no login at all (a development table; every page is open).
    ``back``: the pages a login may send the browser back to (a full match), ``home`` where
    logout and an unknown ``next`` go. ``on_close`` hears each login closed by logout or by
    going stale (the live view disconnects its sockets)."""

    def __init__(self, *, authenticate: Authenticator | None, accounts: Accounts | None,
                 audit: AuditLog | None, limiter: LoginLimiter | None = None,
                 session_lifetime: timedelta = DEFAULT_SESSION_LIFETIME,
                 back: re.Pattern[str], home: str,
                 on_close: Callable[[Login], None] = lambda login: None) -> None:
        self.authenticate = authenticate
        self.accounts = accounts
        self.audit = audit
        self.limiter = limiter or LoginLimiter()
        self.user_limiter = LoginLimiter(USER_MAX_FAILURES, USER_WINDOW_S)  # by account name
        self.logins = Logins(session_lifetime)
        self._back = back
        self._home = home
        self._on_close = on_close

    # --- who is asking -------------------------------------------------------------------

    def record(self, who: str, role: str, action: str, subject: str = "") -> None:
        """One audit entry; a failing audit file is logged, and does not stop the table."""
        if self.audit is not None:
            try:
                self.audit.record(who, role, action, subject, client_address(request))
            except Exception:
                log.exception("could not write the audit log")

    def _typed_name(self, credentials: Mapping[str, Any]) -> str:
        name = credentials.get("user")
        if self.accounts is not None and self.accounts.known(name):
            return normal_name(name)
        return "(unknown user)" if self.accounts is not None else "(token)"

    def check(self, credentials: Mapping[str, Any]) -> Identity | float | None:
        """The one login check of the form and the Socket.IO auth: the Identity, the seconds
        to wait (rate-limited, by address or by account name), or None (refused)."""
        assert self.authenticate is not None
        client = client_address(request)
        user_key = f"user:{_name_key(credentials.get('user'))}"
        wait = max(self.limiter.retry_after(client), self.user_limiter.retry_after(user_key))
        if wait > 0:
            log.warning("refused a login from %s: too many failed logins", client)
            self.record(self._typed_name(credentials), "", "login_limited")
            return wait
        identity = self.authenticate(credentials)
        if identity is None:
            self.limiter.failed(client)
            if self.accounts is not None and self.accounts.known(credentials.get("user")):
                self.user_limiter.failed(user_key)
            log.warning("refused a login from %s: wrong credentials", client)
            self.record(self._typed_name(credentials), "", "login_failed")
            return None
        self.limiter.succeeded(client)
        self.user_limiter.succeeded(user_key)
        log.info("%s logged in from %s", identity.role, client)
        self.record(identity.name, identity.role, "login")
        return identity

    def current(self) -> Login | None:
        """The request's open login (None: none, expired, closed, or gone stale)."""
        cookie = request.cookies.get(SESSION_COOKIE)
        login = self.logins.check(cookie)
        if login is not None and self.accounts is not None \
                and not self.accounts.still_valid(login.identity):
            # the account was removed, or its password or role changed, since this login
            self.logins.close(cookie)
            self._on_close(login)
            return None
        return login

    def identity(self) -> Identity | None:
        login = self.current() if self.authenticate is not None else None
        return login.identity if login is not None else None

    # --- answers -------------------------------------------------------------------------

    def gate(self, page: str, permission: str) -> ResponseReturnValue | None:
        """None when the request may open ``page``; else the answer: the login form (no
        login), or 403 (a role without ``permission``). No login desk at all: open."""
        if self.authenticate is None:
            return None
        login = self.current()
        if login is None:
            return self.form(page)
        if not may(login.identity, permission):
            return self.refuse(login, page)
        return None

    def form(self, after: str, error: str | None = None, status: int = 200
             ) -> ResponseReturnValue:
        """The login form, coming back to ``after``."""
        return render_template("login.html", error=error, after=after,
                               accounts=self.accounts is not None), status

    def refuse(self, login: Login, what: str) -> ResponseReturnValue:
        """403 for a page the login's role may not open (audited)."""
        who = login.identity
        log.warning("refused %s to a %s login from %s", what, who.role, client_address(request))
        self.record(who.name, who.role, "refused", what)
        return render_template("refused.html", role=who.role, what=what), 403

    def _too_many(self, wait: float) -> ResponseReturnValue:
        seconds = max(math.ceil(wait), 1)
        page = render_template("login.html", accounts=self.accounts is not None,
                               error=f"Too many failed logins. Try again in {seconds} seconds.")
        return page, 429, {"Retry-After": str(seconds)}

    def _after(self) -> str:
        """The page the login form came from, if it is one of ours (never an address the form
        names freely: that would be an open redirect)."""
        after = request.form.get("next", self._home)
        return after if self._back.fullmatch(after) else self._home

    # --- routes --------------------------------------------------------------------------

    def install(self, app: Flask, *, aliases: tuple[str, ...] = ()) -> None:
        """``POST /login``, ``POST /logout`` (and each under ``aliases``: ``/dealer/login``)
        and ``GET /audit``."""

        def log_in() -> ResponseReturnValue:
            if self.authenticate is None:
                return redirect(self._home, code=303)
            got = self.check(request.form.to_dict())
            if isinstance(got, float):
                return self._too_many(got)
            if got is None:
                wrong = "Wrong name or password." if self.accounts is not None else \
                    "Wrong token."
                return self.form(self._after(), wrong, 401)
            self.logins.close(request.cookies.get(SESSION_COOKIE))  # the new one replaces it
            _, cookie = self.logins.open(got)
            response = redirect(self._after(), code=303)
            response.set_cookie(
                SESSION_COOKIE, cookie, max_age=self.logins.max_age, path="/",
                secure=request.is_secure, httponly=True, samesite="Strict")
            return response

        def log_out() -> ResponseReturnValue:
            login = self.logins.close(request.cookies.get(SESSION_COOKIE))
            if login is not None:
                self._on_close(login)
                log.info("%s logged out from %s", login.identity.role, client_address(request))
                self.record(login.identity.name, login.identity.role, "logout")
            response = redirect(self._home, code=303)
            response.delete_cookie(SESSION_COOKIE, path="/", secure=request.is_secure,
                                   httponly=True, samesite="Strict")
            return response

        def audit_page() -> ResponseReturnValue:
            """The audit log, newest first, with the state of its chain (read only: nothing
            edits it, here or anywhere)."""
            if request.query_string:
                return redirect(AUDIT, code=303)
            if self.authenticate is None:  # no logins, no audit page
                return self.form(AUDIT)
            refused = self.gate(AUDIT, READ_AUDIT)
            if refused is not None:
                return refused
            if self.audit is None:
                return render_template("audit.html", entries=[], problems=["no audit log"])
            entries = self.audit.entries()
            return render_template("audit.html", entries=entries[::-1][:AUDIT_PAGE],
                                   shown=min(len(entries), AUDIT_PAGE), total=len(entries),
                                   problems=self.audit.check())

        for prefix in ("", *aliases):
            app.add_url_rule(f"{prefix}/login", f"login{prefix}", log_in, methods=["POST"])
            app.add_url_rule(f"{prefix}/logout", f"logout{prefix}", log_out, methods=["POST"])
        app.add_url_rule(AUDIT, "audit", audit_page)
        app.extensions["feltguard.logins"] = self.logins
        app.extensions["feltguard.login_limiter"] = self.limiter
