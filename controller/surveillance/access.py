"""How a table or the surveillance service logs in to the cardroom's Redis: the URL, the ACL
user and its password file, and the TLS files (the cardroom CA the server's certificate must
chain to, and a client certificate where Redis asks for one). No Redis client here: the
configuration and the command line check these without loading one (docs/cardroom.md).

Each check says what is wrong in one line naming the setting as the operator wrote it: a
table's ``central.password_file``, the service's ``--redis-password-file``, ``feltguard sim``'s
``--central-password-file`` (``Names``). A password never appears in a line: a URL is shown
without its credentials (``streams.safe_url``), and a password is read from its file only when
a connection is made.

The checks in two steps, as the table needs them: ``check`` looks at the settings alone (the
configuration refuses a bad one, so the table does not start on it), ``check_files`` opens the
files (``feltguard config check`` and the command lines refuse a bad one; a running table's
relay says it in one line and tries again later, while the table deals on).
"""

from __future__ import annotations

import os
import ssl
import stat
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from controller.surveillance.streams import safe_url

__all__ = ["CONFIG_NAMES", "SIM_NAMES", "SURVEILLANCE_NAMES", "AccessError", "Names",
           "RedisAccess", "is_loopback", "table_user"]

SCHEMES = ("redis://", "rediss://", "unix://")
_LOOPBACK_NAMES = frozenset({"", "localhost", "localhost.", "::1"})
# redis-py would take these from a URL's query over what the code sets; only db is harmless
_URL_OPTIONS = frozenset({"db"})
_USER_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.@")


class AccessError(ValueError):
    """A login setting or file that cannot be used: one line naming the setting."""


@dataclass(frozen=True)
class Names:
    """What each setting is called where the operator set it, for the lines that name it."""

    url: str
    user: str
    password_file: str
    ca_file: str
    cert_file: str
    key_file: str
    table: str = "the table id"


CONFIG_NAMES = Names("central.url", "central.user", "central.password_file", "central.ca_file",
                     "central.tls_cert", "central.tls_key", "central.table")
SURVEILLANCE_NAMES = Names("--redis", "--redis-user", "--redis-password-file", "--redis-ca",
                           "--redis-cert", "--redis-key")
SIM_NAMES = Names("--central", "--central-user", "--central-password-file", "--central-ca",
                  "--central-cert", "--central-key", "--table-id")


