"""The cardroom's Redis ACL: least privilege for each table and for the surveillance service
(docs/cardroom.md, "The ACL").

- each table's user ``table-ID`` may add entries to its own stream ``feltguard:events:ID``, read
  that stream's last id (``XINFO STREAM``: where the relay resumes) and join the set
  ``feltguard:tables`` (``SADD`` through a selector, on that key only): it cannot read, trim or
  write another table's stream, nor read any stream's entries;
- the surveillance user may read the set and the streams (``SMEMBERS``, ``SCARD``, ``XREAD``,
  ``XRANGE``, ``XLEN``, ``XINFO STREAM``) and trim the streams (``XTRIM``), its one write: once a
  batch is committed to the central store the collector drops it from Redis, which is the link
  and not the history. It has no ``XADD``: it can never forge an entry;
- ``user default off``: a client that does not log in can do nothing.

Every user also gets ``PING`` (redis-py's health check). On connect redis-py 8 sends
``HELLO 3 AUTH user password`` (``AUTH`` with RESP2), which Redis takes from every user;
``connect`` turns off its ``CLIENT SETINFO`` (redis_link.py); ``SELECT`` is not granted: the
cardroom uses database 0.

``write_cardroom`` writes ``users.acl`` for Redis's ``aclfile`` (passwords as ``#<sha256>``:
the file holds no clear password) and one 0600 password file per user, each created with that
mode, never overwriting a file.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Iterable
from pathlib import Path

from controller.surveillance.access import table_user
from controller.surveillance.streams import TABLES, stream_key, table_id

__all__ = ["ACL_FILE", "SURVEILLANCE_USER", "acl_lines", "password_file_name",
           "surveillance_rules", "table_rules", "write_cardroom"]

ACL_FILE = "users.acl"
SURVEILLANCE_USER = "surveillance"
# no key, no channel, no command: then each user is given what it needs
_NOTHING = "resetkeys resetchannels -@all"


def table_rules(table: str) -> str:
    """What table ``table``'s user may do (after ``on #HASH``)."""
    key = stream_key(table_id(table))
    return f"{_NOTHING} +ping +xadd +xinfo|stream ~{key} (+sadd %W~{TABLES})"


def surveillance_rules() -> str:
    """What the surveillance user may do: read everything the tables relay, trim the streams."""
    return (f"{_NOTHING} +ping +smembers +scard +xread +xrange +xlen +xinfo|stream +xtrim "
            f"%R~{TABLES} ~{stream_key('*')}")


def acl_lines(passwords: dict[str, str], tables: Iterable[str],
              surveillance_user: str = SURVEILLANCE_USER) -> list[str]:
    """The ACL file's lines; ``passwords`` maps each user to its clear password, of which only
    the SHA-256 goes into a line."""
    def hashed(user: str) -> str:
        return "#" + hashlib.sha256(passwords[user].encode()).hexdigest()

    lines = [f"user default off {_NOTHING}",
             f"user {surveillance_user} on {hashed(surveillance_user)} {surveillance_rules()}"]
    lines += [f"user {table_user(t)} on {hashed(table_user(t))} {table_rules(t)}"
              for t in tables]
    return lines


def password_file_name(user: str) -> str:
    return f"{user}.password"


def write_cardroom(tables: Iterable[str], out: str | os.PathLike[str], *,
                   surveillance_user: str = SURVEILLANCE_USER) -> list[Path]:
    """Write ``users.acl`` and a password file per user into ``out`` (made 0700 if new); the
    paths written. ValueError in one line: a bad table id, a file already there."""
    ids = list(dict.fromkeys(table_id(t) for t in tables))
    if not ids:
        raise ValueError("--tables: name at least one table")
    folder = Path(out)
    users = [surveillance_user, *(table_user(t) for t in ids)]
    targets = [folder / ACL_FILE, *(folder / password_file_name(u) for u in users)]
    there = [p for p in targets if p.exists()]
    if there:  # new passwords for a cardroom already set up would lock every table out
        raise ValueError(f"{there[0]}: already there: choose another folder (a new ACL means "
                         "new passwords at every table)")
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"{folder}: {exc.strerror or exc}") from None
    # 32 random bytes: the SHA-256 in the ACL file cannot be turned back into one
    passwords = {u: secrets.token_urlsafe(32) for u in users}
    written = []
    for user in users:
        written.append(_write(folder / password_file_name(user), passwords[user] + "\n"))
    lines = acl_lines(passwords, ids, surveillance_user)
    written.insert(0, _write(folder / ACL_FILE, "\n".join(lines) + "\n"))
    return written


def _write(path: Path, text: str) -> Path:
    """A new file created 0600 (never readable by others, not even while written)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise ValueError(f"{path}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    return path
