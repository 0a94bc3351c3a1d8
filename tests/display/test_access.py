"""display/access.py on its own: the token check, the login rate limit, login sessions and their
cookie values, and the token file (mode 0600) the shell points the operator to."""

from __future__ import annotations

import os
import stat
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from display.access import (
    DEFAULT_SESSION_LIFETIME,
    TOKEN_FILE_NAME,
    Identity,
    LoginLimiter,
    Logins,
    token_authenticator,
    write_token_file,
)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# --- the credential check ------------------------------------------------------------------


def test_the_token_admits_the_dealer() -> None:
    authenticate = token_authenticator("s3cret")
    assert authenticate({"token": "s3cret"}) == Identity("dealer", "dealer")


@pytest.mark.parametrize(
    "credentials",
    [{}, {"token": "wrong"}, {"token": ""}, {"token": "s3cre"}, {"token": "s3cret "},
     {"token": 42}, {"token": None}, {"token": ["s3cret"]}, {"token": "s3crét"},
     {"token": "\ud800"}, {"password": "s3cret"}],
)
def test_anything_else_is_refused(credentials: dict[str, Any]) -> None:
    assert token_authenticator("s3cret")(credentials) is None


def test_a_credential_that_is_not_a_mapping_is_refused() -> None:
    authenticate = token_authenticator("s3cret")
    for junk in (None, "s3cret", ["s3cret"], 42):
        assert authenticate(junk) is None  # type: ignore[arg-type]


def test_a_non_ascii_token_works() -> None:
    assert token_authenticator("jetón-ñ")({"token": "jetón-ñ"}) is not None


@given(st.dictionaries(st.text(max_size=8), st.one_of(st.text(), st.integers(), st.none())))
def test_the_check_never_raises(credentials: dict[str, Any]) -> None:
    result = token_authenticator("s3cret")(credentials)
    assert result is None or credentials.get("token") == "s3cret"


def test_an_empty_token_is_refused_at_set_up() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        token_authenticator("")


# --- the login rate limit ------------------------------------------------------------------


def test_five_failures_a_minute_then_refused_until_the_oldest_is_a_minute_old() -> None:
    clock = Clock()
    limiter = LoginLimiter(clock=clock)
    for _ in range(4):
        limiter.failed("10.0.0.1")
        clock.now += 1
    assert limiter.retry_after("10.0.0.1") == 0.0  # four failures: may still try
    limiter.failed("10.0.0.1")  # the fifth, 4 s after the first
    assert limiter.retry_after("10.0.0.1") == pytest.approx(56.0)
    clock.now += 55.5
    assert limiter.retry_after("10.0.0.1") == pytest.approx(0.5)
    clock.now += 0.5
    assert limiter.retry_after("10.0.0.1") == 0.0  # the first failure left the window


def test_addresses_are_limited_separately() -> None:
    limiter = LoginLimiter(max_failures=2, clock=Clock())
    limiter.failed("10.0.0.1")
    limiter.failed("10.0.0.1")
    assert limiter.retry_after("10.0.0.1") > 0
    assert limiter.retry_after("10.0.0.2") == 0.0


def test_a_success_forgets_the_failures() -> None:
    limiter = LoginLimiter(max_failures=2, clock=Clock())
    limiter.failed("10.0.0.1")
    limiter.succeeded("10.0.0.1")
    limiter.failed("10.0.0.1")
    assert limiter.retry_after("10.0.0.1") == 0.0


def test_the_limiter_remembers_a_bounded_number_of_addresses() -> None:
    clock = Clock()
    limiter = LoginLimiter(max_failures=1, max_clients=3, clock=clock)
    for i in range(10):
        limiter.failed(f"10.0.0.{i}")
    assert len(limiter._failures) == 3
    assert limiter.retry_after("10.0.0.9") > 0  # the most recent are kept
    assert limiter.retry_after("10.0.0.0") == 0.0
    clock.now += 61
    assert limiter.retry_after("10.0.0.9") == 0.0 and len(limiter._failures) == 2


# --- login sessions --------------------------------------------------------------------------

DEALER = Identity("dealer", "dealer")


