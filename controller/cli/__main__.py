"""``python -m controller.cli``: the ``feltguard`` command without its console script."""

import sys

from controller.cli.main import main

sys.exit(main())
