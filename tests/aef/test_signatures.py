"""DSSE signatures over seal.json: envelopes, key ids, trusted keys, and the seal kinds with keys."""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("cryptography")

from cryptography.hazmat.primitives import serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec, rsa  # noqa: E402

from bench_gate.aef import signatures  # noqa: E402
from bench_gate.checks.pair.pairing import PairSealParams  # noqa: E402
from bench_gate.checks.pair.run_seal import SealParams  # noqa: E402

import pairgen  # noqa: E402
from kindtest import context
from pairsetup import Setup, doc, fill, run_kind

SEAL = b'{"_type": "https://in-toto.io/Statement/v1"}\n'
ED = pairgen.ed25519_key(11)
EC = pairgen.ecdsa_key(11)
OTHER = pairgen.ed25519_key(12)


def trusted(*keys: Any) -> tuple[signatures.TrustedKey, ...]:
    return signatures.load_trusted_keys([(f"k{i}", pairgen.public_pem(k).encode()) for i, k in enumerate(keys)])


def kid(key: Any) -> str:
    return pairgen.keyid(key.public_key())


def test_keyid_is_sha256_of_der_spki() -> None:
    der = ED.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    (key,) = trusted(ED)
    assert key.keyid == "sha256:" + hashlib.sha256(der).hexdigest() == signatures.keyid_of(der)
    assert key.algorithm == "ed25519"
    assert trusted(EC)[0].algorithm == "ecdsa-p256"


def test_pae() -> None:
    assert signatures.pae("application/vnd.in-toto+json", b"hello") == \
        b"DSSEv1 28 application/vnd.in-toto+json 5 hello"


def envelope_with(edit: Callable[[dict[str, Any]], None], key: Any = ED, payload: bytes = SEAL) -> bytes:
    data = json.loads(pairgen.envelope(payload, key))
    edit(data)
    return json.dumps(data).encode()


def raw_ecdsa(data: dict[str, Any]) -> None:
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
    der = base64.b64decode(data["signatures"][0]["sig"])
    r, s = decode_dss_signature(der)
    data["signatures"][0]["sig"] = base64.b64encode(r.to_bytes(32, "big") + s.to_bytes(32, "big")).decode()


def urlsafe(data: dict[str, Any]) -> None:
    sig = data["signatures"][0]["sig"]
    data["signatures"][0]["sig"] = sig.replace("+", "-").replace("/", "_").rstrip("=")


ENVELOPE_CASES: list[tuple[str, bytes, tuple[Any, ...], str, str]] = [
    ("ed25519", pairgen.envelope(SEAL, ED), (ED,), "verified", f"signed by trusted key {kid(ED)}"),
    ("ecdsa-p256", pairgen.envelope(SEAL, EC), (EC,), "verified", f"signed by trusted key {kid(EC)}"),
    ("second-trusted-key", pairgen.envelope(SEAL, EC), (ED, EC), "verified", f"signed by trusted key {kid(EC)}"),
    ("no-keyid-tries-every-key", pairgen.envelope(SEAL, EC, with_keyid=False), (ED, EC), "verified",
     f"signed by trusted key {kid(EC)}"),
    ("urlsafe-unpadded-base64", envelope_with(urlsafe), (ED,), "verified", f"signed by trusted key {kid(ED)}"),
    ("untrusted-key", pairgen.envelope(SEAL, OTHER), (ED,), "not-verified",
     f"no signature by a trusted key verifies ({kid(OTHER)}: untrusted-key)"),
    ("no-keyid-untrusted", pairgen.envelope(SEAL, OTHER, with_keyid=False), (ED,), "not-verified",
     "no signature by a trusted key verifies ((no keyid): untrusted-key)"),
    ("keyid-of-trusted-key-wrong-signer", envelope_with(lambda d: d["signatures"][0].update(keyid=kid(ED)), OTHER),
     (ED,), "not-verified", f"no signature by a trusted key verifies ({kid(ED)}: invalid)"),
    ("raw-r-s-is-not-a-signature", envelope_with(raw_ecdsa, EC), (EC,), "not-verified",
     f"no signature by a trusted key verifies ({kid(EC)}: invalid)"),
    ("payload-is-another-file", pairgen.envelope(SEAL + b" ", ED), (ED,), "payload-mismatch",
     "attestation.dsse.json payload is not the bytes of seal.json"),
    ("payload-type", envelope_with(lambda d: d.update(payloadType="text/plain")), (ED,), "payload-mismatch",
     "attestation.dsse.json payloadType is 'text/plain', not 'application/vnd.in-toto+json'"),
    ("no-signatures", envelope_with(lambda d: d.update(signatures=[])), (ED,), "malformed",
     "attestation.dsse.json has no signatures"),
    ("whitespace-in-base64", envelope_with(lambda d: d["signatures"][0].update(sig=" " + d["signatures"][0]["sig"])),
     (ED,), "malformed", "attestation.dsse.json signatures[0] has no string keyid or no base64 sig"),
    ("mixed-alphabets", envelope_with(lambda d: d.update(payload=d["payload"][:-4] + "-+==")), (ED,), "malformed",
     "attestation.dsse.json has no string payloadType or no base64 payload"),
    ("not-json", b"{", (ED,), "malformed",
     "attestation.dsse.json is not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2"),
]


