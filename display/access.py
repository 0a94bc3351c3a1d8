"""Who may open the dealer view, and for how long: credentials, login sessions, the login rate
limit, and the token file the shell points the operator to.

The secret never travels in a URL. A browser types it into the login form, which POSTs it; the
server answers with a session cookie (HttpOnly, SameSite=Strict) holding only a signed random
login id. Non-browser clients (tests, bench/latency.py) send it as Socket.IO auth, which travels
in the handshake payload. Either way the check is one `Authenticator`: per-user logins with roles
(`controller.security.accounts.Accounts.authenticate`: the fields `user` and `password`), or, on a
table with no accounts yet, `token_authenticator` (the one shared dealer token, the field `token`).

Nothing here logs or returns a secret: log lines name the client address only.
"""

from __future__ import annotations

import hmac
import os
import secrets
import tempfile
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer

from controller.security.accounts import Identity

# The dealer page shows hole cards: never cache it, never let another site frame it, send no
# referrer. The pages load only their own files (no CDN), so 'self' is the whole policy;
# connect-src 'self' covers same-origin WebSockets, form-action 'self' the login and logout forms.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}
# Over HTTPS: a browser that has seen the table once never tries it in clear again, for a year
# (RFC 6797; browsers keep it for names, not for an address typed as digits).
HSTS = "max-age=31536000"


def add_security_headers(response: Any, secure: bool) -> Any:
    """Give a response the display's security headers, and HSTS when it went over HTTPS."""
    for name, value in SECURITY_HEADERS.items():
        response.headers[name] = value  # replaces send_static_file's "no-cache"
    if secure:
        response.headers["Strict-Transport-Security"] = HSTS
    return response

__all__ = [
    "DEALER_IDENTITY",
    "DEFAULT_SESSION_LIFETIME",
    "FLOOR_IDENTITY",
    "HSTS",
    "SECURITY_HEADERS",
    "TOKEN_FILE_NAME",
    "Authenticator",
    "Identity",
    "Login",
    "LoginLimiter",
    "Logins",
    "add_security_headers",
    "token_authenticator",
    "write_token_file",
]

# A dealer's shift: a screen logged in at the start of a shift is logged out at its end.
DEFAULT_SESSION_LIFETIME = timedelta(hours=12)
TOKEN_FILE_NAME = "dealer-token"


# The one credential check: the login form's fields or a Socket.IO auth dict in, an Identity
# (admitted) or None (refused) out. It must not raise on any input and must compare secrets in
# constant time.
Authenticator = Callable[[Mapping[str, Any]], Identity | None]

DEALER_IDENTITY = Identity(name="dealer", role="dealer")
# The floor person: rulings (``floor.ruling``) need this role on top of a dealer's session.
FLOOR_IDENTITY = Identity(name="floor", role="floor")


def token_authenticator(token: str, identity: Identity = DEALER_IDENTITY) -> Authenticator:
    """An Authenticator admitting whoever gives `token` as the `token` field, as `identity`
    (the dealer; the floor's token admits the floor).

    Raises ValueError for an empty token: it would look configured and accept an empty field.
    """
    if not isinstance(token, str) or not token:
        raise ValueError("dealer_token must be a non-empty string, or None for an open /dealer")
    expected = token.encode("utf-8")

    def authenticate(credentials: Mapping[str, Any]) -> Identity | None:
        given = credentials.get("token") if isinstance(credentials, Mapping) else None
        if not isinstance(given, str):
            return None
        # Bytes, because compare_digest refuses non-ASCII str; surrogatepass, because a JSON
        # auth dict may carry a lone surrogate, which plain UTF-8 refuses to encode.
        if hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected):
            return identity
        return None

    return authenticate


