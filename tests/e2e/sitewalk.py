"""Walk a built site: every relative href and src of every HTML file (and each redirect page's
meta refresh), and its fragment, as a browser follows them: from disk (``file://``) or served.

From disk a browser opens the file a path names and nothing else: a path ending in ``/`` or
naming a folder shows a listing of the folder, not its ``index.html``, so it counts as dead.
Served (a stdlib server in a thread, as a static host) a folder is its ``index.html``, and a
missing address gets the site's ``404.html`` with status 404, as hosts serve it.

Test support, and the real-repository measurement of the notes (``python -m
tests.e2e.sitewalk SITE``): reads the built files only.
"""

from __future__ import annotations

import functools
import http.server
import re
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, unquote, urljoin, urlsplit

_LINE_RANGE = re.compile(r"^(L\d+)-L\d+$")
_REFRESH = re.compile(r"^\s*\d+\s*;\s*url=(.*)$", re.IGNORECASE)
#: The page a host shows for a missing address. From disk nothing shows it for a miss, and
#: without base_url it has no ``<base>`` there (tests/e2e/test_browser_urls.py checks that).
NOT_FOUND = "404.html"


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.refs: list[str] = []
        self.base = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value for name, value in attrs if value is not None}
        if tag == "base" and "href" in values:
            self.base = values["href"]
        if tag == "meta" and values.get("http-equiv", "").lower() == "refresh":
            found = _REFRESH.match(values.get("content", ""))
            if found:
                self.refs.append(found.group(1).strip())
        for name, value in values.items():
            if name == "id" or (name == "name" and tag == "a"):
                self.ids.add(value)
            elif (name == "href" and tag in ("a", "link")) or (
                name == "src" and tag in ("img", "script")
            ):
                self.refs.append(value)


@dataclass
class Walk:
    pages: int = 0
    hrefs: int = 0
    dead: list[tuple[str, str]] = field(default_factory=list)  # (file, href)
    bad_fragments: list[tuple[str, str]] = field(default_factory=list)


def _parse_text(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    return page


def _parse(path: Path, cache: dict[Path, _Page]) -> _Page:
    if path not in cache:
        cache[path] = _parse_text(path.read_text(encoding="utf-8", errors="replace"))
    return cache[path]


def _fragment(parts_fragment: str) -> str:
    # GitHub's line range "#L3-L5" lands on its first line.
    return _LINE_RANGE.sub(r"\1", unquote(parts_fragment))


def walk_site(site: Path) -> Walk:
    """Follow every relative link of every page from disk, as ``file://`` does; a link
    written by the author to a file that does not exist counts as dead like any other."""
    out = Walk()
    cache: dict[Path, _Page] = {}
    for html in sorted(site.rglob("*.html")):
        out.pages += 1
        page = _parse(html, cache)
        for ref in page.refs:
            parts = urlsplit(ref)
            if parts.scheme or ref.startswith("//"):
                continue
            out.hrefs += 1
            where = str(html.relative_to(site))
            if parts.path.startswith("/"):
                out.dead.append((where, ref))  # the root of the disk, not of the site
                continue
            target = (html.parent / unquote(parts.path)).resolve() if parts.path else html
            if not target.is_file():  # a folder is a listing from disk, not its index.html
                out.dead.append((where, ref))
                continue
            fragment = _fragment(parts.fragment)
            if fragment and target.suffix == ".html" and fragment not in _parse(target, cache).ids:
                out.bad_fragments.append((where, ref))
    return out


class _Handler(http.server.SimpleHTTPRequestHandler):
    """A static host: the site under ``prefix``, ``404.html`` for a missing address."""

    prefix = "/"

    def send_head(self):  # type: ignore[no-untyped-def]
        path = urlsplit(self.path).path
        inside = path.startswith(self.prefix.rstrip("/") + "/") or path == self.prefix.rstrip("/")
        self.path = "/" + path[len(self.prefix) :]
        local = Path(self.translate_path(self.path))
        if inside and (local.is_file() or (local / "index.html").is_file()):
            return super().send_head()
        self._not_found()
        return None

    def _not_found(self) -> None:
        page = Path(self.directory) / NOT_FOUND
        data = page.read_bytes() if page.is_file() else b"not found"
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def served(site: Path, prefix: str = "/") -> Iterator[str]:
    """The site served on a free port under ``prefix``; yields its root URL."""
    handler = functools.partial(
        type("Handler", (_Handler,), {"prefix": prefix}), directory=str(site)
    )
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class _Fetched:
    status: int
    url: str  # after redirects
    page: _Page | None  # parsed when HTML


def _fetch(url: str, cache: dict[str, _Fetched]) -> _Fetched:
    if url not in cache:
        # as a browser sends it: spaces and other characters a request line cannot hold, encoded
        sent = quote(url, safe=":/?#[]@!$&'()*+,;=%~")
        try:
            with urllib.request.urlopen(sent, timeout=10) as response:
                body, status, final = response.read(), response.status, response.geturl()
                kind = response.headers.get_content_type()
        except urllib.error.HTTPError as exc:
            body, status, final, kind = exc.read(), exc.code, url, "text/html"
        except (urllib.error.URLError, ValueError):
            body, status, final, kind = b"", 0, url, ""
        page = _parse_text(body.decode("utf-8", "replace")) if kind == "text/html" else None
        cache[url] = _Fetched(status, final, page)
    return cache[url]


def walk_served(site: Path, root: str, public: str = "", missing: tuple[str, ...] = ()) -> Walk:
    """Follow every href of every page of ``site`` served at ``root`` (see ``served``), and of
    the 404 page shown at each ``missing`` address (relative to ``root``). An href to the
    ``public`` URL (``base_url``) is followed on the local server."""
    out = Walk()
    cache: dict[str, _Fetched] = {}
    starts = [root + p.relative_to(site).as_posix() for p in sorted(site.rglob("*.html"))]
    starts += [root + m for m in missing]
    for start in starts:
        fetched = _fetch(start, cache)
        if fetched.page is None:
            continue
        out.pages += 1
        base = urljoin(fetched.url, _local(fetched.page.base, public, root))
        for ref in fetched.page.refs:
            url = urljoin(base, _local(ref, public, root))
            if urlsplit(url).netloc != urlsplit(root).netloc:
                continue  # another site
            out.hrefs += 1
            where = start[len(root) :]
            target = _fetch(url.partition("#")[0], cache)
            if target.status != 200:
                out.dead.append((where, ref))
                continue
            fragment = _fragment(urlsplit(url).fragment)
            if fragment and target.page is not None and fragment not in target.page.ids:
                out.bad_fragments.append((where, ref))
    return out


def _local(url: str, public: str, root: str) -> str:
    return root + url[len(public) :] if public and url.startswith(public) else url


if __name__ == "__main__":  # python -m tests.e2e.sitewalk SITE: the dead hrefs from disk
    walk = walk_site(Path(sys.argv[1]))
    for where, ref in walk.dead:
        print(f"dead: {where}: {ref}")
    print(
        f"{walk.pages} pages, {walk.hrefs} hrefs, {len(walk.dead)} dead, "
        f"{len(walk.bad_fragments)} bad fragments"
    )
