"""The one gate for every URL that sitegen writes into an ``href`` or a ``src``: the scheme
allow-list of the raw-HTML sanitizer, read the way a browser reads a URL.

Every emitter asks ``allowed_url`` (content/guides/safety.md, "Links that cannot run"): the
sanitizer for the author's HTML, the link substitution for markdown links, wikilinks,
autorefs, images and the links in callout and tab titles, the MathML filter, and the
templates' ``href`` filter. A new syntax that writes a URL goes through it too, so it cannot
forget the rule. It also says which hosts only the author's own machine or network can reach
(``is_private_url``): such links stay in the page but leave nothing other sites read.
Pure: never reads files.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

#: Schemes a link may use; a URL without a scheme (relative, ``#x``, ``/x``, ``//host``) is
#: always allowed. The sanitizer's allow-list, after GitHub's html-pipeline.
LINK_SCHEMES = frozenset({"http", "https", "mailto", "tel", "ftp", "ftps", "irc", "ircs", "xmpp"})
#: Schemes a link a reader clicks may use, never a URL a page loads by itself (``src``):
#: ``obsidian:`` opens a note in the reader's own Obsidian app, and a vault's pages link
#: to it (content/guides/safety.md#links-that-cannot-run).
HREF_ONLY_SCHEMES = frozenset({"obsidian"})
#: ``data:`` is allowed only as an image (``<img src>``, ``srcset``), only for image types.
_DATA_IMAGE = "data:image/"
#: What the URL parser strips before it reads a scheme: leading and trailing C0 controls and
#: spaces, and every tab and newline anywhere (the WHATWG URL standard).
_EDGES = "".join(map(chr, range(0x21)))
_TAB_OR_NEWLINE = re.compile("[\t\n\r]")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")


def as_read(url: str) -> str:
    """``url`` as a browser reads it: without the spaces and controls around it and the tabs
    and newlines inside it."""
    return _TAB_OR_NEWLINE.sub("", url.strip(_EDGES))


def url_scheme(url: str) -> str | None:
    """The scheme a browser would read from ``url``, lower-cased, or None for a relative URL."""
    found = _SCHEME.match(as_read(url))
    return found.group(1).lower() if found else None


def allowed_url(url: str, *, image: bool = False, href: bool = False) -> bool:
    """Whether ``url`` may be written into a page: no scheme, an allowed one, for an
    ``href`` one of ``HREF_ONLY_SCHEMES`` too, or, for an image, ``data:image/…``.
    ``javascript:``, ``vbscript:``, ``file:``, other ``data:`` and every unknown scheme are
    refused, however they are spelled (case, spaces, controls)."""
    scheme = url_scheme(url)
    if scheme is None or scheme in LINK_SCHEMES:
        return True
    if scheme in HREF_ONLY_SCHEMES:
        return href and not image
    if scheme == "data" and image:
        compact = _TAB_OR_NEWLINE.sub("", url.strip(_EDGES)).lower()
        return compact.startswith(_DATA_IMAGE)
    return False


def refusal(url: str) -> str:
    """Why ``url`` is refused, in the words of a diagnostic's message."""
    scheme = url_scheme(url) or ""
    return f"the scheme '{scheme}:' is not one a page may link to; it is published as text"


def _host(url: str) -> str:
    """The host of an absolute URL, lower-cased, without a trailing dot or IPv6 brackets;
    "" when there is none or the URL cannot be parsed."""
    try:
        return (urlsplit(as_read(url)).hostname or "").rstrip(".").lower()
    except ValueError:
        return ""


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.partition("%")[0])  # fe80::1%eth0: the zone is no address
    except ValueError:
        return None


def is_loopback(url: str) -> bool:
    """Whether ``url`` names this machine: ``localhost``, a name under ``.localhost``, a
    loopback address (``127.0.0.0/8``, ``[::1]``) or the unspecified one (``0.0.0.0``,
    ``[::]``). The filter federation ingest applies to a peer's targets (issue 22)."""
    host = _host(url)
    if host == "localhost" or host.endswith(".localhost"):
        return True
    addr = _address(host)
    return addr is not None and (addr.is_loopback or addr.is_unspecified)


def is_private_url(url: str) -> bool:
    """Whether only the author's machine or network can reach ``url``: a loopback host
    (``is_loopback``), or a private or link-local address (``10.0.0.0/8``, ``172.16.0.0/12``,
    ``192.168.0.0/16``, ``169.254.0.0/16``, ``fc00::/7``, ``fe80::/10``). Such a link is kept
    in the page as written, but is no edge: it never reaches ``graph.md``, ``graph.json`` or
    a peer that reads them (content/guides/linking.md#links-to-your-own-machine)."""
    if is_loopback(url):
        return True
    addr = _address(_host(url))
    if addr is None:
        return False
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    return addr.is_private or addr.is_link_local
