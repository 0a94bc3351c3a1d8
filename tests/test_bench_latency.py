"""bench.latency still measures what it says: every card frame timed on every path, in order."""

from __future__ import annotations

import logging

from bench.latency import floor, run


def test_every_frame_is_timed_at_the_socket_then_the_read_loop_then_the_handler() -> None:
    logging.getLogger("werkzeug").disabled = True
    times = run(cards=20, seed=3)
    assert len(times["led"]) >= 20
    assert {len(v) for v in times.values()} == {len(times["led"])}
    for sock, loop, handler in zip(times["socketio"], times["loop"], times["handler"], strict=True):
        assert 0 < sock <= loop <= handler


def test_the_floor_times_every_frame() -> None:
    times = floor(20)
    assert len(times) == 20
    assert all(t > 0 for t in times)


def test_under_gunicorn_every_frame_is_timed_too() -> None:
    """``--server gunicorn``: the table and the measuring loop inside gunicorn's one threaded
    worker, as ``feltguard run`` serves it."""
    times = run(cards=20, seed=3, server="gunicorn")
    assert len(times["led"]) >= 20
    assert {len(v) for v in times.values()} == {len(times["led"])}
    for sock, loop, handler in zip(times["socketio"], times["loop"], times["handler"], strict=True):
        assert 0 < sock <= loop <= handler
