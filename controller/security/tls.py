"""The table's certificates: a certificate authority of its own (or the cardroom's), the server
certificate its pages are served with, client certificates for mutual TLS, and the checks that
``feltguard run``, ``feltguard config check`` and ``/healthz`` make of them.

Made with the ``cryptography`` library (no shelling out to openssl). Keys are ECDSA P-256: a
handshake costs a Raspberry Pi a fraction of what RSA-2048 would, and every browser and Redis
takes it. ``feltguard tls init`` writes, into one folder (docs/security.md, "TLS"):

- ``ca.pem`` / ``ca.key``: the authority, ten years. Its SHA-256 fingerprint is what a tablet's
  owner checks when they install ``ca.pem`` as trusted.
- ``server.pem`` / ``server.key``: the table's server certificate for its host names and
  addresses, 397 days (the longest a browser accepts of a public certificate; a house's own
  authority is held to the same so renewals stay routine). ``feltguard tls renew`` makes a new
  one with the same authority, so no tablet needs enrolling again.
- ``client-NAME.pem`` / ``.key`` (``feltguard tls client NAME``): a client certificate, for a
  surveillance screen or a relay where the cardroom requires one (mutual TLS).

Every key file is created 0600 (never readable by anyone but its owner, not even for an
instant: it is opened with that mode), optionally handed to the service user. Every problem is
a ``TlsError`` whose text is one line naming the file.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import logging
import os
import pwd
import socket
import ssl
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

__all__ = [
    "CA_DAYS",
    "LEAF_DAYS",
    "WARN_DAYS",
    "CertStatus",
    "ServedCert",
    "TlsError",
    "TlsFolder",
    "check_pair",
    "client_context",
    "default_hosts",
    "fingerprint",
    "init_folder",
    "issue_client",
    "renew_server",
    "server_context",
]

log = logging.getLogger(__name__)

CA_DAYS = 3650
LEAF_DAYS = 397
WARN_DAYS = 30  # /healthz and config check warn this long before a certificate expires


class TlsError(ValueError):
    """A certificate or key that cannot be used, said in one line naming the file."""


@dataclass(frozen=True)
class TlsFolder:
    """The files ``feltguard tls init`` writes into one folder."""

    path: Path

    @property
    def ca_cert(self) -> Path:
        return self.path / "ca.pem"

    @property
    def ca_key(self) -> Path:
        return self.path / "ca.key"

    @property
    def server_cert(self) -> Path:
        return self.path / "server.pem"

    @property
    def server_key(self) -> Path:
        return self.path / "server.key"

    def client_cert(self, name: str) -> Path:
        return self.path / f"client-{name}.pem"

    def client_key(self, name: str) -> Path:
        return self.path / f"client-{name}.key"


@dataclass(frozen=True)
class CertStatus:
    """What a check found of a usable certificate."""

    path: Path
    subject: str
    hosts: tuple[str, ...]
    not_after: dt.datetime
    fingerprint: str

    def days_left(self, now: dt.datetime | None = None) -> float:
        now = now or dt.datetime.now(dt.UTC)
        return (self.not_after - now).total_seconds() / 86400

    def warning(self, now: dt.datetime | None = None, warn_days: int = WARN_DAYS) -> str:
        """One line when the certificate expires within ``warn_days``, else ""."""
        left = self.days_left(now)
        if left > warn_days:
            return ""
        return (f"{self.path}: the certificate expires in {max(0, int(left))} days "
                f"({self.not_after:%Y-%m-%d}): renew it (feltguard tls renew)")


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def fingerprint(cert: x509.Certificate) -> str:
    """The certificate's SHA-256 fingerprint as browsers and ``openssl x509 -fingerprint``
    print it: colon-separated upper-case hex."""
    return ":".join(f"{b:02X}" for b in cert.fingerprint(hashes.SHA256()))


def default_hosts() -> list[str]:
    """The names and addresses a table is reached by when none are given: its host name, that
    name under ``.local`` (mDNS, as a tablet on the same Wi-Fi finds it), localhost, the
    loopback addresses, and each address the host name resolves to."""
    name = socket.gethostname()
    hosts = [name, f"{name}.local", "localhost", "127.0.0.1", "::1"]
    # the address the default route leaves by (a UDP socket "connected" to TEST-NET-1 learns
    # it; no packet is sent): what a tablet on the table's network types
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            hosts.append(str(probe.getsockname()[0]))
    except OSError:
        pass
    try:
        infos = socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)
    except OSError:
        infos = []
    for info in infos:
        hosts.append(str(info[4][0]).split("%")[0])
    return [h for h in dict.fromkeys(hosts) if not h.startswith("0.")]


def _san(hosts: Iterable[str]) -> x509.SubjectAlternativeName:
    names: list[x509.GeneralName] = []
    for host in dict.fromkeys(h.strip() for h in hosts if h.strip()):
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            try:
                names.append(x509.DNSName(host.encode("idna").decode("ascii")))
            except UnicodeError:
                raise TlsError(f"host {host!r}: not a host name or an address") from None
    if not names:
        raise TlsError("no host name or address for the server certificate")
    return x509.SubjectAlternativeName(names)


def _key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Feltguard"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common_name[:64])])


def make_ca(common_name: str, now: dt.datetime | None = None,
            days: int = CA_DAYS) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    """A new certificate authority that may sign leaf certificates only (path length 0)."""
    now = now or _now()
    key = _key()
    name = _name(common_name)
    ski = x509.SubjectKeyIdentifier.from_public_key(key.public_key())
    cert = (x509.CertificateBuilder()
            .subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(days=days))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True,
                                         crl_sign=True, content_commitment=False,
                                         key_encipherment=False, data_encipherment=False,
                                         key_agreement=False, encipher_only=False,
                                         decipher_only=False), critical=True)
            .add_extension(ski, critical=False)
            .sign(key, hashes.SHA256()))
    return key, cert


def issue(ca_key: ec.EllipticCurvePrivateKey, ca_cert: x509.Certificate, common_name: str, *,
          hosts: Sequence[str] = (), client: bool = False, now: dt.datetime | None = None,
          days: int = LEAF_DAYS) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    """A leaf certificate signed by the authority: a server's for ``hosts``, or a client's."""
    now = now or _now()
    key = _key()
    usage = ExtendedKeyUsageOID.CLIENT_AUTH if client else ExtendedKeyUsageOID.SERVER_AUTH
    ca_ski = ca_cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    builder = (x509.CertificateBuilder()
               .subject_name(_name(common_name)).issuer_name(ca_cert.subject)
               .public_key(key.public_key())
               .serial_number(x509.random_serial_number())
               .not_valid_before(now - dt.timedelta(minutes=5))
               .not_valid_after(min(now + dt.timedelta(days=days), ca_cert.not_valid_after_utc))
               .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
               .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=False,
                                            crl_sign=False, content_commitment=False,
                                            key_encipherment=False, data_encipherment=False,
                                            key_agreement=False, encipher_only=False,
                                            decipher_only=False), critical=True)
               .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                              critical=False)
               .add_extension(
                   x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski),
                   critical=False))
    if not client:
        builder = builder.add_extension(_san(hosts), critical=False)
    return key, builder.sign(ca_key, hashes.SHA256())


# ---- files ---------------------------------------------------------------------------------


def _chown(path: Path, owner: str | None) -> None:
    if not owner:
        return
    try:
        entry = pwd.getpwnam(owner)
    except KeyError:
        raise TlsError(f"--owner {owner}: no such user") from None
    try:
        os.chown(path, entry.pw_uid, entry.pw_gid)
    except PermissionError:
        raise TlsError(f"{path}: cannot hand it to {owner} (run as root)") from None


def _write(path: Path, data: bytes, mode: int, owner: str | None) -> None:
    """Write ``data`` to ``path`` through a new file created with ``mode`` (a key is never
    readable by others, not even while it is written), then rename it into place."""
    tmp = path.with_name(f".{path.name}.new")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)  # (the umask may have taken bits off a certificate's 0644)
        _chown(tmp, owner)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _write_key(path: Path, key: ec.EllipticCurvePrivateKey, owner: str | None) -> None:
    _write(path, key.private_bytes(serialization.Encoding.PEM,
                                   serialization.PrivateFormat.PKCS8,
                                   serialization.NoEncryption()), 0o600, owner)


def _write_cert(path: Path, cert: x509.Certificate, owner: str | None) -> None:
    _write(path, cert.public_bytes(serialization.Encoding.PEM), 0o644, owner)


def _read(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise TlsError(f"{path}: no such {what} file") from None
    except PermissionError:
        raise TlsError(f"{path}: the {what} is not readable by this user") from None
    except IsADirectoryError:
        raise TlsError(f"{path}: a folder, not a {what} file") from None
    except OSError as exc:
        raise TlsError(f"{path}: {exc.strerror or exc}") from None


def load_cert(path: Path) -> x509.Certificate:
    """The first certificate of a PEM file."""
    data = _read(path, "certificate")
    try:
        return x509.load_pem_x509_certificate(data)
    except ValueError:
        raise TlsError(f"{path}: not a PEM certificate") from None


def load_key(path: Path) -> ec.EllipticCurvePrivateKey:
    data = _read(path, "key")
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise TlsError(f"{path}: not an unencrypted PEM private key") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        # a cardroom's own PKI may use RSA: ssl takes it; only our own issuing needs EC
        raise TlsError(f"{path}: not an EC key (feltguard's authority signs with EC P-256)")
    return key


def _hosts_of(cert: x509.Certificate) -> tuple[str, ...]:
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return ()
    return tuple([*san.get_values_for_type(x509.DNSName),
                  *(str(a) for a in san.get_values_for_type(x509.IPAddress))])


def _subject(cert: x509.Certificate) -> str:
    names = cert.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    return str(names[0].value) if names else cert.subject.rfc4514_string()


def _signed_by(cert: x509.Certificate, ca: x509.Certificate) -> bool:
    if cert.issuer != ca.subject:
        return False
    try:
        cert.verify_directly_issued_by(ca)
    except (ValueError, TypeError, InvalidSignature):
        return False
    return True


def check_pair(cert_path: str | Path, key_path: str | Path, *, ca_path: str | Path | None = None,
               now: dt.datetime | None = None) -> CertStatus:
    """Check what a server (or client) will be started with, in the order a person fixes it:
    both files there and readable, each what it says, not expired nor not yet valid, the key
    the certificate's own, and (``ca_path``) issued by that authority. ``TlsError`` (one line
    naming the file) otherwise. Any key type ssl takes passes (a cardroom's RSA key too)."""
    cert_path, key_path = Path(cert_path), Path(key_path)
    now = now or _now()
    cert = load_cert(cert_path)
    data = _read(key_path, "key")
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except TypeError:
        raise TlsError(f"{key_path}: the key is encrypted: the table starts unattended, "
                       "give it an unencrypted key readable only by the service user") from None
    except ValueError:
        raise TlsError(f"{key_path}: not a PEM private key") from None
    pub = serialization.PublicFormat.SubjectPublicKeyInfo
    if (key.public_key().public_bytes(serialization.Encoding.DER, pub)
            != cert.public_key().public_bytes(serialization.Encoding.DER, pub)):
        raise TlsError(f"{key_path}: not the key of {cert_path} (a mismatched pair)")
    if now < cert.not_valid_before_utc:
        raise TlsError(f"{cert_path}: not valid before {cert.not_valid_before_utc:%Y-%m-%d %H:%M} "
                       "UTC (is the clock right?)")
    if now >= cert.not_valid_after_utc:
        raise TlsError(f"{cert_path}: expired on {cert.not_valid_after_utc:%Y-%m-%d}: renew it "
                       "(feltguard tls renew)")
    if ca_path is not None:
        ca = load_cert(Path(ca_path))
        if not _signed_by(cert, ca):
            raise TlsError(f"{cert_path}: not issued by the authority {ca_path} "
                           f"({_subject(ca)}): the wrong CA")
    return CertStatus(cert_path, _subject(cert), _hosts_of(cert), cert.not_valid_after_utc,
                      fingerprint(cert))


# ---- the commands --------------------------------------------------------------------------


@dataclass(frozen=True)
class Made:
    """What ``init_folder`` / ``renew_server`` / ``issue_client`` wrote."""

    folder: TlsFolder
    ca_fingerprint: str
    cert: Path
    key: Path
    hosts: tuple[str, ...]
    not_after: dt.datetime


def init_folder(folder: str | Path, *, hosts: Sequence[str] = (), name: str = "",
                owner: str | None = None, now: dt.datetime | None = None) -> Made:
    """``feltguard tls init``: a new authority and a server certificate for ``hosts`` (the
    table's own names and addresses when none are given) in ``folder``, made 0700 if new. An
    authority already there is never overwritten (every tablet trusting it would need enrolling
    again): ``TlsError``, pointing to ``renew``."""
    tf = TlsFolder(Path(folder))
    if tf.ca_key.exists() or tf.ca_cert.exists():
        raise TlsError(f"{tf.path}: an authority is already there (ca.pem): renew the server "
                       "certificate with feltguard tls renew, or choose another folder")
    try:
        tf.path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise TlsError(f"{tf.path}: {exc.strerror or exc}") from None
    _chown(tf.path, owner)
    label = name or socket.gethostname()
    ca_key, ca_cert = make_ca(f"Feltguard CA {label}", now)
    _write_key(tf.ca_key, ca_key, owner)
    _write_cert(tf.ca_cert, ca_cert, owner)
    return _server(tf, ca_key, ca_cert, list(hosts) or default_hosts(), label, owner, now)


def _server(tf: TlsFolder, ca_key: ec.EllipticCurvePrivateKey, ca_cert: x509.Certificate,
            hosts: Sequence[str], label: str, owner: str | None,
            now: dt.datetime | None) -> Made:
    key, cert = issue(ca_key, ca_cert, f"Feltguard {label}", hosts=hosts, now=now)
    _write_key(tf.server_key, key, owner)
    _write_cert(tf.server_cert, cert, owner)
    return Made(tf, fingerprint(ca_cert), tf.server_cert, tf.server_key, _hosts_of(cert),
                cert.not_valid_after_utc)


def _authority(tf: TlsFolder) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    if not tf.ca_cert.exists():
        raise TlsError(f"{tf.path}: no authority here (ca.pem): make one with feltguard tls init")
    ca_cert = load_cert(tf.ca_cert)
    ca_key = load_key(tf.ca_key)
    pub = serialization.PublicFormat.SubjectPublicKeyInfo
    if (ca_key.public_key().public_bytes(serialization.Encoding.DER, pub)
            != ca_cert.public_key().public_bytes(serialization.Encoding.DER, pub)):
        raise TlsError(f"{tf.ca_key}: not the key of {tf.ca_cert} (a mismatched pair)")
    if _now() >= ca_cert.not_valid_after_utc:
        raise TlsError(f"{tf.ca_cert}: the authority expired on "
                       f"{ca_cert.not_valid_after_utc:%Y-%m-%d}: make a new one (tls init)")
    return ca_key, ca_cert


def renew_server(folder: str | Path, *, hosts: Sequence[str] = (), owner: str | None = None,
                 now: dt.datetime | None = None) -> Made:
    """``feltguard tls renew``: a new server certificate and key from the same authority, for
    ``hosts`` or else the names the old certificate had, so no tablet needs enrolling again."""
    tf = TlsFolder(Path(folder))
    ca_key, ca_cert = _authority(tf)
    old: tuple[str, ...] = ()
    label = socket.gethostname()
    if tf.server_cert.exists():
        with_old = load_cert(tf.server_cert)
        old, label = _hosts_of(with_old), _subject(with_old).removeprefix("Feltguard ")
    return _server(tf, ca_key, ca_cert, list(hosts) or list(old) or default_hosts(), label,
                   owner, now)


def issue_client(folder: str | Path, name: str, *, owner: str | None = None,
                 now: dt.datetime | None = None) -> Made:
    """``feltguard tls client NAME``: a client certificate from the folder's authority, for a
    surveillance screen or a table's relay where the cardroom asks for one."""
    if not name or not all(c.isalnum() or c in "-_." for c in name) or name.startswith("."):
        raise TlsError(f"client name {name!r}: use letters, digits, '-', '_' and '.'")
    tf = TlsFolder(Path(folder))
    ca_key, ca_cert = _authority(tf)
    key, cert = issue(ca_key, ca_cert, name, client=True, now=now)
    _write_key(tf.client_key(name), key, owner)
    _write_cert(tf.client_cert(name), cert, owner)
    return Made(tf, fingerprint(ca_cert), tf.client_cert(name), tf.client_key(name), (),
                cert.not_valid_after_utc)


# ---- contexts ------------------------------------------------------------------------------


def server_context(cert: str | Path, key: str | Path,
                   client_ca: str | Path | None = None) -> ssl.SSLContext:
    """The context a server of the table's serves with: TLS 1.2 at least, and with
    ``client_ca`` a client certificate issued by it is required. Check the files with
    ``check_pair`` first; ``TlsError`` still if ssl refuses them."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        ctx.load_cert_chain(str(cert), str(key))
    except (ssl.SSLError, OSError) as exc:
        raise TlsError(f"{cert}: {getattr(exc, 'reason', None) or exc}") from None
    if client_ca:
        try:
            ctx.load_verify_locations(cafile=str(client_ca))
        except (ssl.SSLError, OSError) as exc:
            raise TlsError(f"{client_ca}: {getattr(exc, 'reason', None) or exc}") from None
        ctx.verify_mode = ssl.CERT_REQUIRED
    return ctx


def client_context(ca: str | Path, cert: str | Path | None = None,
                   key: str | Path | None = None) -> ssl.SSLContext:
    """A client's context trusting only the authority ``ca`` (host names checked), presenting
    ``cert``/``key`` where the server asks for a client certificate."""
    try:
        ctx = ssl.create_default_context(cafile=str(ca))
    except (ssl.SSLError, OSError) as exc:
        raise TlsError(f"{ca}: {getattr(exc, 'reason', None) or exc}") from None
    if cert:
        try:
            ctx.load_cert_chain(str(cert), str(key) if key else None)
        except (ssl.SSLError, OSError) as exc:
            raise TlsError(f"{cert}: {getattr(exc, 'reason', None) or exc}") from None
    return ctx


class ServedCert:
    """The certificate a running server serves, and its state for ``/healthz``.

    ``context`` is made once; ``status()`` (each ``/healthz``, and the table's hourly check)
    reloads the certificate into that same context when its file has changed and checks out,
    so ``feltguard tls renew`` takes effect at the next handshake without a restart (a restart
    would replay the journal). A renewed pair that does not check out is not loaded: the old
    one goes on, and the status says why."""

    def __init__(self, cert: str | Path, key: str | Path, client_ca: str | Path | None = None,
                 ca: str | Path | None = None) -> None:
        self.cert, self.key = Path(cert), Path(key)
        self.client_ca = Path(client_ca) if client_ca else None
        self.ca = Path(ca) if ca else None
        self.served = check_pair(self.cert, self.key, ca_path=self.ca)
        self.context = server_context(self.cert, self.key, self.client_ca)
        self._stamp = self._mtimes()
        self.problem = ""

    def _mtimes(self) -> tuple[float, float]:
        try:
            return self.cert.stat().st_mtime, self.key.stat().st_mtime
        except OSError:
            return (0.0, 0.0)

    def reload_if_changed(self) -> None:
        stamp = self._mtimes()
        if stamp == self._stamp:
            return
        self._stamp = stamp
        try:
            fresh = check_pair(self.cert, self.key, ca_path=self.ca)
            self.context.load_cert_chain(str(self.cert), str(self.key))
        except (TlsError, ssl.SSLError, OSError) as exc:
            self.problem = f"the renewed certificate was not loaded: {exc}"
            log.warning("%s: the one loaded goes on being served", self.problem)
            return
        log.info("%s: renewed, served from the next connection on (until %s)", self.cert,
                 f"{fresh.not_after:%Y-%m-%d}")
        self.served, self.problem = fresh, ""

    def status(self, now: dt.datetime | None = None) -> dict[str, object]:
        """``/healthz``'s ``tls``: what is served, until when, and a warning from 30 days
        ahead. No path and no error text: ``/healthz`` is public (the log has the detail)."""
        self.reload_if_changed()
        left = self.served.days_left(now)
        warning = None
        if left <= 0:
            warning = "the certificate has expired: renew it (feltguard tls renew)"
        elif left <= WARN_DAYS:
            warning = f"the certificate expires in {int(left)} days: renew it (feltguard tls renew)"
        elif self.problem:
            warning = "a renewed certificate was not loaded (the table's log says why)"
        return {"expires": self.served.not_after.isoformat(), "days_left": int(left),
                "fingerprint": self.served.fingerprint,
                "client_certificates": self.client_ca is not None, "warning": warning}
