"""The public-URL policy: every disguise of a private, local or placeholder target is refused."""

from __future__ import annotations

import ipaddress
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from bench_gate.checks.generic.urls import PublicUrlParams, public_url, url_problem
from bench_gate.models import Finding

import kindtest
from kindtest import doc

NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)

PUBLIC = [
    ("https://omegamax.co/benchmarks", "real-baseline"),
    ("https://validation.openmemory.dev/reviewable-run", "seed-validator"),
    ("https://github.com/xiaowu0162/LongMemEval", "github"),
    ("http://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned?x=1#top", "query-fragment"),
    ("HTTPS://GitHub.COM/A", "upper-case"),
    ("https://github.com:443/a", "port"),
    ("http://8.8.8.8/results", "global-ipv4"),
    ("https://[2606:4700:4700::1111]/", "global-ipv6"),
    ("https://a-b.c-d.org/%7Euser", "hyphens-and-escapes-in-path"),
]


@pytest.mark.parametrize("url", [u for u, _ in PUBLIC], ids=[i for _, i in PUBLIC])
def test_public(url: str) -> None:
    assert url_problem(url) is None


REFUSED = [
    # schemes and shape
    ("", "is empty", "empty"),
    ("javascript:alert(1)", "has scheme 'javascript'; only http and https are reviewable", "javascript"),
    ("data:text/html,hi", "has scheme 'data'; only http and https are reviewable", "data"),
    ("file:///etc/passwd", "has scheme 'file'; only http and https are reviewable", "file"),
    ("ftp://github.com/x", "has scheme 'ftp'; only http and https are reviewable", "ftp"),
    ("github.com/x", "has no scheme; expected http:// or https://", "no-scheme"),
    ("https:github.com", "is not of the form http(s)://host/...", "no-slashes"),
    ("https:///github.com", "is not of the form http(s)://host/...", "three-slashes"),
    ("https://", "has no host", "no-host"),
    # characters
    ("https://github.com /x", "contains whitespace or a control character U+0020 SPACE at position 18", "space"),
    (" https://github.com", "contains whitespace or a control character U+0020 SPACE at position 0", "leading-space"),
    ("https://github.com\t", "contains whitespace or a control character U+0009 control character at position 18",
     "tab"),
    ("https://github.com/\u200b", "contains a non-ASCII character U+200B ZERO WIDTH SPACE at position 19",
     "zero-width"),
    ("https://gith\u0443b.com/", "contains a non-ASCII character U+0443 CYRILLIC SMALL LETTER U at position 12",
     "cyrillic-lookalike"),
    ("https://\uff45xample.com/", "contains a non-ASCII character U+FF45 FULLWIDTH LATIN SMALL LETTER E at position 8",
     "fullwidth"),
    ("https://github.com\u202e/x", "contains a non-ASCII character U+202E RIGHT-TO-LEFT OVERRIDE at position 18",
     "bidi-override"),
    ("https://github.com\\@evil.org/", "contains a backslash (browsers read it as '/', which moves the host)",
     "backslash"),
    ("https://github.com/" + "a" * 2100, "is 2119 characters long (limit 2048)", "too-long"),
    # userinfo
    ("https://user:pw@github.com/", "has userinfo (user@ or user:password@) before the host", "userinfo"),
    ("https://github.com@evil.org/", "has userinfo (user@ or user:password@) before the host", "at-trick"),
    # reserved names
    ("http://localhost/", "host 'localhost' is in the reserved or private top-level domain .localhost", "localhost"),
    ("http://LocalHost:8080/", "host 'LocalHost' is in the reserved or private top-level domain .localhost",
     "localhost-case"),
    ("http://api.localhost/", "host 'api.localhost' is in the reserved or private top-level domain .localhost",
     "localhost-sub"),
    ("https://example.com/", "host 'example.com' is the reserved or placeholder domain example.com", "example-com"),
    ("https://docs.example.com/x", "host 'docs.example.com' is a subdomain of the reserved or placeholder domain "
                                   "example.com", "example-subdomain"),
    ("https://a.b.example.org/", "host 'a.b.example.org' is a subdomain of the reserved or placeholder domain "
                                 "example.org", "example-org-deep"),
    ("https://example.net/", "host 'example.net' is the reserved or placeholder domain example.net", "example-net"),
    ("https://site.example/", "host 'site.example' is in the reserved or private top-level domain .example",
     "dot-example"),
    ("https://foo.test/", "host 'foo.test' is in the reserved or private top-level domain .test", "dot-test"),
    ("https://foo.invalid/", "host 'foo.invalid' is in the reserved or private top-level domain .invalid",
     "dot-invalid"),
    ("https://printer.local/", "host 'printer.local' is in the reserved or private top-level domain .local",
     "dot-local"),
    ("https://wiki.internal/", "host 'wiki.internal' is in the reserved or private top-level domain .internal",
     "dot-internal"),
    ("https://router.home.arpa/", "host 'router.home.arpa' is in the reserved or private top-level domain .arpa",
     "home-arpa"),
    ("https://abc.onion/", "host 'abc.onion' is in the reserved or private top-level domain .onion", "onion"),
    ("https://127.0.0.1.nip.io/", "host '127.0.0.1.nip.io' is a subdomain of the reserved or placeholder domain "
                                  "nip.io", "nip-io"),
    ("https://example.com./", "host 'example.com.' ends with a dot (a fully qualified spelling that evades name "
                              "checks)", "trailing-dot"),
    ("https://github.com../", "host 'github.com..' ends with a dot (a fully qualified spelling that evades name "
                              "checks)", "double-trailing-dot"),
    ("https://a..github.com/", "host 'a..github.com' has an empty label", "empty-label"),
    ("https://intranet/", "host 'intranet' is in the reserved or private top-level domain .intranet", "intranet"),
    ("https://wiki/", "host 'wiki' is a single-label name, not a public domain", "single-label"),
    ("https://xn--exmple-cua.com/", "host 'xn--exmple-cua.com' has an internationalized (punycode) label "
                                    "'xn--exmple-cua' that may imitate another name; use an ASCII domain", "punycode"),
    ("https://git_hub.com/", "host 'git_hub.com' is not a valid domain name (labels of 1-"
                             "63 letters, digits and inner hyphens, at most 253 characters)", "underscore"),
    ("https://%65xample.com/", "host '%65xample.com' contains a percent-escape", "percent-host"),
    # IPv4 in every notation
    ("http://127.0.0.1/", "host 127.0.0.1 is a loopback address", "loopback"),
    ("http://10.1.2.3/", "host 10.1.2.3 is a private or special-purpose address", "rfc1918-10"),
    ("http://192.168.1.1/", "host 192.168.1.1 is a private or special-purpose address", "rfc1918-192"),
    ("http://172.16.0.1/", "host 172.16.0.1 is a private or special-purpose address", "rfc1918-172"),
    ("http://169.254.169.254/latest", "host 169.254.169.254 is a link-local address", "metadata-service"),
    ("http://100.64.0.1/", "host 100.64.0.1 is not a globally routable address", "cgnat"),
    ("http://0.0.0.0/", "host 0.0.0.0 is the unspecified address", "unspecified"),
    ("http://224.0.0.1/", "host 224.0.0.1 is a multicast address", "multicast"),
    ("http://192.0.2.1/", "host 192.0.2.1 is a private or special-purpose address", "documentation-net"),
    ("http://2130706433/", "host '2130706433' is an IPv4 address in integer notation (127.0.0.1, a loopback "
                           "address); write a domain name or a canonical public address", "integer"),
    ("http://0x7f000001/", "host '0x7f000001' is an IPv4 address in hex notation (127.0.0.1, a loopback "
                           "address); write a domain name or a canonical public address", "hex-integer"),
    ("http://0x7f.0.0.1/", "host '0x7f.0.0.1' is an IPv4 address in hex notation (127.0.0.1, a loopback "
                           "address); write a domain name or a canonical public address", "hex-dotted"),
    ("http://0177.0.0.1/", "host '0177.0.0.1' is an IPv4 address in octal notation (127.0.0.1, a loopback "
                           "address); write a domain name or a canonical public address", "octal"),
    ("http://127.1/", "host '127.1' is an IPv4 address in shorthand notation (127.0.0.1, a loopback address); "
                      "write a domain name or a canonical public address", "shorthand"),
    ("http://10.0.258/", "host '10.0.258' is an IPv4 address in shorthand notation (10.0.1.2, a private or "
                         "special-purpose address); write a domain name or a canonical public address",
     "shorthand-carry"),
    ("http://0x08080808/", "host '0x08080808' is an IPv4 address in hex notation (8.8.8.8); write a domain name "
                           "or a canonical public address", "hex-public"),
    ("http://0/", "host '0' is an IPv4 address in integer notation (0.0.0.0, the unspecified address); write a "
                  "domain name or a canonical public address", "zero"),
    ("http://1.2.3.4.5/", "host '1.2.3.4.5' ends in a number but is not a valid IPv4 address (too many parts)",
     "five-parts"),
    ("http://256.1.1.1/", "host '256.1.1.1' ends in a number but is not a valid IPv4 address (a part out of range)",
     "out-of-range"),
    ("http://09.1.1.1/", "host '09.1.1.1' ends in a number but is not a valid IPv4 address (an invalid octal part)",
     "bad-octal"),
    ("http://github.123/", "host 'github.123' ends in a number but is not a valid IPv4 address (a part that is not "
                           "a number)", "numeric-tld"),
    ("http://127.0.0.1./", "host '127.0.0.1.' ends with a dot (a fully qualified spelling that evades name checks)",
     "ip-trailing-dot"),
    # IPv6
    ("http://[::1]/", "host [::1] is the IPv6 loopback address", "v6-loopback"),
    ("http://[::]/", "host [::] is the IPv6 unspecified address", "v6-unspecified"),
    ("http://[fe80::1]/", "host [fe80::1] is an IPv6 link-local address", "v6-link-local"),
    ("http://[fc00::1]/", "host [fc00::1] is a private or special-purpose IPv6 address", "v6-ula"),
    ("http://[2001:db8::1]/", "host [2001:db8::1] is a private or special-purpose IPv6 address", "v6-documentation"),
    ("http://[ff02::1]/", "host [ff02::1] is an IPv6 multicast address", "v6-multicast"),
    ("http://[::ffff:127.0.0.1]/", "host [::ffff:127.0.0.1] is an IPv4-mapped IPv6 address for 127.0.0.1, a "
                                   "loopback address", "v4-mapped-dotted"),
    ("http://[::ffff:a00:1]/", "host [::ffff:a00:1] is an IPv4-mapped IPv6 address for 10.0.0.1, a private or "
                               "special-purpose address", "v4-mapped-hex"),
    ("http://[::127.0.0.1]/", "host [::127.0.0.1] is an IPv4-compatible IPv6 address for 127.0.0.1, a loopback "
                              "address", "v4-compatible"),
    ("http://[64:ff9b::10.0.0.1]/", "host [64:ff9b::10.0.0.1] is a NAT64 IPv6 address for 10.0.0.1, a private or "
                                    "special-purpose address", "nat64"),
    ("http://[2002:c0a8:101::]/", "host [2002:c0a8:101::] is a 6to4 IPv6 address for 192.168.1.1, a private or "
                                  "special-purpose address", "6to4"),
    ("http://[fe80::1%25eth0]/", "host '[fe80::1%25eth0]' has an IPv6 zone id", "zone-id"),
    ("http://[::1/", "host '[::1' is an unterminated IPv6 literal", "unterminated"),
    ("http://[github.com]/", "host '[github.com]' is not a valid IPv6 address", "not-v6"),
    # ports
    ("https://github.com:0/", "has an invalid port '0'", "port-zero"),
    ("https://github.com:65536/", "has an invalid port '65536'", "port-too-big"),
    ("https://github.com:/", "has an invalid port ''", "port-empty"),
    ("https://github.com:443:443/", "has an invalid port '443:443'", "port-twice"),
]


