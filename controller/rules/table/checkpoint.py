"""The table's state as text and back: the form a checkpoint keeps it in (docs/checkpoints.md).

A restart that replays a month of journal takes minutes; one that loads the state as it stood at
a checkpoint and replays only what came after takes a moment. This module is the core's own
serialisation of ``TableState``, pure and versioned, never pickle: a checkpoint is read back only
into the core's own record types, and a journal that is evidence must not hold anything that
runs code when loaded.

The form is JSON (one object):

    {"format": "feltguard-state", "version": 1, "schema": "<sha256>", "state": VALUE}

where a VALUE is JSON's own null, true/false, integers, floats and strings, and

- a tuple: a JSON array;
- ``{"list": [...]}``, ``{"set": [...]}``, ``{"frozenset": [...]}``: a list, a set, a frozenset
  (sets in the sorted order of their items' text, so equal states give equal text);
- ``{"dict": [[key, value], ...]}`` and ``{"mappingproxy": [[key, value], ...]}``: a dict and a
  read-only mapping, in their order (keys are values too: ints, strings, tuples);
- ``{"@": "rules.table.state.TableState", "field": VALUE, ...}``: a record of the core (a
  frozen dataclass of ``controller.rules``, ``controller.poker`` or ``controller.events``,
  named by its module under ``controller.`` and its class), every field by name.

What is derived is not kept: a hand's engine (``GameHand._engine``) is rebuilt from the hand's
own log of accepted commands, as the monitor itself rebuilds it (``procedure.restored``).

``schema`` is the SHA-256 of every record type's name and fields, and ``version`` a number bumped
when a record's meaning changes without its shape: a checkpoint whose version or schema is not
the running code's is an older format, refused (``CheckpointError``) so the caller falls back to
an earlier checkpoint or a full replay. Everything else wrong with a text (not JSON, an unknown
record, a missing field, a value of the wrong kind) is a ``CheckpointError`` with one line too;
``state_from_text`` never raises anything else.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import pkgutil
from collections.abc import Callable, Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

from controller.rules import procedure
from controller.rules.table.state import TableState
from controller.rules.table.view import snapshot

__all__ = ["CHECKPOINT_VERSION", "CheckpointError", "schema", "state_from_text", "state_to_text"]

FORMAT = "feltguard-state"
# Bumped by hand when a record's meaning changes but not its fields (the schema catches those).
CHECKPOINT_VERSION = 1
# The packages whose frozen dataclasses a state is made of: the only types a text may name.
_PACKAGES = ("controller.rules", "controller.poker", "controller.events")


class CheckpointError(ValueError):
    """A text that is not a state this code can load, said in one line."""


def _name(cls: type) -> str:
    return f"{cls.__module__.removeprefix('controller.')}.{cls.__qualname__}"


@cache
def _records() -> Mapping[str, type]:
    """Every dataclass of the core's packages, by its name in the text. Every module of those
    packages is imported first, so the registry (and the schema hash) is the code's, not what
    this process happened to import before its first checkpoint."""
    found: dict[str, type] = {}
    for package_name in _PACKAGES:
        package = importlib.import_module(package_name)
        names = [package_name]
        if hasattr(package, "__path__"):
            names += sorted(m.name for m in pkgutil.walk_packages(package.__path__,
                                                                  f"{package_name}."))
        for module_name in names:
            module = importlib.import_module(module_name)
            for value in list(vars(module).values()):
                if (isinstance(value, type) and dataclasses.is_dataclass(value)
                        and value.__module__ == module_name):
                    found[_name(value)] = value
    return MappingProxyType(dict(sorted(found.items())))


@cache
def schema() -> str:
    """The SHA-256 of every record type's name and field names, in order."""
    shape = "\n".join(f"{name}:{','.join(f.name for f in dataclasses.fields(cls))}"
                      for name, cls in _records().items())
    return hashlib.sha256(shape.encode()).hexdigest()


# Fields derived from the others, left out of the text and rebuilt after it is read.
_DERIVED: Mapping[type, tuple[str, ...]] = {procedure.GameHand: ("_engine",)}
_REBUILD: Mapping[type, Callable[[Any], Any]] = {procedure.GameHand: procedure.restored}


def _sort_key(item: Any) -> str:
    return json.dumps(item, sort_keys=True, separators=(",", ":"))


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        out: dict[str, Any] = {"@": _name(cls)}
        skip = _DERIVED.get(cls, ())
        for f in dataclasses.fields(value):
            if f.name not in skip:
                out[f.name] = _encode(getattr(value, f.name))
        return out
    kind = type(value)
    if kind is tuple:
        return [_encode(v) for v in value]
    if kind is list:
        return {"list": [_encode(v) for v in value]}
    if kind in (set, frozenset):
        return {kind.__name__: sorted((_encode(v) for v in value), key=_sort_key)}
    if kind in (dict, MappingProxyType):
        return {kind.__name__: [[_encode(k), _encode(v)] for k, v in value.items()]}
    raise CheckpointError(f"a {kind.__qualname__} cannot be kept in a checkpoint")


