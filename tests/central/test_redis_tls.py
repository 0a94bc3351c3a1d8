"""The cardroom link over TLS with least privilege, against a real redis-server serving TLS only
with the cardroom's ACL (``feltguard surveillance acl``) and certificates of the test's own
authority (controller/security/tls.py): each table's user may add to its own stream only, the
surveillance user may read and trim but never write, the default user is off; a relay and a
collector carry a table's journal seq for seq; mutual TLS; a wrong password, a wrong CA,
another table's credentials each said in one line while the table journals on; an entry relayed
as another table refused; and the configuration's refusals, each naming the key."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from controller.cli import main
from controller.config import ConfigError, from_mapping
from controller.events import iter_scenario
from controller.security.tls import init_folder, issue_client
from controller.surveillance.access import AccessError, RedisAccess
from controller.surveillance.acl import password_file_name, write_cardroom
from controller.surveillance.central_store import CentralStore
from controller.surveillance.collector import Collector
from controller.surveillance.redis_link import connect
from controller.surveillance.relay import Relay
from controller.surveillance.streams import TABLES, stream_key
from tests.central.servers import REDIS_SERVER, RedisServer, RedisTls, needs_redis
from tests.central.test_relay import SCENARIOS, in_store, journal_with, journaled, wait_for


@dataclass
class Cardroom:
    server: RedisServer
    pki: Path
    acl: Path

    def access(self, user: str, *, password_user: str | None = None, ca: Path | None = None,
               client: str | None = None) -> RedisAccess:
        """A login as ``user`` with the password of ``password_user`` (default its own)."""
        cert = key = ""
        if client:
            cert = str(self.pki / f"client-{client}.pem")
            key = str(self.pki / f"client-{client}.key")
        password_file = self.acl / password_file_name(password_user or user)
        return RedisAccess(self.server.url, user=user, password_file=str(password_file),
                           ca_file=str(ca or self.pki / "ca.pem"), cert_file=cert, key_file=key)


def _cardroom(tmp_path: Path, auth_clients: str) -> Iterator[Cardroom]:
    if REDIS_SERVER is None:
        pytest.skip("redis-server is missing: apt-get install redis-server to run the cardroom "
                    "tests")
    pki = tmp_path / "pki"
    init_folder(pki, hosts=["127.0.0.1", "localhost"], name="cardroom")
    for name in ("t1", "admin"):
        issue_client(pki, name)
    write_cardroom(["t1", "t2"], tmp_path / "acl")
    (tmp_path / "redis").mkdir()
    server = RedisServer(tmp_path / "redis", tls=RedisTls(
        pki / "server.pem", pki / "server.key", pki / "ca.pem", auth_clients=auth_clients,
        aclfile=tmp_path / "acl" / "users.acl", admin_cert=pki / "client-admin.pem",
        admin_key=pki / "client-admin.key")).start()
    try:
        yield Cardroom(server, pki, tmp_path / "acl")
    finally:
        server.stop()


@pytest.fixture
def cardroom(tmp_path: Path) -> Iterator[Cardroom]:
    yield from _cardroom(tmp_path, "optional")


@pytest.fixture
def mutual(tmp_path: Path) -> Iterator[Cardroom]:
    yield from _cardroom(tmp_path, "yes")


@needs_redis
def test_each_user_may_do_what_it_needs_and_nothing_more(cardroom: Cardroom) -> None:
    t1 = connect(cardroom.access("table-t1"))
    t2 = connect(cardroom.access("table-t2"))
    surveillance = connect(cardroom.access("surveillance"))
    try:
        # a table: its own stream and the set of tables, nothing else
        assert t1.xadd(stream_key("t1"), {"seq": 1, "table": "t1"}, id="0-1") == b"0-1"
        assert t1.xinfo_stream(stream_key("t1"))["last-generated-id"] == b"0-1"
        assert t1.sadd(TABLES, "t1") == 1
        t2.xadd(stream_key("t2"), {"seq": 1, "table": "t2"}, id="0-1")
        for refused in (lambda: t1.xadd(stream_key("t2"), {"seq": 2}, id="0-2"),
                        lambda: t1.xinfo_stream(stream_key("t2")),
                        lambda: t1.xread({stream_key("t2"): "0-0"}),
                        lambda: t1.xread({stream_key("t1"): "0-0"}),  # not even its own entries
                        lambda: t1.xtrim(stream_key("t1"), minid="0-2"),
                        lambda: t1.smembers(TABLES),
                        lambda: t1.sadd(stream_key("t3"), "x"),
                        lambda: t1.set("anything", 1)):
            with pytest.raises(redis.exceptions.NoPermissionError):
                refused()
        # the surveillance service: reads and trims, never writes an entry
        assert surveillance.smembers(TABLES) == {b"t1"}
        assert len(surveillance.xread({stream_key("t1"): "0-0", stream_key("t2"): "0-0"})) == 2
        assert surveillance.xtrim(stream_key("t2"), minid="0-2", approximate=False) == 1
        for refused in (lambda: surveillance.xadd(stream_key("t1"), {"seq": 2}, id="0-2"),
                        lambda: surveillance.sadd(TABLES, "t9"),
                        lambda: surveillance.set("anything", 1)):
            with pytest.raises(redis.exceptions.NoPermissionError):
                refused()
        # the default user is off: a client that does not log in can do nothing
        anonymous = connect(RedisAccess(cardroom.server.url, ca_file=str(cardroom.pki / "ca.pem")))
        with pytest.raises(redis.AuthenticationError):
            anonymous.ping()
        anonymous.close()
    finally:
        for c in (t1, t2, surveillance):
            c.close()


@needs_redis
def test_a_relay_and_a_collector_over_tls_carry_the_journal_seq_for_seq(tmp_path: Path,
                                                                         cardroom: Cardroom):
    path = tmp_path / "t1.sqlite"
    journal_with(path).close()
    want = journaled(path)
    store = CentralStore(tmp_path / "central.sqlite")
    collector = Collector(cardroom.access("surveillance"), store, block_ms=100).start()
    relay = Relay(path, cardroom.access("table-t1"), "t1", backoff=(0.05, 0.2)).start()
    try:
        assert wait_for(lambda: in_store(store, "t1") == want), relay.status().error
    finally:
        relay.stop()
        collector.stop()
    assert relay.status().error == "" and collector.status().error == ""
    info = cardroom.server.admin().xinfo_stream(stream_key("t1"))
    assert info["entries-added"] == len(want) and info["length"] == 0
    [summary] = store.tables()
    assert summary.events == len(want) and summary.problems == ()


@needs_redis
def test_mutual_tls_refuses_a_relay_without_a_client_certificate(tmp_path: Path,
                                                                  mutual: Cardroom) -> None:
    path = tmp_path / "t1.sqlite"
    journal_with(path).close()
    last = journaled(path)[-1][0]
    relay = Relay(path, mutual.access("table-t1"), "t1", backoff=(0.05, 0.2)).start()
    try:
        assert wait_for(lambda: relay.status().error != "", 10)
        error = relay.status().error
    finally:
        relay.stop()
    assert "\n" not in error and not relay.status().connected
    assert "client certificate" in error or "central.tls_cert" in error, error
    relay = Relay(path, mutual.access("table-t1", client="t1"), "t1", backoff=(0.05, 0.2)).start()
    try:
        assert wait_for(lambda: relay.status().forwarded == last), relay.status().error
    finally:
        relay.stop()


def _refused(tmp_path: Path, cardroom: Cardroom, case: str) -> RedisAccess:
    if case == "wrong password":
        bad = tmp_path / "bad.password"
        bad.write_text("not-the-password\n")
        bad.chmod(0o600)
        good = cardroom.access("table-t1")
        return RedisAccess(good.url, user="table-t1", password_file=str(bad),
                           ca_file=good.ca_file)
    if case == "wrong CA":
        init_folder(tmp_path / "other-pki", hosts=["127.0.0.1"], name="elsewhere")
        return cardroom.access("table-t1", ca=tmp_path / "other-pki" / "ca.pem")
    return cardroom.access("table-t2")  # another table's credentials, at table t1


@needs_redis
@pytest.mark.parametrize(("case", "said"), [
    ("wrong password", "refused the login of user table-t1 (central.user, "
                       "central.password_file)"),
    ("wrong CA", "does not verify against central.ca_file"),
    ("another table's credentials", "user table-t2 may not read stream feltguard:events:t1"),
])
def test_a_refused_link_is_one_line_and_the_table_journals_on(tmp_path: Path, cardroom: Cardroom,
                                                              caplog, case: str,
                                                              said: str) -> None:
    caplog.set_level(logging.INFO)
    path = tmp_path / "t1.sqlite"
    journal = journal_with(path)
    relay = Relay(path, _refused(tmp_path, cardroom, case), "t1", backoff=(0.05, 0.1)).start()
    try:
        assert wait_for(lambda: relay.status().error != "", 10)
        last = journal.last_seq
        for n, event in enumerate(iter_scenario(SCENARIOS / "flop_premature.jsonl"), 1):
            journal.append(type(event)(**{**event.__dict__, "seq": last + n}))
            relay.poke()
        assert journal.last_seq == 2 * last  # the table deals on
        status = relay.status()
    finally:
        relay.stop()
        journal.close()
    assert not status.connected and status.forwarded == 0
    assert said in status.error and "\n" not in status.error, status.error
    if case == "another table's credentials":
        assert "central.table is t1: the user for it is table-t1" in status.error
    lines = [r.getMessage() for r in caplog.records if said in r.getMessage()]
    assert len(lines) == 1, lines  # said once, however many retries
    passwords = [p.read_text().strip() for p in cardroom.acl.glob("*.password")]
    assert not any(p in caplog.text or p in status.error for p in passwords)
    assert cardroom.server.admin().exists(stream_key("t1")) == 0


@needs_redis
def test_an_entry_relayed_as_another_table_is_refused_once(tmp_path: Path, redis_server,
                                                           caplog) -> None:
    caplog.set_level(logging.WARNING)
    path = tmp_path / "t2.sqlite"
    journal_with(path).close()
    last = journaled(path)[-1][0]
    # an ACL set wrong: table t2's relay, configured as table t1, writes t1's stream
    relay = Relay(path, RedisAccess(redis_server.url, user="table-t2"), "t1").start()
    assert wait_for(lambda: relay.status().forwarded == last)
    relay.stop()
    store = CentralStore(tmp_path / "central.sqlite")
    for _ in range(2):  # a restarted collector does not record it again
        collector = Collector(redis_server.url, store, block_ms=100).start()
        assert wait_for(lambda: redis.Redis.from_url(redis_server.url).xlen(stream_key("t1")) == 0)
        collector.stop()
    [summary] = store.tables()
    assert summary.table == "t1" and summary.events == 0
    assert summary.problems == ("entries relayed as table t2 refused (not stored), first at seq "
                                "1: a table's [central] user or table, or the cardroom's ACL, "
                                "is set wrong",)
    assert collector.status().refused == 0  # (the second found them trimmed)
    assert sum("relayed as table t2" in r.getMessage() for r in caplog.records) == 1


# --- the settings: the configuration, config check and the command lines --------------------


@pytest.mark.parametrize(("central", "said"), [
    ({"url": "rediss://:s3cret@redis.example:6380/0", "ca_file": "ca.pem"},
     "central.url: holds a user or password (rediss://***@redis.example:6380/0)"),
    ({"url": "redis://table-t1:s3cret@127.0.0.1/0"}, "central.url: holds a user or password"),
    ({"url": "redis://10.0.0.5:6379/0"},
     "central.url: plain redis:// to 10.0.0.5: TLS is required off this machine"),
    ({"url": "rediss://redis.example:6380/0?ssl_cert_reqs=none", "ca_file": "ca.pem"},
     "central.url: the option ?ssl_cert_reqs= is not taken"),
    ({"url": "rediss://redis.example:6380/0"}, "central.ca_file: needed with a rediss:// URL"),
    ({"url": "rediss://redis.example:6380/0", "ca_file": "ca.pem", "tls_cert": "c.pem"},
     "central.tls_key: needed with central.tls_cert"),
])
def test_the_configuration_refuses_a_bad_central_section(central, said) -> None:
    with pytest.raises(ConfigError) as err:
        from_mapping({"central": {"table": "t1", **central}})
    assert str(err.value).startswith(said) and "s3cret" not in str(err.value)


def test_plain_redis_stays_allowed_on_this_machine() -> None:
    for url in ("redis://127.0.0.1:6379/0", "redis://localhost/0", "redis://[::1]:6379/0",
                "unix:///run/redis/redis.sock?db=0"):
        config = from_mapping({"central": {"url": url, "table": "t1"}})
        assert config.central_access().user == "table-t1"


def _config(tmp_path: Path, **central: str) -> Path:
    lines = "".join(f'{k} = "{v}"\n' for k, v in central.items())
    path = tmp_path / "table.toml"
    path.write_text(f'[leds]\nenabled = false\n[display]\nport = 0\n'
                    f'[central]\ntable = "t1"\n{lines}')
    return path


def test_config_check_names_a_password_file_others_may_read(tmp_path: Path, capsys) -> None:
    pki = tmp_path / "pki"
    init_folder(pki, hosts=["127.0.0.1"], name="cardroom")
    pw = tmp_path / "table-t1.password"
    pw.write_text("s3cret\n")
    pw.chmod(0o644)
    config = _config(tmp_path, url="rediss://127.0.0.1:6380/0", ca_file=str(pki / "ca.pem"),
                     password_file=str(pw))
    assert main(["config", "check", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith(f"central.password_file: {pw} may be read by group or others (mode "
                        "0644): chmod 600 it") and "\n" not in err and "s3cret" not in err
    pw.chmod(0o600)
    assert main(["config", "check", str(config)]) == 0
    assert "warning" not in capsys.readouterr().out
    # a user not the table's own: a warning in one line, not a refusal
    config = _config(tmp_path, url="rediss://127.0.0.1:6380/0", ca_file=str(pki / "ca.pem"),
                     password_file=str(pw), user="table-t2")
    assert main(["config", "check", str(config)]) == 0
    [warning] = [line for line in capsys.readouterr().out.splitlines() if "warning" in line]
    assert "central.user 'table-t2' is not 'table-t1'" in warning
    # a CA that is not there
    config = _config(tmp_path, url="rediss://127.0.0.1:6380/0", ca_file=str(tmp_path / "no.pem"))
    assert main(["config", "check", str(config)]) == 2
    assert "central.ca_file: " in capsys.readouterr().err


def test_the_surveillance_options_are_checked_in_one_line(tmp_path: Path, capsys) -> None:
    store = str(tmp_path / "central.sqlite")
    for argv, said in (
            (["--redis", "redis://u:s3cret@127.0.0.1/0"], "--redis: holds a user or password"),
            (["--redis", "redis://cardroom.example/0"], "--redis: plain redis:// to "
                                                        "cardroom.example: TLS is required"),
            (["--redis", "rediss://127.0.0.1:6380/0", "--redis-ca", str(tmp_path / "no.pem")],
             f"--redis-ca: {tmp_path / 'no.pem'}: no such file"),
            (["--redis", "redis://127.0.0.1/0", "--redis-password-file", str(tmp_path / "pw")],
             f"--redis-password-file: {tmp_path / 'pw'}: no such file")):
        assert main(["surveillance", "--store", store, "--no-web", *argv]) == 2
        err = capsys.readouterr().err.strip()
        assert said in err and "\n" not in err and "s3cret" not in err, err


def test_the_acl_command_writes_hashes_and_0600_password_files(tmp_path: Path, capsys) -> None:
    out = tmp_path / "acl"
    assert main(["surveillance", "acl", "--tables", "t1", "t2", "--out", str(out)]) == 0
    acl = (out / "users.acl").read_text()
    assert acl.splitlines()[0] == "user default off resetkeys resetchannels -@all"
    for user in ("surveillance", "table-t1", "table-t2"):
        password = (out / f"{user}.password").read_text().strip()
        assert password not in acl and f"user {user} on #" in acl
        assert os.stat(out / f"{user}.password").st_mode & 0o777 == 0o600
    assert os.stat(out / "users.acl").st_mode & 0o777 == 0o600
    capsys.readouterr()
    # never over a cardroom's passwords already handed out
    assert main(["surveillance", "acl", "--tables", "t1", "--out", str(out)]) == 2
    assert "already there" in capsys.readouterr().err
    with pytest.raises(AccessError, match=r"central.password_file: .* no such file"):
        RedisAccess("redis://127.0.0.1/0", user="table-t1",
                    password_file=str(tmp_path / "none")).check_files()
