"""One state to many screens through python-socketio's own extension points.

Each piece plugs into ``socketio.AsyncServer`` where its documentation says one may: a client
manager (``client_manager=``) and a packet class (``serializer=``) with its JSON module. The
Socket.IO and Engine.IO packets stay python-socketio's and python-engineio's encoding; only the
last step, the WebSocket frame to an idle screen, may be ``DirectFrames``' (below).

- ``FanOutManager``: python-socketio's ``AsyncManager.emit`` encodes a packet once for a whole
  room, then makes one asyncio task per client to put it into that client's queue and waits for
  them all. With 22 screens that is 22 tasks to make and run before the first screen's writer
  can. Here, without an acknowledgement callback, the one encoded packet is
  put into every client's queue in turn, in the emit's own turn of the loop. Each client's
  Engine.IO writer then sends it as before; a client that cannot take it (gone, timed out) is
  counted and skipped, never stops the others. With a callback the upstream path is kept:
  each client then needs a packet of its own. Given a ``DirectFrames``
  (display/direct_frames.py), the packet is framed once and written straight to every idle
  WebSocket connection instead; the others get it through their queue as above.
- ``JsonPacket`` (python-socketio's ``serializer=``): Socket.IO packets that never carry binary
  attachments. A payload is built from a JSON snapshot and never holds bytes, so the scan the
  default packet makes of every emitted payload, walking each value in Python to find bytes to
  send as attachments, is skipped: it was a third of an emit's time (bench/latency.py).
- ``orjson_json``: orjson for those packets' JSON (``JsonPacket.json``; the broadcast's delay
  line keeps its states as this text too). The standard library's ``json.dumps`` of the three
  payloads was about an eighth of the loop's sampled work per state. The text is the standard
  library's compact form for what the views send (keys that are not strings become strings,
  as there), except that text outside ASCII is UTF-8, not escapes: the same JSON to any
  parser. What clients send is read by orjson too; a lone surrogate escape (``"\\ud800"``, which
  orjson refuses) is read as the standard library reads it, then made U+FFFD, so such a packet
  is answered (a dealer's connect with it is refused) instead of dropped unanswered.
"""

from __future__ import annotations

import json
import time
import types
from typing import Any

import orjson
import socketio
from engineio import packet as eio_packet
from socketio import packet as sio_packet

from display.direct_frames import DirectFrames

__all__ = ["FanOutManager", "JsonPacket", "orjson_json"]


class FanOutManager(socketio.AsyncManager):  # type: ignore[misc]
    """python-socketio's in-process client manager with a room emit that makes no task per
    client (module docstring)."""

    def __init__(self, direct: DirectFrames | None = None) -> None:
        super().__init__()
        self.direct = direct
        self.send_errors = 0  # clients skipped by an emit: gone or failed in between

    async def emit(self, event: str, data: Any, namespace: str, room: Any = None,
                   skip_sid: Any = None, callback: Any = None, to: Any = None,
                   **kwargs: Any) -> None:
        if callback is not None:  # each client needs its own ack id: upstream's way
            await super().emit(event, data, namespace, room=room, skip_sid=skip_sid,
                               callback=callback, to=to, **kwargs)
            return
        room = to or room
        if namespace not in self.rooms:
            return
        # as upstream: a tuple is several arguments, None none, anything else one
        args = list(data) if isinstance(data, tuple) else [] if data is None else [data]
        skip = set(skip_sid) if isinstance(skip_sid, list) else {skip_sid}
        encoded = self.server.packet_class(sio_packet.EVENT, namespace=namespace,
                                           data=[event, *args]).encode()
        texts = encoded if isinstance(encoded, list) else [encoded]
        packets = [eio_packet.Packet(eio_packet.MESSAGE, p) for p in texts]
        direct = self.direct
        # one frame for every idle connection; JsonPacket's are always one text
        frame = (direct.frame(texts[0]) if direct is not None and len(texts) == 1
                 and isinstance(texts[0], str) else None)
        now = time.time()  # python-engineio's ping clock, read once for every screen
        # get_participants copies the room, so a client leaving mid-emit changes nothing here
        for sid, eio_sid in self.get_participants(namespace, room):
            if sid in skip:
                continue
            try:
                if frame is not None and direct is not None:
                    # idle and answering pings: written now, with no coroutine per screen
                    done = direct.write_now(eio_sid, frame, now)
                    if done or (done is None and await direct.write(eio_sid, frame)):
                        continue
                for p in packets:
                    # Engine.IO's send: a time-out check, then an unbounded queue's put, so it
                    # does not give the loop up between clients
                    await self.server.eio.send_packet(eio_sid, p)
            except Exception:  # one client's failure is not the others'
                self.send_errors += 1


def _dumps(obj: Any, **_: Any) -> str:
    # python-socketio asks for separators=(",", ":"): orjson's only form
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


def _no_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        # the standard library joins escaped pairs, so any surrogate left is a lone one
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    if isinstance(value, list):
        return [_no_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {_no_surrogates(k): _no_surrogates(v) for k, v in value.items()}
    return value


def _loads(text: str | bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        # A lone surrogate escape is JSON but not Unicode: orjson refuses it, and a packet that
        # does not decode is dropped unanswered (a connect then waits out its client's timeout).
        # Invalid JSON still raises here.
        return _no_surrogates(json.loads(text))


orjson_json = types.SimpleNamespace(dumps=_dumps, loads=_loads)


class JsonPacket(sio_packet.Packet):  # type: ignore[misc]
    """Socket.IO packets of JSON text only, never binary attachments (module docstring)."""

    uses_binary_events = False
    json = orjson_json