class LoginLimiter:
    """Failed logins per client address: `max_failures` in `window` seconds, then refused until
    the oldest of them is `window` seconds old.

    Thread-safe. Memory is bounded: at most `max_clients` addresses are remembered, the least
    recently failing forgotten first. Behind a reverse proxy every client has the proxy's address.
    """

    def __init__(
        self,
        max_failures: int = 5,
        window: float = 60.0,
        *,
        max_clients: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_failures < 1 or window <= 0 or max_clients < 1:
            raise ValueError("max_failures and max_clients must be >= 1, window > 0")
        self.max_failures = max_failures
        self.window = window
        self.max_clients = max_clients
        self._clock = clock
        self._lock = threading.Lock()
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()

    def retry_after(self, client: str) -> float:
        """Seconds until `client` may try again; 0.0 when it may try now."""
        with self._lock:
            now = self._clock()
            recent = self._recent(client, now)
            if recent is None or len(recent) < self.max_failures:
                return 0.0
            return max(recent[0] + self.window - now, 0.0)

    def failed(self, client: str) -> None:
        """Count one failed attempt by `client`."""
        with self._lock:
            now = self._clock()
            recent = self._recent(client, now)
            if recent is None:
                recent = self._failures[client] = deque(maxlen=self.max_failures)
            recent.append(now)
            self._failures.move_to_end(client)
            while len(self._failures) > self.max_clients:
                self._failures.popitem(last=False)

    def succeeded(self, client: str) -> None:
        """Forget `client`'s failures (a successful login)."""
        with self._lock:
            self._failures.pop(client, None)

    def _recent(self, client: str, now: float) -> deque[float] | None:
        recent = self._failures.get(client)
        if recent is None:
            return None
        while recent and recent[0] <= now - self.window:
            recent.popleft()
        if not recent:
            del self._failures[client]
            return None
        return recent


@dataclass(frozen=True)
class Login:
    """One open login: its random id (what the cookie carries), who, and until when (clock)."""

    id: str
    identity: Identity
    expires: float


class Logins:
    """The open logins of this process and the signed cookie values that name them.

    A cookie value is a login id signed with a random key made per process (itsdangerous, with
    its timestamp checked against the lifetime too). The id must also still be open here: logout
    closes it, so a copied cookie dies with the logout, and a restart closes every login.
    Expiry is absolute from the login, on a monotonic clock (a Pi without a real-time clock jumps
    its wall clock when NTP syncs).
    """

    SALT = "feltguard.display.login"

    def __init__(
        self,
        lifetime: timedelta = DEFAULT_SESSION_LIFETIME,
        *,
        clock: Callable[[], float] = time.monotonic,
        secret_key: bytes | None = None,
    ) -> None:
        self.lifetime = lifetime.total_seconds()
        if self.lifetime < 1:
            raise ValueError("the session lifetime must be at least one second")
        self._clock = clock
        self._signer = URLSafeTimedSerializer(secret_key or secrets.token_bytes(32), salt=self.SALT)
        self._lock = threading.Lock()
        self._open: dict[str, Login] = {}

    @property
    def max_age(self) -> int:
        """The cookie's Max-Age in whole seconds (at least 1)."""
        return max(int(self.lifetime), 1)

    def open(self, identity: Identity) -> tuple[Login, str]:
        """Open a login for `identity`; returns it and the cookie value naming it."""
        now = self._clock()
        login = Login(secrets.token_urlsafe(32), identity, now + self.lifetime)
        with self._lock:
            # Closed here rather than by a timer: expired logins only cost memory until the next.
            for stale in [k for k, v in self._open.items() if v.expires <= now]:
                del self._open[stale]
            self._open[login.id] = login
        return login, self._signer.dumps(login.id)

    def check(self, cookie: str | None) -> Login | None:
        """The open, unexpired login a cookie value names; None for anything else."""
        login_id = self._unsign(cookie)
        if login_id is None:
            return None
        with self._lock:
            login = self._open.get(login_id)
            if login is not None and login.expires <= self._clock():
                del self._open[login_id]
                login = None
        return login

    def close(self, cookie: str | None) -> Login | None:
        """Close the login a cookie value names (logout); returns it, or None if none was open."""
        login_id = self._unsign(cookie)
        if login_id is None:
            return None
        with self._lock:
            return self._open.pop(login_id, None)

    def remaining(self, login: Login) -> float:
        """Seconds until `login` expires (<= 0 once it has)."""
        return login.expires - self._clock()

    def _unsign(self, cookie: str | None) -> str | None:
        if not cookie or not isinstance(cookie, str):
            return None
        try:
            login_id = self._signer.loads(cookie, max_age=self.max_age)
        except BadSignature:  # also SignatureExpired, and garbage that is not a signed value
            return None
        return login_id if isinstance(login_id, str) else None


def write_token_file(token: str, path: str | os.PathLike[str] | None = None) -> Path:
    """Write `token` to a file only its owner may read (mode 0600) and return the file's path.

    `path` None: a fresh private directory (mode 0700, `tempfile.mkdtemp`) holding
    `dealer-token`. An existing file at `path` is replaced atomically: the token is written to a
    new file created with O_CREAT|O_EXCL (never through a planted file or symlink) in the same
    directory, then renamed over it, so no reader ever sees a partial or a world-readable token.
    """
    if not isinstance(token, str) or not token:
        raise ValueError("the token must be a non-empty string")
    target = Path(tempfile.mkdtemp(prefix="feltguard-")) / TOKEN_FILE_NAME if path is None \
        else Path(path)
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(8)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(tmp, flags, 0o600)
    try:
        os.fchmod(fd, 0o600)  # exactly 0600, whatever the umask
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fd = -1  # the file object owns it now
            fh.write(token + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    return target
