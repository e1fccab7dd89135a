"""The public-URL policy: check kind ``public_url`` and the pure function :func:`url_problem`."""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from collections.abc import Iterable

import validators

from bench_gate.records import field, record
from bench_gate.checks.base import (
    described,
    kind,
    FORBID, MISSING, Context, Fail, failed, jsonable, lookup, passed, show, skipped,
    tokens, type_name,
)
from bench_gate.models import Finding

DEFAULT_MAX_LENGTH = 2048

RESERVED_TLDS: frozenset[str] = frozenset({
    # RFC 2606 / RFC 6761 special-use names
    "example", "test", "invalid", "localhost",
    # RFC 6762 multicast DNS; ICANN's private-use .internal; RFC 7686 .onion; RFC 9476 .alt
    "local", "internal", "onion", "alt",
    # infrastructure: in-addr.arpa, ip6.arpa, home.arpa (RFC 8375)
    "arpa",
    # names ICANN will not delegate because private networks use them
    "home", "lan", "corp", "intranet", "private", "localdomain", "mail",
})

RESERVED_DOMAINS: frozenset[str] = frozenset({
    # RFC 2606 second-level example domains (IANA also holds example.edu)
    "example.com", "example.net", "example.org", "example.edu",
    # wildcard DNS that answers any embedded IP, e.g. 127.0.0.1.nip.io -> 127.0.0.1
    "nip.io", "sslip.io", "xip.io", "localtest.me", "lvh.me", "vcap.me",
})

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_DIGITS = re.compile(r"[0-9]+")
_HEX = re.compile(r"0[xX][0-9A-Fa-f]*")

# IPv6 ranges that carry an IPv4 address: judge the IPv4 address inside
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")
_V4_COMPAT = ipaddress.IPv6Network("::/96")


def _ipv4_problem(addr: ipaddress.IPv4Address) -> str | None:
    if addr.is_loopback:
        return "a loopback address"
    if addr.is_unspecified:
        return "the unspecified address"
    if addr.is_link_local:
        return "a link-local address"
    if addr.is_multicast:
        return "a multicast address"
    if addr.is_private:
        return "a private or special-purpose address"
    if addr.is_reserved:
        return "a reserved address"
    if not addr.is_global:
        return "not a globally routable address"
    return None


def _ipv6_problem(addr: ipaddress.IPv6Address) -> str | None:
    inner: ipaddress.IPv4Address | None = None
    how = ""
    if addr.ipv4_mapped is not None:
        inner, how = addr.ipv4_mapped, "IPv4-mapped"
    elif addr.sixtofour is not None:
        inner, how = addr.sixtofour, "6to4"
    elif addr.teredo is not None:
        inner, how = addr.teredo[1], "Teredo"
    elif addr in _NAT64 or addr in _NAT64_LOCAL:
        inner, how = ipaddress.IPv4Address(int(addr) & 0xFFFFFFFF), "NAT64"
    elif addr in _V4_COMPAT and int(addr) > 1:
        inner, how = ipaddress.IPv4Address(int(addr) & 0xFFFFFFFF), "IPv4-compatible"
    if inner is not None:
        problem = _ipv4_problem(inner)
        if problem:
            article = "an" if how.startswith("IPv4") else "a"
            return f"{article} {how} IPv6 address for {inner}, {problem}"
        if how in ("IPv4-compatible", "Teredo"):
            return f"a deprecated {how} IPv6 address"
        return None
    if addr.is_loopback:
        return "the IPv6 loopback address"
    if addr.is_unspecified:
        return "the IPv6 unspecified address"
    if addr.is_link_local:
        return "an IPv6 link-local address"
    if addr.is_site_local:
        return "an IPv6 site-local address"
    if addr.is_multicast:
        return "an IPv6 multicast address"
    if addr.is_private:
        return "a private or special-purpose IPv6 address"
    if addr.is_reserved:
        return "a reserved IPv6 address"
    if not addr.is_global:
        return "not a globally routable IPv6 address"
    return None


