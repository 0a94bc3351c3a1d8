"""The simulator harness as the firmware tests drive it: ``feltguard-reader-sim`` (hardware/
firmware/sim/sim.c) in a subprocess running the real firmware.elf, its pty on the first line
of its stdout, one command a line on its stdin, one answer line each."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from types import TracebackType


class Harness:
    """A running simulated reader board (``role`` shoe, felt or chip) with its PN5180 model."""

    def __init__(self, build: Path, role: str, link: Path | None = None) -> None:
        args = [str(build / "feltguard-reader-sim"), str(build / "firmware.elf"), "--role", role]
        if link is not None:
            args += ["--link", str(link)]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        assert self.proc.stdout is not None
        self.pty = self.proc.stdout.readline().strip()
        if not self.pty.startswith("/dev/"):
            self.close()
            raise RuntimeError(f"the harness did not start: {self.pty!r}")
        self.link = str(link) if link is not None else self.pty

    def send(self, command: str) -> str:
        """One command; its one answer line (``ok ...`` or ``error: ...``)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def ok(self, command: str) -> str:
        answer = self.send(command)
        assert answer.startswith("ok"), f"{command!r}: {answer!r}"
        return answer

    def stats(self) -> dict[str, str]:
        return dict(word.split("=", 1) for word in self.ok("stats").split()[1:])

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.close()  # the harness exits when its stdin closes
                self.proc.wait(5)
            except (subprocess.TimeoutExpired, OSError, BrokenPipeError):
                self.proc.kill()
                self.proc.wait(5)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        if self.link != self.pty and os.path.islink(self.link):
            os.unlink(self.link)

    def __enter__(self) -> Harness:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
