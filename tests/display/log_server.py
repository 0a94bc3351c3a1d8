"""A display server in its own process with DEBUG logging on the root logger, as `feltguard -v`
sets it (controller/cli/main.py: basicConfig at DEBUG, the server's loggers left at DEBUG too), for
the log-capture test. Reads the dealer token from $FELTGUARD_TEST_TOKEN, prints the bound port on
stdout, publishes one snapshot, and serves until its stdin closes; every log record goes to stderr.
"""

from __future__ import annotations

import logging
import os
import sys

from display.server import create_app, run_server
from tests.display.snapshots import short_hand


def main() -> None:
    logging.basicConfig(level=logging.DEBUG, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    app, live, publisher = create_app(dealer_token=os.environ["FELTGUARD_TEST_TOKEN"])
    handle = run_server(app, live, "127.0.0.1", 0)
    publisher.publish(short_hand()[2])
    print(handle.port, flush=True)
    sys.stdin.read()  # until the test closes our stdin
    handle.stop()


if __name__ == "__main__":
    main()