def table_user(table: str) -> str:
    """The ACL user a table logs in as unless told otherwise (controller/surveillance/acl.py)."""
    return f"table-{table}"


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine: localhost, 127.0.0.0/8 or ::1."""
    host = host.strip("[]").lower()
    return host in _LOOPBACK_NAMES or host.startswith("127.")


@dataclass(frozen=True)
class RedisAccess:
    """A login to the cardroom's Redis. Without ``password_file`` the client logs in as no one
    (Redis's ``default`` user: a Redis on this machine, the tests); ``user`` is still the name
    the table's entries carry (the relay's ``table`` field)."""

    url: str
    user: str = ""
    password_file: str = ""
    ca_file: str = ""
    cert_file: str = ""
    key_file: str = ""
    names: Names = field(default=CONFIG_NAMES, compare=False)

    @property
    def tls(self) -> bool:
        return self.url.startswith("rediss://")

    def shown(self) -> str:
        """The URL as a line may show it."""
        return safe_url(self.url)

    def check(self) -> RedisAccess:
        """The settings alone, without opening a file; AccessError names the first problem."""
        n = self.names
        if not self.url.startswith(SCHEMES):
            raise AccessError(f"{n.url}: must be a redis://, rediss:// or unix:// URL, "
                              f"got {self.shown()!r}")
        parts = urlsplit(self.url)
        if "@" in parts.netloc:  # (never the URL itself in the line: it holds the password)
            raise AccessError(f"{n.url}: holds a user or password ({self.shown()}): give the "
                              f"user as {n.user} and the password in {n.password_file}")
        for key, _ in parse_qsl(parts.query, keep_blank_values=True):
            if key not in _URL_OPTIONS:
                raise AccessError(f"{n.url}: the option ?{key}= is not taken (only ?db=): the "
                                  f"login and TLS are set by {n.user}, {n.password_file}, "
                                  f"{n.ca_file}, {n.cert_file} and {n.key_file}")
        if self.url.startswith("redis://") and not is_loopback(parts.hostname or ""):
            raise AccessError(f"{n.url}: plain redis:// to {parts.hostname}: TLS is required "
                              f"off this machine (rediss:// with {n.ca_file})")
        if self.tls and not self.ca_file:
            raise AccessError(f"{n.ca_file}: needed with a rediss:// URL: the cardroom CA the "
                              "Redis server's certificate must chain to")
        if not self.tls:
            for name, value in ((n.ca_file, self.ca_file), (n.cert_file, self.cert_file),
                                (n.key_file, self.key_file)):
                if value:
                    raise AccessError(f"{name}: only with a rediss:// URL ({n.url} is "
                                      f"{self.shown()})")
        if bool(self.cert_file) != bool(self.key_file):
            raise AccessError(f"{n.key_file if self.cert_file else n.cert_file}: needed with "
                              f"{n.cert_file if self.cert_file else n.key_file} (a client "
                              "certificate and its key go together)")
        if self.user and not set(self.user) <= _USER_CHARS:
            raise AccessError(f"{n.user}: letters, digits, '-', '_', '.' and '@' only, got "
                              f"{self.user!r}")
        if self.password_file and not self.user:
            raise AccessError(f"{n.user}: needed with {n.password_file}")
        return self

    def check_files(self) -> RedisAccess:
        """The files opened as a connection opens them; AccessError names the setting."""
        self.check()
        if self.password_file:
            self.password()
        if self.tls:
            self.ssl_context()
        return self

    def password(self) -> str:
        """The password, read from its file: one line, the file readable by its owner only
        (as ssh refuses a private key others may read)."""
        name, path = self.names.password_file, Path(self.password_file)
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            raise AccessError(f"{name}: {path}: no such file") from None
        except PermissionError:
            raise AccessError(f"{name}: {path}: not readable by this user") from None
        except OSError as exc:
            raise AccessError(f"{name}: {path}: {exc.strerror or exc}") from None
        with os.fdopen(fd, "rb") as f:
            mode = os.fstat(f.fileno()).st_mode
            if not stat.S_ISREG(mode):
                raise AccessError(f"{name}: {path}: not a file")
            if mode & 0o077:
                raise AccessError(f"{name}: {path} may be read by group or others (mode "
                                  f"{stat.S_IMODE(mode):04o}): chmod 600 it")
            data = f.read(4096)
        try:
            lines = [line.strip() for line in data.decode().splitlines() if line.strip()]
        except UnicodeDecodeError:
            raise AccessError(f"{name}: {path}: not text") from None
        if len(lines) != 1 or any(c.isspace() for c in lines[0]):
            raise AccessError(f"{name}: {path}: must hold the password alone, on one line")
        return lines[0]

    def ssl_context(self) -> ssl.SSLContext:
        """The client's TLS context (controller/security/tls.py ``client_context``): it trusts
        the cardroom CA only (not the system's authorities: a certificate any public CA issued
        for the host is refused), checks the host name, and presents the client certificate
        where one is set. Each file is named by its setting when it cannot be used."""
        from controller.security.tls import TlsError, client_context

        n = self.names
        files = [(n.ca_file, self.ca_file)]
        if self.cert_file:
            files += [(n.cert_file, self.cert_file), (n.key_file, self.key_file)]
        for name, path in files:
            if not os.access(path, os.R_OK):
                why = "no such file" if not os.path.exists(path) else "not readable by this user"
                raise AccessError(f"{name}: {path}: {why}")
        try:
            return client_context(self.ca_file, self.cert_file or None, self.key_file or None)
        except TlsError as exc:
            name = n.ca_file if str(exc).startswith(self.ca_file) else n.cert_file
            raise AccessError(f"{name}: {exc}") from None
