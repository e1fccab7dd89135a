"""Verifying the optional DSSE signature of a sealed run (``attestation.dsse.json``).

The envelope is DSSE v1: ``payloadType``, ``payload`` (base64 of the signed bytes) and
``signatures`` (at least one ``{keyid, sig}``). For a run seal the payload must be byte for byte
the run's ``seal.json`` and the payload type ``application/vnd.in-toto+json``; the signed
message is the DSSE pre-authentication encoding::

    "DSSEv1" SP LEN(payloadType) SP payloadType SP LEN(payload) SP payload

Algorithms: ECDSA over NIST P-256 with SHA-256 (signature DER-encoded, strictly: a raw
``r||s`` is not a signature) and Ed25519. A ``keyid`` is ``sha256:`` + the hex SHA-256 of the
public key's DER SubjectPublicKeyInfo. Which keys are trusted is the caller's choice
(``--trusted-key PEM``, repeatable), never read from the run. A signature with a ``keyid`` is
checked only against the trusted key with that id; one without is tried against every key.

Per signature the result is ``verified``, ``untrusted-key``, ``invalid`` or
``unsupported-algorithm``; for the whole envelope ``malformed`` or ``payload-mismatch``. The
envelope verifies when at least one signature is ``verified``.

The ``cryptography`` package is an optional extra (``pip install 'bench-gate[signatures]'``),
imported only when a trusted key is given; without it :class:`SignatureSetupError` says so.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from bench_gate.records import record
from bench_gate.loaders import strictjson

PAYLOAD_TYPE = "application/vnd.in-toto+json"
INSTALL_HINT = "pip install 'bench-gate[signatures]'"

SignatureStatus = Literal["verified", "untrusted-key", "invalid", "unsupported-algorithm"]
EnvelopeStatus = Literal["verified", "not-verified", "malformed", "payload-mismatch"]


class SignatureSetupError(Exception):
    """Trusted keys cannot be used (package missing, unreadable PEM): a usage error (exit 2)."""


@record
class TrustedKey:
    """A public key the caller trusts, with its AEF key id."""

    keyid: str
    algorithm: Literal["ecdsa-p256", "ed25519"]
    spki_der: bytes
    source: str


@record
class SignatureResult:
    keyid: str
    status: SignatureStatus


@record
class EnvelopeResult:
    status: EnvelopeStatus
    message: str
    signatures: tuple[SignatureResult, ...] = ()

    @property
    def verified_keyids(self) -> tuple[str, ...]:
        return tuple(s.keyid for s in self.signatures if s.status == "verified")


def require_crypto() -> None:
    """Raise SignatureSetupError unless the optional ``cryptography`` package is importable."""
    try:
        import cryptography.hazmat.primitives.asymmetric.ec  # noqa: F401
        import cryptography.hazmat.primitives.asymmetric.ed25519  # noqa: F401
        import cryptography.hazmat.primitives.serialization  # noqa: F401
    except ImportError:
        raise SignatureSetupError(
            "verifying signatures (--trusted-key) needs the 'cryptography' package: "
            f"{INSTALL_HINT}") from None


def keyid_of(spki_der: bytes) -> str:
    """``sha256:`` + hex SHA-256 of a DER SubjectPublicKeyInfo."""
    return "sha256:" + hashlib.sha256(spki_der).hexdigest()


def load_trusted_keys(pems: Sequence[tuple[str, bytes]]) -> tuple[TrustedKey, ...]:
    """Parse PEM public keys (``(where it came from, bytes)``); raise SignatureSetupError."""
    if not pems:
        return ()
    return tuple(_load_one(source, bytes(pem)) for source, pem in pems)


def read_trusted_keys(paths: Sequence[str], option: str = "--trusted-key") -> list[str]:
    """The PEM text of each key file named on the command line, checked to be a usable key.

    For the command line: a file that cannot be read, a PEM that is not an ECDSA P-256 or
    Ed25519 public key, or the ``cryptography`` package missing raises SignatureSetupError (a
    usage error, exit 2). The texts become the ``trusted_keys`` parameter of the seal kinds.
    """
    texts: list[str] = []
    for path in paths:
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise SignatureSetupError(f"{option} {path}: cannot be read ({exc.strerror or exc.__class__.__name__})"
                                      ) from None
        if len(raw) > 64 * 1024:
            raise SignatureSetupError(f"{option} {path}: is {len(raw)} bytes, too large for a PEM public key")
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            raise SignatureSetupError(f"{option} {path}: not a PEM public key (not ASCII text)") from None
        load_trusted_keys([(f"{option} {path}", raw)])
        texts.append(text)
    return texts


@lru_cache(maxsize=64)
def _load_one(source: str, pem: bytes) -> TrustedKey:
    require_crypto()
    from cryptography.hazmat.primitives import serialization as ser
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519
    try:
        key = ser.load_pem_public_key(pem)
    except (ValueError, TypeError) as exc:
        raise SignatureSetupError(f"{_who(source)}: not a PEM public key ({exc.__class__.__name__})") from None
    except Exception as exc:  # cryptography raises UnsupportedAlgorithm for odd key types
        raise SignatureSetupError(f"{_who(source)}: cannot be read ({exc.__class__.__name__})") from None
    der = key.public_bytes(ser.Encoding.DER, ser.PublicFormat.SubjectPublicKeyInfo)
    if isinstance(key, ed25519.Ed25519PublicKey):
        return TrustedKey(keyid_of(der), "ed25519", der, source)
    if isinstance(key, ec.EllipticCurvePublicKey) and isinstance(key.curve, ec.SECP256R1):
        return TrustedKey(keyid_of(der), "ecdsa-p256", der, source)
    raise SignatureSetupError(
        f"{_who(source)}: unsupported key type {type(key).__name__} (ECDSA P-256 or Ed25519 only)")


def _who(source: str) -> str:
    return source if source.startswith("--") else f"trusted key {source}"


def pae(payload_type: str, payload: bytes) -> bytes:
    """The DSSE v1 pre-authentication encoding."""
    kind = payload_type.encode("utf-8")
    return b"DSSEv1 %d %s %d %s" % (len(kind), kind, len(payload), payload)


_B64 = re.compile(r"^[A-Za-z0-9+/_-]*={0,2}$")


def b64decode_strict(text: Any) -> bytes | None:
    """Standard base64 with padding, or URL-safe with or without it; None for anything else.

    Whitespace, mixed alphabets, a wrong length and set unused bits are all refused, so every
    signature has exactly one textual form per alphabet.
    """
    if not isinstance(text, str) or not _B64.match(text):
        return None
    has_std, has_url = ("+" in text or "/" in text), ("-" in text or "_" in text)
    if has_std and has_url:
        return None
    body = text.rstrip("=")
    pad = len(text) - len(body)
    if len(body) % 4 == 1 or (pad and (len(body) + pad) % 4 != 0):
        return None
    if has_std and not pad and len(body) % 4 != 0:
        return None  # the standard alphabet is written with its padding
    alt = b"-_" if has_url else None
    try:
        raw = base64.b64decode(body + "=" * (-len(body) % 4), altchars=alt, validate=True)
    except (binascii.Error, ValueError):
        return None
    if base64.b64encode(raw, altchars=alt).decode("ascii").rstrip("=") != body:
        return None  # set unused bits
    return raw


def verify_envelope(envelope: bytes, signed_file: bytes, keys: Sequence[TrustedKey],
                    payload_type: str = PAYLOAD_TYPE, file_name: str = "seal.json") -> EnvelopeResult:
    """Verify a DSSE envelope over ``signed_file`` with the trusted ``keys``."""
    try:
        data = strictjson.loads(envelope)
    except strictjson.JsonError as exc:
        return EnvelopeResult("malformed", f"attestation.dsse.json {exc}")
    if not isinstance(data, dict):
        return EnvelopeResult("malformed", "attestation.dsse.json is not a JSON object")
    kind = data.get("payloadType")
    payload = b64decode_strict(data.get("payload"))
    sigs = data.get("signatures")
    if not isinstance(kind, str) or payload is None:
        return EnvelopeResult("malformed", "attestation.dsse.json has no string payloadType or no base64 payload")
    if not isinstance(sigs, list) or not sigs:
        return EnvelopeResult("malformed", "attestation.dsse.json has no signatures")
    parsed: list[tuple[str, bytes]] = []
    for index, sig in enumerate(sigs):
        if not isinstance(sig, dict):
            return EnvelopeResult("malformed", f"attestation.dsse.json signatures[{index}] is not an object")
        keyid = sig.get("keyid", "")
        raw = b64decode_strict(sig.get("sig"))
        if not isinstance(keyid, str) or raw is None:
            return EnvelopeResult(
                "malformed", f"attestation.dsse.json signatures[{index}] has no string keyid or no base64 sig")
        parsed.append((keyid, raw))
    if kind != payload_type:
        return EnvelopeResult("payload-mismatch", f"attestation.dsse.json payloadType is {kind!r}, not {payload_type!r}")
    if payload != signed_file:
        return EnvelopeResult("payload-mismatch", f"attestation.dsse.json payload is not the bytes of {file_name}")
    message = pae(kind, payload)
    results = tuple(_check(keyid, raw, message, keys) for keyid, raw in parsed)
    verified = [r.keyid for r in results if r.status == "verified"]
    if verified:
        return EnvelopeResult("verified", f"signed by trusted key {verified[0]}", results)
    shown = ", ".join(f"{r.keyid or '(no keyid)'}: {r.status}" for r in results)
    return EnvelopeResult("not-verified", f"no signature by a trusted key verifies ({shown})", results)


def _check(keyid: str, sig: bytes, message: bytes, keys: Sequence[TrustedKey]) -> SignatureResult:
    candidates = [k for k in keys if k.keyid == keyid] if keyid else list(keys)
    if not candidates:
        return SignatureResult(keyid, "untrusted-key")
    for key in candidates:
        if _verify_one(key, sig, message):
            return SignatureResult(key.keyid, "verified")
    return SignatureResult(keyid, "invalid" if keyid else "untrusted-key")


def _verify_one(key: TrustedKey, sig: bytes, message: bytes) -> bool:
    require_crypto()
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519
    public = serialization.load_der_public_key(key.spki_der)
    try:
        if key.algorithm == "ed25519":
            assert isinstance(public, ed25519.Ed25519PublicKey)
            public.verify(sig, message)
            return True
        assert isinstance(public, ec.EllipticCurvePublicKey)
        if not _strict_der_ecdsa(sig):
            return False
        public.verify(sig, message, ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


def _strict_der_ecdsa(sig: bytes) -> bool:
    """A minimal DER ``SEQUENCE { INTEGER r, INTEGER s }`` with no trailing bytes."""
    if len(sig) < 8 or sig[0] != 0x30 or sig[1] != len(sig) - 2 or sig[1] >= 0x80:
        return False
    pos = 2
    for _ in range(2):
        if pos + 2 > len(sig) or sig[pos] != 0x02:
            return False
        length = sig[pos + 1]
        if length == 0 or length > 33 or pos + 2 + length > len(sig):
            return False
        value = sig[pos + 2: pos + 2 + length]
        if value[0] & 0x80:
            return False  # negative
        if length > 1 and value[0] == 0 and not value[1] & 0x80:
            return False  # not minimal
        pos += 2 + length
    return pos == len(sig)
