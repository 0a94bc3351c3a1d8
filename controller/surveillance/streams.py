"""The cardroom's stream names, one home for what the tables and the surveillance service must
agree on: a table's id, its Redis stream (``feltguard:events:ID``) and the set of every table
that ever relayed, the journal seq an entry id carries (``0-SEQ``), and a Redis URL shown
without its credentials. No Redis client here: the configuration and the command line check a
table's id without loading one (docs/cardroom.md)."""

from __future__ import annotations

TABLES = "feltguard:tables"  # the set of table ids that ever relayed
_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")


def table_id(value: str) -> str:
    """A table's id as streams and the store name it; ValueError names what is wrong."""
    if not isinstance(value, str) or not 1 <= len(value) <= 32 or not set(value) <= _ID_CHARS:
        raise ValueError(f"table id must be 1-32 of a-z, 0-9, '-' and '_', got {value!r}")
    return value


def stream_key(table: str) -> str:
    return f"feltguard:events:{table}"


def entry_seq(entry_id: bytes | str) -> int:
    """The journal seq of a stream entry id ``0-SEQ``."""
    text = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    return int(text.split("-", 1)[1])


def safe_url(url: str) -> str:
    """The URL without its credentials (``redis://user:secret@host``), for a log or a line
    printed: no secret lands in a log."""
    if "@" not in url:
        return url
    scheme, _, rest = url.partition("://")
    return f"{scheme}://***@{rest.rsplit('@', 1)[1]}"