@pytest.mark.parametrize(("url", "problem"), [(u, p) for u, p, _ in REFUSED], ids=[i for _, _, i in REFUSED])
def test_refused(url: str, problem: str) -> None:
    assert url_problem(url) == problem


def test_blocked_domains_extend_the_list() -> None:
    assert url_problem("https://ci.corp-example.dev/x", blocked_domains=["corp-example.dev"]) == (
        "host 'ci.corp-example.dev' is a subdomain of the reserved or placeholder domain corp-example.dev")
    assert url_problem("https://corp-example.dev.evil.org/", blocked_domains=["corp-example.dev"]) is None


def run(params: PublicUrlParams, data: dict[str, Any]) -> Finding:
    found = kindtest.run(public_url, params, data, baseline=doc("baseline", data, path="b.json"))
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize(("ref", "optional", "data", "status", "message"), [
    ("baseline:/evidence_url", False, {"evidence_url": "https://omegamax.co/benchmarks"}, "pass",
     'baseline evidence_url "https://omegamax.co/benchmarks" is a public http(s) URL'),
    ("baseline:/evidence_url", False, {"evidence_url": "https://docs.example.com/x"}, "fail",
     'baseline evidence_url "https://docs.example.com/x" host \'docs.example.com\' is a subdomain of the reserved '
     "or placeholder domain example.com"),
    ("/result_provenance/validator/evidence_url", False,
     {"result_provenance": {"validator": {"evidence_url": "http://[::1]/run"}}}, "fail",
     'result_provenance.validator.evidence_url "http://[::1]/run" host [::1] is the IPv6 loopback address'),
    ("baseline:/evidence_url", False, {}, "fail", "baseline evidence_url is missing"),
    ("baseline:/evidence_url", False, {"evidence_url": None}, "fail", "baseline evidence_url is null"),
    ("baseline:/evidence_url", False, {"evidence_url": ["https://a.org"]}, "fail",
     'baseline evidence_url must be a URL string, got array ["https://a.org"]'),
    ("baseline:/currentness_url", True, {}, "skip", "baseline currentness_url is not given (optional)"),
    ("baseline:/currentness_url", True, {"currentness_url": "http://2130706433/"}, "fail",
     "baseline currentness_url \"http://2130706433/\" host '2130706433' is an IPv4 address in integer notation "
     "(127.0.0.1, a loopback address); write a domain name or a canonical public address"),
], ids=["pass", "example-subdomain", "validator-loopback", "missing", "null", "not-a-string", "optional-absent",
        "optional-present-bad"])