def state_to_text(state: TableState) -> str:
    """The state in the checkpoint form (module docstring): compact JSON, equal states giving
    equal text."""
    return json.dumps({"format": FORMAT, "version": CHECKPOINT_VERSION, "schema": schema(),
                       "state": _encode(state)}, separators=(",", ":"), allow_nan=False)


_CONTAINERS: Mapping[str, Callable[[list[Any]], Any]] = {
    "list": list,
    "set": set,
    "frozenset": frozenset,
    "dict": lambda pairs: {_key(k): v for k, v in pairs},
    "mappingproxy": lambda pairs: MappingProxyType({_key(k): v for k, v in pairs}),
}


def _key(key: Any) -> Any:
    try:
        hash(key)
    except TypeError:
        raise CheckpointError(f"a mapping key that cannot be one: {key!r:.40}") from None
    return key


def _pairs(raw: Any) -> list[Any]:
    if not isinstance(raw, list) or not all(isinstance(p, list) and len(p) == 2 for p in raw):
        raise CheckpointError("a mapping that is not a list of [key, value] pairs")
    return [[_decode(k), _decode(v)] for k, v in raw]


def _decode(raw: Any) -> Any:
    if raw is None or isinstance(raw, (bool, int, float, str)):
        return raw
    if isinstance(raw, list):
        return tuple(_decode(v) for v in raw)
    if not isinstance(raw, dict):
        raise CheckpointError(f"not a value of a state: {type(raw).__name__}")
    if "@" in raw:
        return _record(raw)
    if len(raw) != 1:
        raise CheckpointError(f"an object that is neither a record nor a container: "
                              f"{sorted(raw)[:3]}")
    [(kind, items)] = raw.items()
    make = _CONTAINERS.get(kind)
    if make is None:
        raise CheckpointError(f"an unknown container {kind!r:.40}")
    if kind in ("dict", "mappingproxy"):
        return make(_pairs(items))
    if not isinstance(items, list):
        raise CheckpointError(f"a {kind} that is not a list")
    return make([_decode(v) for v in items])


def _record(raw: dict[str, Any]) -> Any:
    name = raw["@"]
    cls = _records().get(name) if isinstance(name, str) else None
    if cls is None:
        raise CheckpointError(f"an unknown record {name!r:.80}")
    # the fields as the type has them now; built without __init__ (as ``copy.replace`` keeps a
    # frozen record's fields as given), the derived ones rebuilt after
    fields = {f.name for f in dataclasses.fields(cls)}
    given = set(raw) - {"@"}
    missing = fields - given - set(_DERIVED.get(cls, ()))
    if missing or given - fields:
        odd = sorted(missing)[:3] or sorted(given - fields)[:3]
        raise CheckpointError(f"{name}: fields not as the record has them: {', '.join(odd)}")
    obj: Any = object.__new__(cls)
    for f in fields:
        object.__setattr__(obj, f, _decode(raw[f]) if f in raw else None)
    rebuild = _REBUILD.get(cls)
    return rebuild(obj) if rebuild is not None else obj


def state_from_text(text: str | bytes) -> TableState:
    """The state a checkpoint's text holds; ``CheckpointError`` (one line) for a text that is
    not one, or is of another format, version or schema (module docstring)."""
    try:
        doc = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise CheckpointError(f"not JSON: {str(exc).splitlines()[0]:.80}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CheckpointError("not a feltguard state")
    if doc.get("version") != CHECKPOINT_VERSION or doc.get("schema") != schema():
        raise CheckpointError(f"an older format (version {doc.get('version')!r:.10}, schema "
                              f"{str(doc.get('schema'))[:12]}): this code keeps version "
                              f"{CHECKPOINT_VERSION}, schema {schema()[:12]}")
    try:
        state = _decode(doc.get("state"))
    except CheckpointError:
        raise
    except Exception as exc:
        # any failure of a damaged text is the answer: a hand's log the engine refuses to replay
        # is an IllegalAction (a ValueError); a field damaged into another value the engine does
        # not check on replay (a street's opener) fails wherever it is read (an IndexError)
        raise CheckpointError(f"a state that does not rebuild: {type(exc).__name__}: "
                              f"{' '.join(str(exc).split())[:100]}") from None
    if not isinstance(state, TableState):
        raise CheckpointError("the text holds no table state")
    try:  # a record read back with a field of the wrong kind: the core's own view finds it
        snapshot(state)
    except Exception as exc:  # any failure of a malformed state is the answer
        raise CheckpointError(f"a state the core cannot read: {type(exc).__name__}: "
                              f"{' '.join(str(exc).split())[:80]}") from None
    return state
