"""A Redis connection kept up on a thread of its own: the table's relay and the cardroom's
collector each hold one.

Each round connects, has the owner ``greet`` Redis (its first commands: the link is up once they
are answered) and ``serve`` until halted. A failure the owner names in ``errors`` ends the round:
the owner's ``failed`` says what went wrong, the client is closed, and the next round starts
after a wait that doubles from the backoff's first bound to its second, back to the first once
the link was up. A halt ends the wait at once.

``connect`` makes the client of a ``RedisAccess`` (access.py): the ACL user's login, TLS verified
against the cardroom CA only, and nothing sent on connect that a least-privilege user may not
send (docs/cardroom.md, "The ACL"). ``explain`` says a refusal in one line naming the setting
to look at.

The doubling is kept here rather than in redis-py's ``ExponentialBackoff``, whose
``base * 2**failures`` overflows a float after about a thousand failures: at a 5 s cap, an
outage of an hour and a half would end the thread.
"""

from __future__ import annotations

import ssl
import threading
from collections.abc import Callable
from typing import Any

import redis
from redis.connection import SSLConnection

from controller.surveillance.access import AccessError, RedisAccess

__all__ = ["LINK_ERRORS", "RedisLink", "connect", "explain", "one_line"]

# what a round of a link may fail with and try again: Redis, the network, a login file
LINK_ERRORS: tuple[type[Exception], ...] = (redis.RedisError, OSError, AccessError)


class _CardroomTLS(SSLConnection):
    """redis-py's TLS connection wrapping its socket with the context ``access.ssl_context``
    made (redis-py 8.1 takes no context of its own: its default one would also trust every
    authority of the system's store). The ``ssl_*`` settings are passed as well, so were
    redis-py to stop calling this method the connection would still be verified against the
    cardroom CA, only less narrowly."""

    def __init__(self, *, cardroom_context: ssl.SSLContext, **kwargs: Any) -> None:
        self._cardroom_context = cardroom_context
        super().__init__(**kwargs)

    def _wrap_socket_with_ssl(self, sock: Any) -> Any:
        return self._cardroom_context.wrap_socket(sock, server_hostname=self.host)


def one_line(exc: BaseException) -> str:
    """An error as one line, for a status or a log (Redis's messages may span lines)."""
    return " ".join(str(exc).split()) or type(exc).__name__


def connect(access: RedisAccess, **options: Any) -> redis.Redis:
    """A client of ``access`` (``options``: timeouts and the like, as redis-py takes them).
    The files are read here, at each connection: a password file fixed, or a certificate
    renewed, is used at the next try without a restart. AccessError names a bad one."""
    access.check()
    # no CLIENT SETINFO on connect: a least-privilege user may not send it (it would only
    # fill Redis's ACL log on 7.2+; 7.0 does not know it)
    options["driver_info"] = None
    if access.password_file:
        options.update(username=access.user, password=access.password())
    if access.tls:
        options.update(connection_class=_CardroomTLS, cardroom_context=access.ssl_context(),
                       ssl_ca_certs=access.ca_file, ssl_certfile=access.cert_file or None,
                       ssl_keyfile=access.key_file or None, ssl_cert_reqs="required",
                       ssl_check_hostname=True)
    return redis.Redis.from_url(access.url, **options)


def explain(exc: BaseException, access: RedisAccess) -> str:
    """A failed connection or command as one line naming what to look at."""
    n, text = access.names, one_line(exc)
    if isinstance(exc, AccessError):
        return text
    if isinstance(exc, redis.AuthenticationError):
        if not access.password_file:
            return (f"Redis at {access.shown()} asks for a login: set {n.user} and "
                    f"{n.password_file} ({text})")
        return (f"Redis at {access.shown()} refused the login of user {access.user} ({n.user}, "
                f"{n.password_file}): a wrong password, or the user is not in the cardroom's "
                f"ACL or is off ({text})")
    if isinstance(exc, redis.exceptions.NoPermissionError):
        return f"user {access.user or 'default'} ({n.user}) may not do this at Redis: {text}"
    lower = text.lower()
    if "certificate verify failed" in lower or "hostname mismatch" in lower:
        why = text.split("certificate verify failed:", 1)[-1].split("(_ssl", 1)[0].strip(" .")
        return (f"the Redis server's certificate at {access.shown()} does not verify against "
                f"{n.ca_file} ({access.ca_file}): {why}")
    if "certificate required" in lower or "certificate_required" in lower:
        return (f"Redis at {access.shown()} requires a client certificate: set {n.cert_file} "
                f"and {n.key_file} ({text})")
    # with TLS 1.3 a server that wants a client certificate and got none just closes the
    # connection once the handshake is done: the client sees it as an EOF at its first write
    if access.tls and not access.cert_file and (
            "eof occurred in violation of protocol" in lower or "closed by server" in lower):
        return (f"Redis at {access.shown()} closed the TLS connection: does it require a client "
                f"certificate (tls-auth-clients yes)? set {n.cert_file} and {n.key_file} "
                f"({text})")
    if access.tls and ("wrong version number" in lower or "record layer failure" in lower):
        return (f"Redis at {access.shown()} does not speak TLS on that port: is it its "
                f"tls-port? ({text})")
    return text


class RedisLink:
    """Keeps a client of ``url`` (made by ``client``) up for ``serve``, on thread ``name``.

    ``failed(exc, delay, first)`` returns the error to show; ``delay`` is the wait before the
    next round, ``first`` whether it is the first failure since the link was up (or started),
    so an owner can say an outage once. ``connected`` and ``error`` say how the link is now."""

    def __init__(self, url: str, *, name: str, client: Callable[[str], Any],
                 greet: Callable[[Any], None], serve: Callable[[Any], None],
                 failed: Callable[[Exception, float, bool], str],
                 errors: tuple[type[Exception], ...] = LINK_ERRORS,
                 backoff: tuple[float, float] = (0.2, 5.0)) -> None:
        self.url = url
        self.halt = threading.Event()  # serve returns once it is set
        self.connected = False
        self.error = ""
        self._name = name
        self._client = client
        self._greet = greet
        self._serve = serve
        self._failed = failed
        self._errors = errors
        self._backoff = backoff
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()

    def stop(self, timeout: float, *wake: threading.Event) -> None:
        """Halt, then set each of the owner's ``wake`` events (so a serve waiting on one sees
        the halt at once), and wait up to ``timeout`` seconds for the thread."""
        self.halt.set()
        for event in wake:
            event.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        delay = self._backoff[0]
        while not self.halt.is_set():
            client = None
            try:
                client = self._client(self.url)
                self._greet(client)
                self.connected, self.error, delay = True, "", self._backoff[0]
                self._serve(client)
            except self._errors as exc:
                first = self.connected or not self.error
                self.connected, self.error = False, self._failed(exc, delay, first)
            finally:
                if client is not None:
                    client.close()
            self.halt.wait(delay)
            delay = min(delay * 2, self._backoff[1])
