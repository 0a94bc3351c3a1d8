"""The central service's web server: the cardroom's tables as the central store has them.

``/healthz`` (public: table ids and counts, nothing of a hand) says which tables the store
holds, up to which seq, how many deliveries came twice and were dropped, and any place where a
table's chain does not follow. The review of every table's hands is served beside it
(display/review.py) behind the surveillance login.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, jsonify
from werkzeug.serving import BaseWSGIServer, make_server

from controller.central_store import CentralStore

__all__ = ["CardroomServer", "cardroom_app", "serve_cardroom"]


def cardroom_app(store: CentralStore) -> Flask:
    app = Flask(__name__)

    @app.get("/healthz")
    def healthz() -> Response:
        return jsonify(tables=[{"table": t.table, "last_seq": t.last_seq, "events": t.events,
                                "duplicates_dropped": t.duplicates, "problems": list(t.problems)}
                               for t in store.tables()])

    return app


@dataclass
class CardroomServer:
    server: BaseWSGIServer
    thread: threading.Thread

    @property
    def url(self) -> str:
        return f"http://{self.server.host}:{self.server.server_port}"

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(5)


def serve_cardroom(store: CentralStore, host: str, port: int,
                   accounts_path: str | None = None, **_: Any) -> CardroomServer:
    server = make_server(host, port, cardroom_app(store), threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="cardroom-web", daemon=True)
    thread.start()
    return CardroomServer(server, thread)