def test_public_url_kind(ref: str, optional: bool, data: dict[str, Any], status: str, message: str) -> None:
    finding = run(PublicUrlParams(at=ref, optional=optional), data)
    assert (finding.status, finding.message) == (status, message)


# --- every notation of every IPv4 address ------------------------------------------------

def _notations(value: int) -> list[str]:
    b = value.to_bytes(4, "big")
    return [
        str(value),                                              # integer
        hex(value),                                              # hex integer
        ".".join(hex(x) for x in b),                             # dotted hex
        ".".join("0" + oct(x)[2:] for x in b),                   # dotted octal
        f"{b[0]}.{int.from_bytes(b[1:], 'big')}",                # shorthand a.b
        f"{b[0]}.{b[1]}.{int.from_bytes(b[2:], 'big')}",         # shorthand a.b.c
    ]


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_every_ipv4_notation(value: int) -> None:
    addr = ipaddress.IPv4Address(value)
    canonical = url_problem(f"http://{addr}/x")
    public = addr.is_global and not addr.is_multicast and not addr.is_reserved
    assert (canonical is None) == public
    for host in _notations(value):
        if host == str(addr):
            continue
        problem = url_problem(f"http://{host}/x")
        assert problem is not None and str(addr) in problem, host
    mapped = url_problem(f"http://[::ffff:{addr}]/x")
    assert (mapped is None) == public