@pytest.mark.parametrize(("envelope", "keys", "status", "message"), [c[1:] for c in ENVELOPE_CASES],
                         ids=[c[0] for c in ENVELOPE_CASES])
def test_verify_envelope(envelope: bytes, keys: tuple[Any, ...], status: str, message: str) -> None:
    result = signatures.verify_envelope(envelope, SEAL, trusted(*keys))
    assert (result.status, result.message) == (status, message)


BASE64_CASES = [("std", "aGk=", b"hi"), ("url-unpadded", "aGk", b"hi"), ("unused-bits", "aGl=", None),
                ("bad-length", "aGk==", None), ("newline", "aGk=\n", None), ("empty", "", b""),
                ("not-a-string", 5, None)]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in BASE64_CASES], ids=[c[0] for c in BASE64_CASES])
def test_strict_base64(text: Any, expected: bytes | None) -> None:
    assert signatures.b64decode_strict(text) == expected


def test_unusable_trusted_keys_are_setup_errors() -> None:
    with pytest.raises(signatures.SignatureSetupError, match=r"^trusted key k0: not a PEM public key \(ValueError\)$"):
        signatures.load_trusted_keys([("k0", b"-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")])
    rsa_pem = rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    with pytest.raises(signatures.SignatureSetupError,
                       match=r"^trusted key rsa.pem: unsupported key type .*\(ECDSA P-256 or Ed25519 only\)$"):
        signatures.load_trusted_keys([("rsa.pem", rsa_pem)])
    p384 = ec.generate_private_key(ec.SECP384R1())
    with pytest.raises(signatures.SignatureSetupError, match="unsupported key type"):
        signatures.load_trusted_keys([("p384", pairgen.public_pem(p384).encode())])


def test_missing_cryptography_is_a_clear_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(sys.modules):
        if name == "cryptography" or name.startswith("cryptography."):
            monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "cryptography", None)
    signatures._load_one.cache_clear()
    with pytest.raises(signatures.SignatureSetupError) as info:
        signatures.load_trusted_keys([("k.pem", b"x")])
    assert str(info.value) == ("verifying signatures (--trusted-key) needs the 'cryptography' package: "
                               "pip install 'bench-gate[signatures]'")
    assert signatures.load_trusted_keys([]) == ()


# --- the seal kinds with trusted keys ----------------------------------------------------

PEM = pairgen.public_pem(ED)


class SignedSetup(Setup):
    """Both arms signed by ``ED`` (the generator signs when given a key)."""

    def context(self) -> Any:
        pair = pairgen.generate(7, "signed", self.variant, ED)
        docs = {"report": doc("report", dict(pair.normal or {}))}
        if pair.oracle is not None:
            ofiles = dict(pair.oracle)
            if self.oracle:
                self.oracle(ofiles)
            docs["oracle"] = doc("oracle", ofiles)
        return context(**docs)