def _parse_ipv4_loose(host: str) -> tuple[int | None, str]:
    """Parse an IPv4 host the way browsers do (WHATWG): (value or None, notation name)."""
    parts = host.split(".")
    if len(parts) > 4:
        return None, "too many parts"
    values: list[int] = []
    notation = "dotted-decimal"
    for part in parts:
        if part == "":
            return None, "an empty part"
        if _HEX.fullmatch(part):
            digits = part[2:]
            values.append(int(digits, 16) if digits else 0)
            notation = "hex"
        elif _DIGITS.fullmatch(part):
            if len(part) > 1 and part.startswith("0"):
                values.append(int(part, 8) if all(c in "01234567" for c in part) else -1)
                if values[-1] < 0:
                    return None, "an invalid octal part"
                notation = "octal" if notation != "hex" else notation
            else:
                values.append(int(part))
        else:
            return None, "a part that is not a number"
    if len(values) == 1:
        kind = "integer" if notation == "dotted-decimal" else notation
    elif len(values) < 4:
        kind = "shorthand" if notation == "dotted-decimal" else f"shorthand {notation}"
    else:
        kind = notation
    if any(v > 255 for v in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        return None, "a part out of range"
    number = values[-1]
    for i, v in enumerate(values[:-1]):
        number += v << (8 * (3 - i))
    return number, kind


def _host_problem(host: str, blocked: frozenset[str]) -> str | None:
    if host == "":
        return "has no host"
    if host.startswith("["):
        if not host.endswith("]"):
            return f"host {host!r} is an unterminated IPv6 literal"
        inner = host[1:-1]
        if "%" in inner:
            return f"host {host!r} has an IPv6 zone id"
        if not validators.ipv6(inner, cidr=False):
            return f"host {host!r} is not a valid IPv6 address"
        problem = _ipv6_problem(ipaddress.IPv6Address(inner))
        return f"host {host} is {problem}" if problem else None
    if "[" in host or "]" in host:
        return f"host {host!r} contains a bracket"
    if "%" in host:
        return f"host {host!r} contains a percent-escape"
    lower = host.lower()
    if lower.endswith("."):
        return f"host {host!r} ends with a dot (a fully qualified spelling that evades name checks)"
    labels = lower.split(".")
    last = labels[-1]
    if _DIGITS.fullmatch(last) or _HEX.fullmatch(last):
        value, kind = _parse_ipv4_loose(lower)
        if value is None:
            return f"host {host!r} ends in a number but is not a valid IPv4 address ({kind})"
        addr = ipaddress.IPv4Address(value)
        problem = _ipv4_problem(addr)
        canonical = str(addr)
        if lower != canonical or not validators.ipv4(lower, cidr=False):
            what = f", {problem}" if problem else ""
            return (f"host {host!r} is an IPv4 address in {kind} notation ({canonical}{what}); "
                    "write a domain name or a canonical public address")
        return f"host {host} is {problem}" if problem else None
    for label in labels:
        if label == "":
            return f"host {host!r} has an empty label"
        if label.startswith("xn--"):
            return (f"host {host!r} has an internationalized (punycode) label {label!r} that may "
                    "imitate another name; use an ASCII domain")
    if last in RESERVED_TLDS:
        return f"host {host!r} is in the reserved or private top-level domain .{last}"
    if len(labels) < 2:
        return f"host {host!r} is a single-label name, not a public domain"
    if not last.isalpha() or len(last) < 2:
        return f"host {host!r} has an invalid top-level label {last!r}"
    if not validators.domain(lower):
        return (f"host {host!r} is not a valid domain name (labels of 1-63 letters, digits and inner "
                "hyphens, at most 253 characters)")
    for i in range(len(labels) - 1):
        suffix = ".".join(labels[i:])
        if suffix in RESERVED_DOMAINS or suffix in blocked:
            which = "is" if i == 0 else "is a subdomain of"
            return f"host {host!r} {which} the reserved or placeholder domain {suffix}"
    return None


def url_problem(url: str, max_length: int = DEFAULT_MAX_LENGTH,
                blocked_domains: Iterable[str] = ()) -> str | None:
    """Why ``url`` is not a public reviewable HTTP(S) URL, or None when it is one."""
    if url == "":
        return "is empty"
    if len(url) > max_length:
        return f"is {len(url)} characters long (limit {max_length})"
    for i, ch in enumerate(url):
        if ord(ch) > 126 or ord(ch) < 33:
            name = unicodedata.name(ch, "") or "control character"
            where = "whitespace or a control character" if (ch.isspace() or ord(ch) < 33 or ord(ch) == 127) \
                else "a non-ASCII character"
            return f"contains {where} U+{ord(ch):04X} {name} at position {i}".rstrip()
    if "\\" in url:
        return "contains a backslash (browsers read it as '/', which moves the host)"
    m = _SCHEME.match(url)
    if not m:
        return "has no scheme; expected http:// or https://"
    scheme = m.group(1).lower()
    if scheme not in ("http", "https"):
        return f"has scheme {m.group(1)!r}; only http and https are reviewable"
    rest = url[m.end():]
    if not rest.startswith("//") or rest.startswith("///"):
        return "is not of the form http(s)://host/..."
    rest = rest[2:]
    end = len(rest)
    for sep in "/?#":
        pos = rest.find(sep)
        if pos != -1:
            end = min(end, pos)
    authority = rest[:end]
    if "@" in authority:
        return "has userinfo (user@ or user:password@) before the host"
    host, port = authority, None
    if authority.startswith("["):
        close = authority.find("]")
        if close != -1 and close + 1 < len(authority):
            host, tail = authority[: close + 1], authority[close + 1:]
            if not tail.startswith(":"):
                return f"has text {tail!r} after the IPv6 host"
            port = tail[1:]
    elif ":" in authority:
        host, port = authority.split(":", 1)
    if port is not None:
        if not (port.isascii() and port.isdigit() and len(port) <= 5) or not 1 <= int(port) <= 65535:
            return f"has an invalid port {port!r}"
    blocked = frozenset(d.lower().rstrip(".") for d in blocked_domains)
    problem = _host_problem(host, blocked)
    if problem is None and not validators.url(url, strict_query=False):
        # the host passed the policy; the rest of the URL (path, query, fragment) must be valid too
        return "is not a valid URL"
    return problem


@record
class PublicUrlParams:
    __pydantic_config__ = FORBID
    at: str
    optional: bool = False
    max_length: int = DEFAULT_MAX_LENGTH
    blocked_domains: list[str] = field(default_factory=list)
    label: str | None = None

    def __post_init__(self) -> None:
        if self.max_length < 1:
            raise ValueError(f"max_length must be 1 or more, got {self.max_length}")


def _label(role: str, pointer: str, label: str | None) -> str:
    if label:
        return label
    name = ".".join(tokens(pointer)) or "url"
    return name if role == "report" else f"{role} {name}"


@kind("public_url", PublicUrlParams, "a URL is public, reviewable http(s): no private, local, reserved or disguised host")
def public_url(ctx: Context, p: PublicUrlParams) -> Iterable[Finding]:
    """The public-URL policy: check kind ``public_url`` and the pure function :func:`url_problem`.

    An evidence URL must let a stranger review the evidence: a public, plain HTTP(S) address.
    The check is **offline** (no DNS, no fetch) and refuses every spelling that hides a private,
    local or placeholder target:

    * scheme ``http`` or ``https`` followed by ``//`` and a host (no ``javascript:``, ``data:``,
      ``file:``, ``ftp:``, ``https:host`` or ``https:///host``);
    * ASCII only, no whitespace, control or invisible characters, no backslash, at most
      ``max_length`` characters (default 2048);
    * no userinfo (``https://user:pass@host``, ``https://good.org@evil.test``);
    * the host is a domain name of at least two labels (letters, digits and inner hyphens, 1-63
      characters), a letter-only top-level label, no trailing dot, no empty label, no
      percent-escape, no ``xn--`` (punycode) label, because an internationalized name
      can imitate another one (``exаmple.org`` with a Cyrillic ``а``) and offline nothing can tell
      which is meant;
    * no reserved, special-use or placeholder name, nor any subdomain of one:
      ``example``/``test``/``invalid``/``localhost``/``local``/``internal``/``onion``/``alt``/
      ``arpa`` (incl. ``home.arpa``)/``home``/``lan``/``corp``/``intranet``/``private``/
      ``localdomain`` top-level labels, ``example.com``/``.net``/``.org``/``.edu``, and the
      wildcard-DNS services that map a name to any IP (``nip.io``, ``sslip.io``, ``xip.io``,
      ``localtest.me``, ``lvh.me``, ``vcap.me``); ``blocked_domains`` adds more;
    * an IP literal only when it is globally routable and written canonically: IPv4 as a dotted
      quad of plain decimals; integer (``2130706433``), hex (``0x7f.0.0.1``), octal (``0177.0.0.1``)
      and shorthand (``127.1``) forms are refused in every case, naming the address they mean;
      IPv6 in brackets, with IPv4-mapped (``::ffff:127.0.0.1``), IPv4-compatible, NAT64, 6to4 and
      Teredo addresses judged by the IPv4 address inside; zone ids are refused;
    * a port, when given, is 1-65535.

    The syntax (a valid URL, domain name, IPv4 or IPv6 address) is decided by the ``validators``
    library; the rules above are the policy on top of it, and stricter: ``validators.url`` accepts
    ``file:///etc/passwd``, ``https://example.com/``, ``http://[::1]/`` and ``http://100.64.0.1/``
    (shared address space), and the gate refuses each of them with the reason.

    What an offline check cannot see: a public name whose DNS points at a private address
    (DNS rebinding), a page that redirects elsewhere, a page that requires a login or no longer
    exists, or a look-alike spelled entirely in ASCII (``examp1e.org``). The gate proves that the
    URL is *shaped* like a public reviewable address; a reviewer still has to open it.

    public_url
        Params: ``at`` (ref, required), ``optional`` (default false: a missing or null URL fails;
        true: it is skipped), ``max_length`` (default 2048), ``blocked_domains`` (extra domains
        refused with their subdomains, default none), ``label``.

        .. code-block:: yaml

           - id: baseline-evidence-url-public
             check: public_url
             with: {at: "baseline:/evidence_url"}
    """
    value, role, pointer = lookup(ctx, p.at)
    name = _label(role, pointer, p.label)
    if value is MISSING or value is None:
        if p.optional:
            yield skipped(f"{name} is not given (optional)", pointer, role)
            return
        state = "missing" if value is MISSING else "null"
        raise Fail(f"{name} is {state}", pointer, role, None, "a public http(s) URL")
    if not isinstance(value, str):
        raise Fail(f"{name} must be a URL string, got {described(value)}",
                   pointer, role, jsonable(value), "a public http(s) URL")
    problem = url_problem(value, p.max_length, p.blocked_domains)
    shown = show(value, 100)
    if problem:
        yield failed(f"{name} {shown} {problem}", pointer, role, value, "a public http(s) URL")
    else:
        yield passed(f"{name} {shown} is a public http(s) URL", pointer, role, value,
                     "a public http(s) URL")