# The syntax is the validators library's; the public-URL policy is stricter. Every URL here is
# one `validators.url` accepts and the gate refuses, with the reason.
STRICTER = [
    ("file:///etc/passwd", "has scheme 'file'; only http and https are reviewable"),
    ("https://example.com/evidence", "host 'example.com' is the reserved or placeholder domain example.com"),
    ("https://sub.example.org/x",
     "host 'sub.example.org' is a subdomain of the reserved or placeholder domain example.org"),
    ("http://[::1]/", "host [::1] is the IPv6 loopback address"),
    ("http://100.64.0.1/", "host 100.64.0.1 is not a globally routable address"),
    ("http://100.127.255.254/leaderboard", "host 100.127.255.254 is not a globally routable address"),
    ("https://10.0.0.1/", "host 10.0.0.1 is a private or special-purpose address"),
    ("https://[::ffff:127.0.0.1]/",
     "host [::ffff:127.0.0.1] is an IPv4-mapped IPv6 address for 127.0.0.1, a loopback address"),
    ("https://user:pw@github.com/", "has userinfo (user@ or user:password@) before the host"),
    ("https://foo.test/", "host 'foo.test' is in the reserved or private top-level domain .test"),
    ("https://xn--e1afmkfd.org/",
     "host 'xn--e1afmkfd.org' has an internationalized (punycode) label 'xn--e1afmkfd' that may imitate another "
     "name; use an ASCII domain"),
]


@pytest.mark.parametrize(("url", "message"), STRICTER, ids=[u for u, _ in STRICTER])
def test_policy_is_stricter_than_the_syntax(url: str, message: str) -> None:
    import validators

    assert validators.url(url) is True
    assert url_problem(url) == message


@pytest.mark.parametrize("url", ["https://github.com/", "https://[2606:4700:4700::1111]/dns",
                                 "https://8.8.8.8/", "https://a.b.c.d.e.f.github.com/x?y#z"])
def test_public_urls_pass_both(url: str) -> None:
    import validators

    assert (bool(validators.url(url, strict_query=False)), url_problem(url)) == (True, None)


@pytest.mark.parametrize(("digest", "ok"), [
    ("a" * 64, True),
    ("A" * 64, False),          # validators.hashes.sha256 accepts upper case; recorded digests are lower case
    ("a" * 64 + "\n", False),   # a trailing newline is not part of a digest
    ("a" * 63, False),
    ("g" * 64, False),
    (64, False),
])
def test_sha256_syntax(digest: object, ok: bool) -> None:
    from bench_gate.text.digests import is_sha256_hex, is_sha256_uri

    assert (is_sha256_hex(digest), is_sha256_uri(f"sha256:{digest}")) == (ok, ok)