NHASH = pairgen.run_hash(pairgen.generate(7, "signed", None, ED).normal or {})
OHASH = pairgen.run_hash(pairgen.generate(7, "signed", None, ED).oracle or {})


def _tamper_envelope(files: dict[str, bytes]) -> None:
    data = json.loads(files["attestation.dsse.json"])
    data["payload"] = base64.b64encode(files["seal.json"].replace(b"producer", b"Producer")).decode()
    files["attestation.dsse.json"] = json.dumps(data).encode()


SIGNED_ROWS: list[tuple[str, str, Any, Setup, list[tuple[str, str]]]] = [
    ("pair-signed", "pair_seal", PairSealParams(trusted_keys=[PEM]), SignedSetup(),
     [("pass", f"both arms sealed intact: normal runHash {NHASH} (signed by {kid(ED)}); oracle runHash {OHASH} "
       f"(signed by {kid(ED)})")]),
    ("pair-signed-by-another-key", "pair_seal", PairSealParams(trusted_keys=[pairgen.public_pem(OTHER)]),
     SignedSetup(),
     [("fail", f"normal arm signature is not verified: no signature by a trusted key verifies ({kid(ED)}: "
       "untrusted-key)"),
      ("fail", f"oracle arm signature is not verified: no signature by a trusted key verifies ({kid(ED)}: "
       "untrusted-key)")]),
    ("pair-signature-over-other-bytes", "pair_seal", PairSealParams(trusted_keys=[PEM]),
     SignedSetup(oracle=_tamper_envelope),
     [("fail", "oracle arm signature is not verified: attestation.dsse.json payload is not the bytes of seal.json")]),
    ("pair-unsigned-key-required", "pair_seal", PairSealParams(trusted_keys=[PEM]), Setup(),
     [("fail", "normal arm has no attestation.dsse.json, but a signature by a trusted key is required"),
      ("fail", "oracle arm has no attestation.dsse.json, but a signature by a trusted key is required")]),
    ("pair-unsealed-key-required", "pair_seal", PairSealParams(trusted_keys=[PEM]), Setup(mode="unsealed"),
     [("fail", "both arms are unsealed (no seal.json), but a signature by a trusted key is required")]),
    ("signature-not-checked-without-keys", "pair_seal", PairSealParams(), SignedSetup(),
     [("pass", f"both arms sealed intact: normal runHash {NHASH} (its signature is not checked: no trusted key "
       f"given); oracle runHash {OHASH} (its signature is not checked: no trusted key given)")]),
    ("single-run-signed", "aef_seal", SealParams(trusted_keys=[PEM]), SignedSetup(),
     [("pass", f"seal intact (signed by {kid(ED)}): runHash {NHASH} over 4 sealed files")]),
    ("bad-pem", "aef_seal", SealParams(trusted_keys=["not a key"]), SignedSetup(),
     [("fail", "trusted key trusted_keys[0]: not a PEM public key (ValueError)")]),
]


@pytest.mark.parametrize(("kind", "params", "setup", "expected"), [r[1:] for r in SIGNED_ROWS],
                         ids=[r[0] for r in SIGNED_ROWS])
def test_seal_kinds_with_trusted_keys(kind: str, params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind(kind, params, setup) == fill(expected)


# --- reading --trusted-key files for the command line ------------------------------------


def test_read_trusted_keys(tmp_path: Path) -> None:
    good = tmp_path / "signer.pem"
    good.write_text(PEM, encoding="ascii")
    assert signatures.read_trusted_keys([str(good)]) == [PEM]
    bad = tmp_path / "bad.pem"
    bad.write_text("hello", encoding="ascii")
    cases = [
        (str(tmp_path / "none.pem"), f"--trusted-key {tmp_path}/none.pem: cannot be read (No such file or directory)"),
        (str(bad), f"--trusted-key {bad}: not a PEM public key (ValueError)"),
        (str(tmp_path), f"--trusted-key {tmp_path}: cannot be read (Is a directory)"),
    ]
    for path, message in cases:
        with pytest.raises(signatures.SignatureSetupError) as info:
            signatures.read_trusted_keys([str(good), path])
        assert str(info.value) == message
