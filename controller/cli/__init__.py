"""``feltguard``: the command line, one module per verb; ``main`` (``controller.cli.main``) adds
them and dispatches. ``controller.cli:main`` is the console script's entry point."""

from controller.cli.main import main

__all__ = ["main"]
