"""Adversarial URLs, times and hashes, through the check kinds themselves, with exact messages.

* URLs (``public_url``): every spelling of a private, local, reserved or disguised host that the
  public-URL policy refuses: IPv4 in dotted, shorthand, integer, hex and octal notation, IPv6
  with mapped / compatible / NAT64 / 6to4 forms, zone ids, userinfo, reserved names and their
  subdomains, wildcard-DNS services, trailing dots and empty labels, punycode and Unicode
  look-alikes, odd schemes, whitespace and control characters, extreme length; and the public
  addresses it accepts.
* Time (``fresh``, ``not_future``, ``not_expired``): no zone, offsets that move an instant
  across the freshness boundary, the boundary to the second and below, future values,
  out-of-range and overflowing dates, ambiguous formats, date-only vs timestamp.
* Hashes (``fields`` with the named patterns, ``sha256_matches``): case, length, prefix,
  whitespace, non-ASCII digits, placeholder digests (one repeated character, the SHA-256 of
  empty input) and an empty evidence file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from bench_gate.checks.base import Context, show
from bench_gate.checks.generic import fields, integrity, timing, urls
from bench_gate.models import Doc, Finding

from kindtest import context as ctx, run

def outcome(kind: Callable[..., Iterable[Finding]], ctx: Context, params: Any) -> tuple[str, str]:
    """The single (status, message) a kind reaches, a raised Fail included (as the engine does)."""
    (found,) = run(kind, params, ctx)
    return found.status, found.message


# --- URLs -----------------------------------------------------------------------------------

URLS: list[tuple[str, str | None]] = [
    ('https://github.com/xiaowu0162/LongMemEval', None),
    ('https://127.0.0.1/', 'host 127.0.0.1 is a loopback address'),
    ('https://127.1/', "host '127.1' is an IPv4 address in shorthand notation (127.0.0.1, a loopback address); write a domain name or a canonical public address"),
    ('https://2130706433/', "host '2130706433' is an IPv4 address in integer notation (127.0.0.1, a loopback address); write a domain name or a canonical public address"),
    ('https://0x7f000001/', "host '0x7f000001' is an IPv4 address in hex notation (127.0.0.1, a loopback address); write a domain name or a canonical public address"),
    ('https://0x7f.0.0.1/', "host '0x7f.0.0.1' is an IPv4 address in hex notation (127.0.0.1, a loopback address); write a domain name or a canonical public address"),
    ('https://0177.0.0.1/', "host '0177.0.0.1' is an IPv4 address in octal notation (127.0.0.1, a loopback address); write a domain name or a canonical public address"),
    ('https://017700000001/', "host '017700000001' is an IPv4 address in octal notation (127.0.0.1, a loopback address); write a domain name or a canonical public address"),
    ('https://127.0.0.1.nip.io/', "host '127.0.0.1.nip.io' is a subdomain of the reserved or placeholder domain nip.io"),
    ('https://10.0.0.1/', 'host 10.0.0.1 is a private or special-purpose address'),
    ('https://192.168.1.1/', 'host 192.168.1.1 is a private or special-purpose address'),
    ('https://172.16.0.1/', 'host 172.16.0.1 is a private or special-purpose address'),
    ('https://169.254.169.254/latest/meta-data', 'host 169.254.169.254 is a link-local address'),
    ('https://100.64.0.1/', 'host 100.64.0.1 is not a globally routable address'),
    ('https://0.0.0.0/', 'host 0.0.0.0 is the unspecified address'),
    ('https://8.8.8.8/', None),
    ('https://08.8.8.8/', "host '08.8.8.8' ends in a number but is not a valid IPv4 address (an invalid octal part)"),
    ('https://8.8.8.08/', "host '8.8.8.08' ends in a number but is not a valid IPv4 address (an invalid octal part)"),
    ('https://256.1.1.1/', "host '256.1.1.1' ends in a number but is not a valid IPv4 address (a part out of range)"),
    ('https://[::1]/', 'host [::1] is the IPv6 loopback address'),
    ('https://[::ffff:127.0.0.1]/', 'host [::ffff:127.0.0.1] is an IPv4-mapped IPv6 address for 127.0.0.1, a loopback address'),
    ('https://[::ffff:7f00:1]/', 'host [::ffff:7f00:1] is an IPv4-mapped IPv6 address for 127.0.0.1, a loopback address'),
    ('https://[::ffff:8.8.8.8]/', None),
    ('https://[fe80::1%25eth0]/', "host '[fe80::1%25eth0]' has an IPv6 zone id"),
    ('https://[fc00::1]/', 'host [fc00::1] is a private or special-purpose IPv6 address'),
    ('https://[2001:4860:4860::8888]/', None),
    ('https://[64:ff9b::a00:1]/', 'host [64:ff9b::a00:1] is a NAT64 IPv6 address for 10.0.0.1, a private or special-purpose address'),
    ('https://[2002:7f00:1::]/', 'host [2002:7f00:1::] is a 6to4 IPv6 address for 127.0.0.1, a loopback address'),
    ('https://[::127.0.0.1]/', 'host [::127.0.0.1] is an IPv4-compatible IPv6 address for 127.0.0.1, a loopback address'),
    ('https://[2001:db8::1]/', 'host [2001:db8::1] is a private or special-purpose IPv6 address'),
    ('https://[::]/', 'host [::] is the IPv6 unspecified address'),
    ('https://user:pass@github.com/', 'has userinfo (user@ or user:password@) before the host'),
    ('https://github.com@evil.org/', 'has userinfo (user@ or user:password@) before the host'),
    ('https://github.com%40evil.org/', "host 'github.com%40evil.org' contains a percent-escape"),
    ('https://localhost/', "host 'localhost' is in the reserved or private top-level domain .localhost"),
    ('https://foo.localhost/', "host 'foo.localhost' is in the reserved or private top-level domain .localhost"),
    ('https://example.com/', "host 'example.com' is the reserved or placeholder domain example.com"),
    ('https://www.example.org/x', "host 'www.example.org' is a subdomain of the reserved or placeholder domain example.org"),
    ('https://example/', "host 'example' is in the reserved or private top-level domain .example"),
    ('https://test/', "host 'test' is in the reserved or private top-level domain .test"),
    ('https://a.test/', "host 'a.test' is in the reserved or private top-level domain .test"),
    ('https://x.invalid/', "host 'x.invalid' is in the reserved or private top-level domain .invalid"),
    ('https://printer.local/', "host 'printer.local' is in the reserved or private top-level domain .local"),
    ('https://db.internal/', "host 'db.internal' is in the reserved or private top-level domain .internal"),
    ('https://router.home.arpa/', "host 'router.home.arpa' is in the reserved or private top-level domain .arpa"),
    ('https://x.onion/', "host 'x.onion' is in the reserved or private top-level domain .onion"),
    ('https://github.com./', "host 'github.com.' ends with a dot (a fully qualified spelling that evades name checks)"),
    ('https://github..com/', "host 'github..com' has an empty label"),
    ('https://.github.com/', "host '.github.com' has an empty label"),
    ('https://xn--exmple-cua.org/', "host 'xn--exmple-cua.org' has an internationalized (punycode) label 'xn--exmple-cua' that may imitate another name; use an ASCII domain"),
    ('https://ex\u0430mple.org/', 'contains a non-ASCII character U+0430 CYRILLIC SMALL LETTER A at position 10'),
    ('https://github.com\u200b/', 'contains a non-ASCII character U+200B ZERO WIDTH SPACE at position 18'),
    ('https://\uff47ithub.com/', 'contains a non-ASCII character U+FF47 FULLWIDTH LATIN SMALL LETTER G at position 8'),
    ('javascript:alert(1)', "has scheme 'javascript'; only http and https are reviewable"),
    ('data:text/html,x', "has scheme 'data'; only http and https are reviewable"),
    ('file:///etc/passwd', "has scheme 'file'; only http and https are reviewable"),
    ('ftp://ftp.gnu.org/', "has scheme 'ftp'; only http and https are reviewable"),
    ('http:github.com', 'is not of the form http(s)://host/...'),
    ('https:///github.com', 'is not of the form http(s)://host/...'),
    ('HTTPS://GITHUB.COM/', None),
    ('https://github.com:0/', "has an invalid port '0'"),
    ('https://github.com:65536/', "has an invalid port '65536'"),
    ('https://github.com:443/', None),
    ('https://github.com:/', "has an invalid port ''"),
    (' https://github.com/', 'contains whitespace or a control character U+0020 SPACE at position 0'),
    ('https://github.com/ x', 'contains whitespace or a control character U+0020 SPACE at position 19'),
    ('https://github.com/\t', 'contains whitespace or a control character U+0009 control character at position 19'),
    ('https://git\nhub.com/', 'contains whitespace or a control character U+000A control character at position 11'),
    ('https://github.com\\@evil.org/', "contains a backslash (browsers read it as '/', which moves the host)"),
    ("https://" + "a" * 2100 + ".com/", 'is 2113 characters long (limit 2048)'),
    ("https://github.com/" + "a" * 2030, 'is 2049 characters long (limit 2048)'),
    ('', 'is empty'),
    ('https://', 'has no host'),
    ('https://-github.com/', "host '-github.com' is not a valid domain name (labels of 1-63 letters, digits and inner hyphens, at most 253 characters)"),
    ('https://github-.com/', "host 'github-.com' is not a valid domain name (labels of 1-63 letters, digits and inner hyphens, at most 253 characters)"),
    ('https://git_hub.com/', "host 'git_hub.com' is not a valid domain name (labels of 1-63 letters, digits and inner hyphens, at most 253 characters)"),
    ('https://github.c0m/', "host 'github.c0m' has an invalid top-level label 'c0m'"),
    ('https://github.c/', "host 'github.c' has an invalid top-level label 'c'"),
    ('https://lvh.me/', "host 'lvh.me' is the reserved or placeholder domain lvh.me"),
    ('https://sub.sslip.io/', "host 'sub.sslip.io' is a subdomain of the reserved or placeholder domain sslip.io"),
    ('https://[::ffff:169.254.169.254]/', 'host [::ffff:169.254.169.254] is an IPv4-mapped IPv6 address for 169.254.169.254, a link-local address'),
    ('https://0/', "host '0' is an IPv4 address in integer notation (0.0.0.0, the unspecified address); write a domain name or a canonical public address"),
    ('https://1.1.1.1/', None),
    ('https://1.1.1/', "host '1.1.1' is an IPv4 address in shorthand notation (1.1.0.1); write a domain name or a canonical public address"),
    ('https://0x08080808/', "host '0x08080808' is an IPv4 address in hex notation (8.8.8.8); write a domain name or a canonical public address"),
    ('https://github', "host 'github' is a single-label name, not a public domain"),
    ('https://[2001:4860:4860::8888]:99999/', "has an invalid port '99999'"),
    ('https://[::1]x/', "has text 'x' after the IPv6 host"),
    ('https://[::1', "host '[::1' is an unterminated IPv6 literal"),
    ('https://a.b.c.d.e.f.github.com/x?y#z', None),
    ('https://github.com#@evil.org', None),
    ('https://github.com?@evil.org', None),
]


@pytest.mark.parametrize(("url", "reason"), URLS, ids=[f"{i:02d}-{u[:40]}" for i, (u, _) in enumerate(URLS)])
def test_public_url(url: str, reason: str | None) -> None:
    got = outcome(urls.public_url, ctx({"evidence_url": url}), urls.PublicUrlParams(at="/evidence_url"))
    shown = show(url, 100)
    if reason is None:
        assert got == ("pass", f"evidence_url {shown} is a public http(s) URL")
    else:
        assert got == ("fail", f"evidence_url {shown} {reason}")
    if len(url) < 90:
        assert shown == json.dumps(url, ensure_ascii=False)


@pytest.mark.parametrize(("value", "message"), [
    (None, "evidence_url is null"),
    (..., "evidence_url is missing"),
    (True, "evidence_url must be a URL string, got boolean true"),
    (["https://github.com/"], 'evidence_url must be a URL string, got array ["https://github.com/"]'),
], ids=["null", "missing", "boolean", "list"])
def test_public_url_not_a_string(value: Any, message: str) -> None:
    data = {} if value is ... else {"evidence_url": value}
    assert outcome(urls.public_url, ctx(data), urls.PublicUrlParams(at="/evidence_url")) == ("fail", message)


def test_blocked_domain_and_its_subdomains() -> None:
    params = urls.PublicUrlParams(at="/u", blocked_domains=["Vendor.COM."])
    assert outcome(urls.public_url, ctx({"u": "https://docs.vendor.com/x"}), params) == (
        "fail", 'u "https://docs.vendor.com/x" host \'docs.vendor.com\' is a subdomain of the reserved or '
                "placeholder domain vendor.com")


# --- time -----------------------------------------------------------------------------------

NOT_A_TIME = "is neither an RFC 3339 timestamp with an offset (2026-11-29T12:00:00Z) nor a date (YYYY-MM-DD)"

FRESH: list[tuple[str, Any, str, str]] = [
    # date-only: whole UTC days
    ("date-30-days-passes", "2026-10-30", "pass", "checked_at 2026-10-30 is 30 days old (limit 30 days)"),
    ("date-31-days-fails", "2026-10-29", "fail", "checked_at 2026-10-29 is 31 days old (limit 30 days)"),
    ("date-today", "2026-11-29", "pass", "checked_at 2026-11-29 is 0 days old (limit 30 days)"),
    ("date-tomorrow-is-future", "2026-11-30", "fail", "checked_at 2026-11-30 is in the future (1 day after 2026-11-29)"),
    # timestamps: exact to the second and below
    ("stamp-exactly-30-days", "2026-10-30T12:00:00Z", "pass", "checked_at 2026-10-30T12:00:00Z is 30 days old (limit 30 days)"),
    ("stamp-30-days-1s", "2026-10-30T11:59:59Z", "fail",
     "checked_at 2026-10-30T11:59:59Z is 30 days 1 second old (limit 30 days)"),
    ("stamp-30-days-1ns", "2026-10-30T11:59:59.999999999Z", "fail",
     "checked_at 2026-10-30T11:59:59.999999999Z is 30 days 0.000000001 seconds old (limit 30 days)"),
    ("future-by-1s", "2026-11-29T12:00:01Z", "fail",
     "checked_at 2026-11-29T12:00:01Z is in the future (1 second after 2026-11-29T12:00:00Z)"),
    # offsets that move the instant across the boundary
    ("plus-one-inside", "2026-10-30T13:00:00+01:00", "pass",
     "checked_at 2026-10-30T13:00:00+01:00 is 30 days old (limit 30 days)"),
    ("plus-one-outside", "2026-10-30T12:59:59+01:00", "fail",
     "checked_at 2026-10-30T12:59:59+01:00 is 30 days 1 second old (limit 30 days)"),
    ("minus-five-inside", "2026-10-30T07:00:00-05:00", "pass",
     "checked_at 2026-10-30T07:00:00-05:00 is 30 days old (limit 30 days)"),
    ("minus-five-outside", "2026-10-30T06:59:59-05:00", "fail",
     "checked_at 2026-10-30T06:59:59-05:00 is 30 days 1 second old (limit 30 days)"),
    ("local-date-tomorrow-is-utc-past", "2026-11-30T00:30:00+13:00", "pass",
     "checked_at 2026-11-30T00:30:00+13:00 is 30 minutes old (limit 30 days)"),
    ("minus-zero-is-utc", "2026-06-07T12:00:00-00:00", "fail",
     "checked_at 2026-06-07T12:00:00-00:00 is 175 days old (limit 30 days)"),
    ("lowercase-t-and-z", "2026-06-07t12:00:00z", "fail", "checked_at 2026-06-07t12:00:00z is 175 days old (limit 30 days)"),
    # no zone, ambiguous or foreign formats
    ("no-zone", "2026-10-30T12:00:00", "fail", f"checked_at '2026-10-30T12:00:00' {NOT_A_TIME}"),
    ("space-separator", "2026-10-30 12:00:00Z", "fail", f"checked_at '2026-10-30 12:00:00Z' {NOT_A_TIME}"),
    ("no-seconds", "2026-06-07T12:00Z", "fail", f"checked_at '2026-06-07T12:00Z' {NOT_A_TIME}"),
    ("empty-fraction", "2026-06-07T12:00:00.Z", "fail", f"checked_at '2026-06-07T12:00:00.Z' {NOT_A_TIME}"),
    ("ten-fraction-digits", "2026-06-07T12:00:00.1234567890Z", "fail",
     f"checked_at '2026-06-07T12:00:00.1234567890Z' {NOT_A_TIME}"),
    ("us-date", "06/07/2026", "fail", f"checked_at '06/07/2026' {NOT_A_TIME}"),
    ("slashes", "2026/06/07", "fail", f"checked_at '2026/06/07' {NOT_A_TIME}"),
    ("words", "7 June 2026", "fail", f"checked_at '7 June 2026' {NOT_A_TIME}"),
    ("week-date", "2026-W23-7", "fail", f"checked_at '2026-W23-7' {NOT_A_TIME}"),
    ("basic-format", "20260607", "fail", f"checked_at '20260607' {NOT_A_TIME}"),
    ("epoch-string", "1780000000", "fail", f"checked_at '1780000000' {NOT_A_TIME}"),
    ("unpadded", "2026-6-7", "fail", f"checked_at '2026-6-7' {NOT_A_TIME}"),
    ("fullwidth-digits", "\uff12\uff10\uff12\uff16-06-07", "fail",
     f"checked_at '\uff12\uff10\uff12\uff16-06-07' {NOT_A_TIME}"),
    ("trailing-newline", "2026-06-07\n", "fail", f"checked_at '2026-06-07\\n' {NOT_A_TIME}"),
    ("leading-space", " 2026-06-07", "fail", f"checked_at ' 2026-06-07' {NOT_A_TIME}"),
    ("empty", "", "fail", f"checked_at '' {NOT_A_TIME}"),
    # out of range and overflowing
    ("feb-29-non-leap", "2026-02-29", "fail", "checked_at '2026-02-29' is not a calendar date (day is out of range for month)"),
    ("month-13", "2026-13-01", "fail", "checked_at '2026-13-01' is not a calendar date (month must be in 1..12)"),
    ("year-zero", "0000-01-01", "fail", "checked_at '0000-01-01' is not a calendar date (year 0 is out of range)"),
    ("overflows-past-9999", "9999-12-31T23:59:59-01:00", "fail", "checked_at '9999-12-31T23:59:59-01:00' is out of range"),
    ("underflows-before-1", "0001-01-01T00:00:00+01:00", "fail", "checked_at '0001-01-01T00:00:00+01:00' is out of range"),
    ("hour-25", "2026-06-07T25:00:00Z", "fail",
     "checked_at '2026-06-07T25:00:00Z' is not a valid timestamp (hour must be in 0..23)"),
    ("leap-second", "2026-06-07T12:00:60Z", "fail",
     "checked_at '2026-06-07T12:00:60Z' is a leap second, which cannot be compared exactly"),
    ("offset-24h", "2026-06-07T12:00:00+24:00", "fail",
     "checked_at '2026-06-07T12:00:00+24:00' has an impossible UTC offset +24:00"),
    # not a string at all
    ("epoch-number", 1780000000, "fail", "checked_at must be a date or timestamp string, got integer 1780000000"),
    ("boolean", True, "fail", "checked_at must be a date or timestamp string, got boolean true"),
    ("null", None, "fail", "checked_at is null"),
    ("list", ["2026-06-07"], "fail", 'checked_at must be a date or timestamp string, got array ["2026-06-07"]'),
]


@pytest.mark.parametrize(("value", "status", "message"), [r[1:] for r in FRESH], ids=[r[0] for r in FRESH])
def test_fresh(value: Any, status: str, message: str) -> None:
    got = outcome(timing.fresh, ctx({"checked_at": value}), timing.FreshParams(at="/checked_at", max_age="P30D"))
    assert got == (status, message)


@pytest.mark.parametrize(("kind", "value", "status", "message"), [
    ("not_future", "2026-11-29T12:00:00Z", "pass",
     "checked_at 2026-11-29T12:00:00Z is not in the future (gate time 2026-11-29T12:00:00Z)"),
    ("not_future", "2026-11-29T12:00:00.000001Z", "fail",
     "checked_at 2026-11-29T12:00:00.000001Z is in the future (0.000001 seconds after 2026-11-29T12:00:00Z)"),
    ("not_future", "2026-11-30", "fail", "checked_at 2026-11-30 is in the future (1 day after 2026-11-29)"),
    ("not_future", "2026-11-29T12:00:00", "fail", f"checked_at '2026-11-29T12:00:00' {NOT_A_TIME}"),
    ("not_expired", "2026-11-29", "pass",
     "checked_at 2026-11-29 has not passed (valid through the end of that day, gate date 2026-11-29)"),
    ("not_expired", "2026-11-28", "fail",
     "checked_at 2026-11-28 has passed (1 day before 2026-11-29; a date is valid through its end)"),
    ("not_expired", "2026-11-29T12:00:00Z", "fail", "checked_at 2026-11-29T12:00:00Z has passed (at 2026-11-29T12:00:00Z)"),
    ("not_expired", "2026-11-29T12:00:01Z", "pass", "checked_at 2026-11-29T12:00:01Z has not passed (1 second left)"),
    ("not_expired", "tomorrow", "fail", f"checked_at 'tomorrow' {NOT_A_TIME}"),
], ids=["now-is-not-future", "one-microsecond-ahead", "date-tomorrow", "no-zone",
        "expires-today-valid", "expired-yesterday", "expires-at-this-instant", "expires-in-1s", "word"])
def test_not_future_and_not_expired(kind: str, value: str, status: str, message: str) -> None:
    run, params = {"not_future": (timing.not_future, timing.NotFutureParams(at="/checked_at")),
                   "not_expired": (timing.not_expired, timing.NotExpiredParams(at="/checked_at"))}[kind]
    assert outcome(run, ctx({"checked_at": value}), params) == (status, message)


# --- hashes ---------------------------------------------------------------------------------

GOOD = "d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442"
EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
COMMIT = "e909f01dc265a2fd6cc06621c86a9717a9c1fc5a"

HASHES: list[tuple[str, str, str, str | None]] = [
    ("uri-ok", "sha256-uri", "sha256:" + GOOD, None),
    ("uri-uppercase-hex", "sha256-uri", "sha256:" + GOOD.upper(), "expected a sha256-uri"),
    ("uri-uppercase-prefix", "sha256-uri", "SHA256:" + GOOD, "expected a sha256-uri"),
    ("uri-no-prefix", "sha256-uri", GOOD, "expected a sha256-uri"),
    ("uri-other-prefix", "sha256-uri", "sha-256:" + GOOD, "expected a sha256-uri"),
    ("uri-63-hex", "sha256-uri", "sha256:" + GOOD[:-1], "expected a sha256-uri"),
    ("uri-65-hex", "sha256-uri", "sha256:" + GOOD + "0", "expected a sha256-uri"),
    ("uri-space-after-colon", "sha256-uri", "sha256: " + GOOD, "expected a sha256-uri"),
    ("uri-trailing-newline", "sha256-uri", "sha256:" + GOOD + "\n", "expected a sha256-uri"),
    ("uri-leading-space", "sha256-uri", " sha256:" + GOOD, "expected a sha256-uri"),
    ("uri-arabic-indic-digit", "sha256-uri", "sha256:" + GOOD[:-1] + "\u0663", "expected a sha256-uri"),
    ("uri-not-hex", "sha256-uri", "sha256:" + GOOD[:-1] + "g", "expected a sha256-uri"),
    ("uri-0x", "sha256-uri", "sha256:0x" + GOOD[2:], "expected a sha256-uri"),
    ("uri-all-zero", "sha256-uri", "sha256:" + "0" * 64, "a placeholder digest (all '0'), expected a real sha256-uri"),
    ("uri-all-f", "sha256-uri", "sha256:" + "f" * 64, "a placeholder digest (all 'f'), expected a real sha256-uri"),
    ("uri-empty-input", "sha256-uri", "sha256:" + EMPTY, "the SHA-256 of empty input, expected a real sha256-uri"),
    ("hex-ok", "sha256", GOOD, None),
    ("hex-all-zero", "sha256", "0" * 64, "a placeholder digest (all '0'), expected a real sha256"),
    ("hex-empty-input", "sha256", EMPTY, "the SHA-256 of empty input, expected a real sha256"),
    ("hex-uppercase", "sha256", GOOD.upper(), "expected a sha256"),
    ("hex-with-prefix", "sha256", "sha256:" + GOOD, "expected a sha256"),
    ("hex-fullwidth-digit", "sha256", GOOD[:-1] + "\uff10", "expected a sha256"),
    ("commit-ok", "commit", COMMIT, None),
    ("commit-all-zero", "commit", "0" * 40, "a placeholder digest (all '0'), expected a real commit"),
    ("commit-short", "commit", COMMIT[:7], "expected a full 40-hex commit SHA in lowercase (a short SHA is ambiguous: as a repository grows, more commits share its prefix)"),
    ("commit-uppercase", "commit", COMMIT.upper(), "expected a full 40-hex commit SHA in lowercase (a short SHA is ambiguous: as a repository grows, more commits share its prefix)"),
    ("commit-trailing-tab", "commit", COMMIT + "\t", "expected a full 40-hex commit SHA in lowercase (a short SHA is ambiguous: as a repository grows, more commits share its prefix)"),
    ("commit-not-hex", "commit", "g" * 40, "expected a full 40-hex commit SHA in lowercase (a short SHA is ambiguous: as a repository grows, more commits share its prefix)"),
    ("commit-arabic-indic-digit", "commit", COMMIT[:-1] + "\u0661", "expected a full 40-hex commit SHA in lowercase (a short SHA is ambiguous: as a repository grows, more commits share its prefix)"),
]


@pytest.mark.parametrize(("pattern", "value", "reason"), [r[1:] for r in HASHES], ids=[r[0] for r in HASHES])
def test_named_hash_patterns(pattern: str, value: str, reason: str | None) -> None:
    params = fields.FieldsParams(fields=[fields.FieldSpec(path="/h", type="string", pattern=pattern)])
    status, message = outcome(fields.fields, ctx({"h": value}), params)
    if reason is None:
        assert status == "pass"
    else:
        assert (status, message) == ("fail", f"/h is {json.dumps(value, ensure_ascii=False)}, {reason}")


def test_empty_hash_string_is_empty() -> None:
    params = fields.FieldsParams(fields=[fields.FieldSpec(path="/h", type="string", pattern="sha256")])
    assert outcome(fields.fields, ctx({"h": ""}), params) == ("fail", "/h is empty")


def evidence(sha: str, size: int) -> Doc:
    return Doc("evidence", "evidence.jsonl", sha, size, rows=())


@pytest.mark.parametrize(("recorded", "file_sha", "size", "status", "message"), [
    (GOOD, GOOD, 10, "pass", f"sha256 {GOOD[:12]}… matches the evidence file evidence.jsonl (10 bytes)"),
    (GOOD.upper(), GOOD, 10, "fail", f'sha256 "{GOOD.upper()}" is not 64 lowercase hex characters'),
    ("sha256:" + GOOD, GOOD, 10, "fail", f'sha256 "sha256:{GOOD}" is not 64 lowercase hex characters'),
    (" " + GOOD, GOOD, 10, "fail", f'sha256 " {GOOD}" is not 64 lowercase hex characters'),
    (GOOD[:-1], GOOD, 10, "fail", f'sha256 "{GOOD[:-1]}" is not 64 lowercase hex characters'),
    ("0" * 64, GOOD, 10, "fail", f"sha256 000000000000… does not match the evidence file evidence.jsonl "
                                 f"(sha256 {GOOD[:12]}…)"),
    (EMPTY, EMPTY, 0, "fail", "the evidence file evidence.jsonl is empty (0 bytes): there is no evidence to hash"),
    (123, GOOD, 10, "fail", "sha256 must be a 64-hex string, got integer 123"),
], ids=["matches", "uppercase", "prefixed", "leading-space", "63-hex", "all-zero", "empty-file", "number"])
def test_sha256_matches(recorded: Any, file_sha: str, size: int, status: str, message: str) -> None:
    context = ctx({"sha256": recorded}, evidence=evidence(file_sha, size))
    params = integrity.Sha256Params(document="evidence", recorded="/sha256", label="sha256")
    assert outcome(integrity.sha256_matches, context, params) == (status, message)
