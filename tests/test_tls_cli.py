"""``feltguard tls`` and the certificate checks of ``config check`` and ``run``: the files and
their modes, the fingerprint printed, a renewal from the same authority (loaded by a running
server without a restart), and every bad certificate refused in one line before anything is
written."""

from __future__ import annotations

import datetime as dt
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli.main import main as feltguard
from controller.security import tls
from tests.run_harness import free_port, table_config

REPO = Path(__file__).resolve().parent.parent


def _config(tmp_path: Path, display: str = "") -> Path:
    return table_config(tmp_path, display=f"port = {free_port()}\n{display}")


def test_init_writes_keys_0600_and_prints_the_authoritys_fingerprint(tmp_path, capsys):
    assert feltguard(["tls", "init", "--dir", str(tmp_path / "t"), "--host", "table.local",
                      "--host", "10.1.2.3"]) == 0
    out = capsys.readouterr().out
    folder = tls.TlsFolder(tmp_path / "t")
    fingerprint = tls.fingerprint(tls.load_cert(folder.ca_cert))
    assert f"SHA-256  {fingerprint}" in out and "for      table.local, 10.1.2.3" in out
    for key in (folder.ca_key, folder.server_key):
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.path.stat().st_mode) == 0o700
    # once: a second init would strand every tablet that trusts the first authority
    assert feltguard(["tls", "init", "--dir", str(folder.path)]) == 2
    assert "an authority is already there" in capsys.readouterr().err


def test_renew_keeps_the_authority_and_the_names(tmp_path, capsys):
    folder = tls.init_folder(tmp_path / "t", hosts=["table.local"]).folder
    before = folder.server_cert.read_bytes()
    ca = folder.ca_cert.read_bytes()
    assert feltguard(["tls", "renew", "--dir", str(folder.path)]) == 0
    assert folder.server_cert.read_bytes() != before and folder.ca_cert.read_bytes() == ca
    status = tls.check_pair(folder.server_cert, folder.server_key, ca_path=folder.ca_cert)
    assert status.hosts == ("table.local",)
    assert feltguard(["tls", "client", "relay-t1", "--dir", str(folder.path)]) == 0
    assert stat.S_IMODE(folder.client_key("relay-t1").stat().st_mode) == 0o600
    assert feltguard(["tls", "show", "--dir", str(folder.path)]) == 0
    assert "server     " in capsys.readouterr().out


def test_a_running_server_loads_a_renewed_certificate_without_a_restart(tmp_path):
    folder = tls.init_folder(tmp_path / "t", hosts=["localhost"]).folder
    served = tls.ServedCert(folder.server_cert, folder.server_key)
    first = served.status()["fingerprint"]
    tls.renew_server(folder.path)
    os.utime(folder.server_cert, (1, 2**31))  # (a renewal within the same mtime tick)
    assert served.status()["fingerprint"] != first
    # a renewal that does not check out is not loaded; the one served goes on
    folder.server_key.write_text("garbage")
    os.utime(folder.server_key, (1, 2**31 + 1))
    got = served.status()
    assert got["warning"] and "not loaded" in str(got["warning"])
    assert "/" not in str(got["warning"])  # /healthz is public: no path


def _expired(tmp_path: Path) -> tls.TlsFolder:
    return tls.init_folder(tmp_path / "tls", hosts=["localhost"],
                           now=dt.datetime.now(dt.UTC) - dt.timedelta(days=800)).folder


def _other_key(tmp_path: Path) -> tls.TlsFolder:
    folder = tls.init_folder(tmp_path / "tls", hosts=["localhost"]).folder
    other = tls.init_folder(tmp_path / "other", hosts=["localhost"]).folder
    folder.server_key.write_bytes(other.server_key.read_bytes())
    return folder


def _unreadable(tmp_path: Path) -> tls.TlsFolder:
    folder = tls.init_folder(tmp_path / "tls", hosts=["localhost"]).folder
    folder.server_cert.write_text("-----BEGIN CERTIFICATE-----\nnope\n")
    return folder


@pytest.mark.parametrize(("make", "said"), [
    (None, "no such certificate file; make it with: feltguard tls init --config"),
    (_expired, "expired on"),
    (_other_key, "a mismatched pair"),
    (_unreadable, "not a PEM certificate"),
])
def test_run_refuses_a_bad_certificate_in_one_line_and_writes_nothing(tmp_path, make, said):
    config = _config(tmp_path)
    if make is not None:
        make(tmp_path)
    before = set(tmp_path.iterdir())
    check = subprocess.run([sys.executable, "-m", "controller.cli", "config", "check",
                            str(config)], cwd=tmp_path, capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60)
    run = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
                         cwd=tmp_path, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                         env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60)
    for proc in (check, run):
        assert proc.returncode == 2
        [line] = proc.stderr.splitlines()
        assert "display.tls_cert" in line and said in line, line
    assert set(tmp_path.iterdir()) == before  # no token, no audit log, no journal


def test_config_check_warns_thirty_days_before_the_certificate_expires(tmp_path, capsys):
    config = _config(tmp_path)
    tls.init_folder(tmp_path / "tls", hosts=["localhost"],
                    now=dt.datetime.now(dt.UTC) - dt.timedelta(days=tls.LEAF_DAYS - 20))
    assert feltguard(["config", "check", str(config)]) == 0
    out = capsys.readouterr().out
    assert "WARNING: " in out and "expires in 19 days" in out and "feltguard tls renew" in out


def test_plain_http_is_only_for_a_loopback_host(tmp_path, capsys):
    config = _config(tmp_path, 'tls = false\nhost = "0.0.0.0"')
    assert feltguard(["config", "check", str(config)]) == 2
    assert "display.tls: false serves plain HTTP" in capsys.readouterr().err
    config = _config(tmp_path, 'tls = false\nhost = "127.0.0.1"')
    assert feltguard(["config", "check", str(config)]) == 0
    assert "plain HTTP on this machine only" in capsys.readouterr().out


def test_a_client_ca_that_is_not_a_certificate_is_named(tmp_path, capsys):
    tls.init_folder(tmp_path / "tls", hosts=["localhost"])
    (tmp_path / "ca.txt").write_text("nope")
    config = _config(tmp_path, f'client_ca = "{tmp_path / "ca.txt"}"')
    assert feltguard(["config", "check", str(config)]) == 2
    assert "display.client_ca: " in capsys.readouterr().err