def test_a_login_is_admitted_until_it_expires() -> None:
    clock = Clock()
    logins = Logins(timedelta(hours=12), clock=clock)
    login, cookie = logins.open(DEALER)
    assert logins.check(cookie) == login and login.identity == DEALER
    assert cookie != login.id  # the cookie is the signed id, not the bare one
    clock.now += 12 * 3600 - 1
    assert logins.check(cookie) == login
    assert logins.remaining(login) == pytest.approx(1.0)
    clock.now += 1
    assert logins.check(cookie) is None
    assert logins.max_age == 43200


def test_the_default_lifetime_is_a_shift() -> None:
    assert timedelta(hours=12) == DEFAULT_SESSION_LIFETIME
    assert Logins().max_age == 12 * 3600


def test_a_closed_login_is_refused_even_with_its_cookie() -> None:
    logins = Logins(clock=Clock())
    login, cookie = logins.open(DEALER)
    other, other_cookie = logins.open(DEALER)
    assert logins.close(cookie) == login
    assert logins.check(cookie) is None  # a copy of the cookie dies with the logout
    assert logins.close(cookie) is None
    assert logins.check(other_cookie) == other  # another screen's login stays open


@pytest.mark.parametrize("cookie", [None, "", "garbage", "a.b.c", "IlhYIg.awZp.xxxx"])
def test_forged_cookies_are_refused(cookie: str | None) -> None:
    logins = Logins(clock=Clock())
    logins.open(DEALER)
    assert logins.check(cookie) is None
    assert logins.close(cookie) is None


def test_a_tampered_cookie_is_refused() -> None:
    logins = Logins(clock=Clock())
    _, cookie = logins.open(DEALER)
    # Change a character inside the signature: every bit of it is data. (The last character
    # of unpadded base64 also holds padding bits, so changing it can leave the bytes the same:
    # this test failed now and then when it changed the last one.)
    i = len(cookie) - 10
    tampered = cookie[:i] + ("A" if cookie[i] != "A" else "g") + cookie[i + 1:]
    assert tampered != cookie
    assert logins.check(tampered) is None


def test_another_process_cookie_is_refused() -> None:
    # Each process signs with its own random key: a restart logs every screen out.
    _, cookie = Logins(clock=Clock()).open(DEALER)
    assert Logins(clock=Clock()).check(cookie) is None


def test_expired_logins_are_dropped_from_memory() -> None:
    clock = Clock()
    logins = Logins(timedelta(seconds=10), clock=clock)
    for _ in range(5):
        logins.open(DEALER)
    clock.now += 11
    logins.open(DEALER)
    assert len(logins._open) == 1


def test_a_lifetime_under_a_second_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one second"):
        Logins(timedelta(milliseconds=500))


# --- the token file --------------------------------------------------------------------------


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_token_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    old = os.umask(0)  # the mode must not depend on a permissive umask
    try:
        path = write_token_file("s3cret", tmp_path / "dealer-token")
    finally:
        os.umask(old)
    assert path == tmp_path / "dealer-token"
    assert path.read_text() == "s3cret\n"
    assert mode(path) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["dealer-token"]  # no temporary left over


def test_the_token_file_replaces_an_old_one_and_its_looser_mode(tmp_path: Path) -> None:
    path = tmp_path / "dealer-token"
    path.write_text("old\n")
    path.chmod(0o644)
    write_token_file("new", path)
    assert path.read_text() == "new\n" and mode(path) == 0o600


def test_the_token_file_replaces_a_planted_symlink_without_following_it(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep\n")
    link = tmp_path / "dealer-token"
    link.symlink_to(victim)
    write_token_file("s3cret", link)
    assert victim.read_text() == "keep\n"
    assert not link.is_symlink() and link.read_text() == "s3cret\n" and mode(link) == 0o600


def test_by_default_the_token_file_is_in_a_fresh_private_directory() -> None:
    path = write_token_file("s3cret")
    try:
        assert path.name == TOKEN_FILE_NAME
        assert mode(path) == 0o600 and mode(path.parent) == 0o700
        assert path.read_text() == "s3cret\n"
    finally:
        path.unlink()
        path.parent.rmdir()


def test_an_empty_token_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="non-empty"):
        write_token_file("", tmp_path / "t")
    assert list(tmp_path.iterdir()) == []
