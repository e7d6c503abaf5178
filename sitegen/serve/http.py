"""The HTTP side of ``sitegen serve``: the loopback server and its handler (the built site, the
reload script, the event stream).

Answers only loopback Host names, serves only regular files inside the output (never hidden
paths such as the cache), never writes anything: the live-reload script and the event stream
exist only in served responses, never in the built site (content/guides/site.md, "Serve").
A bad query parameter of its own endpoints is a 400 (content/guides/safety.md).
"""

from __future__ import annotations

import errno
import http.server
import mimetypes
import os
import re
import socket
import sys
import threading
import urllib.parse
from collections import Counter
from pathlib import Path

import click

from sitegen.base.paths import is_within
from sitegen.config import ConfigError
from sitegen.serve.reload import (
    EVENTS_PATH,
    LIVE_JS,
    PING_SECONDS,
    SCRIPT_PATH,
    with_live_reload,
)
from sitegen.serve.schedule import Builder

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
#: A build generation in a query: ASCII digits only (``str.isdigit`` takes '²', which ``int``
#: refuses), and few enough that ``int`` stays cheap (content/guides/safety.md).
GENERATION = re.compile(r"[0-9]{1,18}")
#: More fields than this in one query is a 400, before any is looked at.
MAX_QUERY_FIELDS = 8


class BadRequest(Exception):
    """A request path that cannot name a file (NUL byte, bad percent-encoding), or a bad
    query parameter of sitegen's own endpoints."""


def query_fields(query: str) -> dict[str, str]:
    """The fields of a query to one of sitegen's endpoints, by name; a malformed query (a field
    without '=', an empty field, bad percent-encoding, too many fields) or a field given twice
    is a BadRequest. Unknown fields are the caller's to ignore."""
    try:
        pairs = urllib.parse.parse_qsl(
            query,
            keep_blank_values=True,
            strict_parsing=True,
            errors="strict",
            max_num_fields=MAX_QUERY_FIELDS,
        )
    except UnicodeDecodeError:
        raise BadRequest("the query is not UTF-8") from None
    except ValueError:  # the field itself is not echoed: it may be 5,000 characters long
        raise BadRequest(
            f"malformed query: at most {MAX_QUERY_FIELDS} fields, each name=value, joined by &"
        ) from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        twice = sorted(name for name, n in Counter(k for k, _ in pairs).items() if n > 1)
        raise BadRequest(f"query field given more than once: {', '.join(twice)}")
    return fields


def since_generation(fields: dict[str, str]) -> int | None:
    """``since`` of an event-stream query: the generation the page shows, None when not given."""
    since = fields.get("since")
    if since is None:
        return None
    if not GENERATION.fullmatch(since):
        raise BadRequest("since must be a build generation: 1 to 18 digits 0-9")
    return int(since)


def site_file(out: Path, url_path: str) -> Path | None:
    """The file inside ``out`` a URL path names (a folder gives its index.html), or None.
    Hidden names (the cache, sitegen's marker) and anything whose real path leaves ``out``
    are never served."""
    try:
        decoded = urllib.parse.unquote(url_path, errors="strict")
    except UnicodeDecodeError as exc:
        raise BadRequest("the path is not UTF-8") from exc
    if "\0" in decoded or "\\" in decoded:
        raise BadRequest("the path holds a NUL byte or a backslash")
    parts = [p for p in decoded.split("/") if p]
    if any(p == ".." or p.startswith(".") for p in parts):
        return None
    real_out = Path(os.path.realpath(out))
    path = Path(os.path.realpath(real_out.joinpath(*parts)))
    if path.is_dir():
        path = path / "index.html"
    if not (is_within(path, real_out) and path.is_file()):
        return None
    return path


class SiteHandler(http.server.BaseHTTPRequestHandler):
    """GET and HEAD of the built site, the reload script and the event stream."""

    server: LoopbackServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._answer(body=True)

    def do_HEAD(self) -> None:
        self._answer(body=False)

    def _answer(self, body: bool) -> None:
        try:
            if self._host_refused():
                return
            url = urllib.parse.urlsplit(self.path)
            if url.path == EVENTS_PATH:
                self._events(since_generation(query_fields(url.query)))
            elif url.path == SCRIPT_PATH:
                query_fields(url.query)  # takes no field; a malformed query is still a 400
                self._send(200, "text/javascript; charset=utf-8", LIVE_JS.encode(), body)
            else:
                # A page's own query (?q= of the search page) is the page's, never read here.
                self._file(url.path, body)
        except BadRequest as exc:
            self._error(400, str(exc))
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _host_refused(self) -> bool:
        """Only the loopback names with this port: a page on another site that rebinds its
        DNS name to 127.0.0.1 still sends its own Host, and is refused."""
        host = self.headers.get("Host")
        if host is None:
            self._error(400, "no Host header")
            return True
        names = {f"{h}:{self.server.port}" for h in (*LOOPBACK_HOSTS, *self.server.extra_hosts)}
        if host.lower() not in names:
            self._error(
                403,
                "this server answers only 127.0.0.1, localhost and [::1]"
                + "".join(f", {h}" for h in self.server.extra_hosts),
            )
            return True
        return False

    def _file(self, url_path: str, body: bool) -> None:
        path = site_file(self.server.out, url_path)
        if path is None and url_path == "/favicon.ico":  # asked by every browser: no noise
            self._send(204, "image/x-icon", b"", body)
            return
        if path is None:
            self._not_found(body)
            return
        if path.name == "index.html" and not url_path.endswith(("/", ".html")):
            self._redirect(url_path + "/")
            return
        name = path.relative_to(os.path.realpath(self.server.out)).as_posix()
        data = self.server.builder.shown(name) or path.read_bytes()
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if kind == "text/html":
            data = with_live_reload(data, self.server.builder.status)
        charset = (
            "; charset=utf-8" if kind.startswith("text/") or kind.endswith("javascript") else ""
        )
        self._send(200, kind + charset, data, body)

    def _not_found(self, body: bool) -> None:
        page = site_file(self.server.out, "/404.html")
        if page is None:
            self._error(404, "not found")
            return
        data = page.read_bytes()
        if b"<base " not in data:  # served at any depth: its site-root links need a base
            data = data.replace(b"<head>", b'<head>\n<base href="/">', 1)
        data = with_live_reload(data, self.server.builder.status)
        self._send(404, "text/html; charset=utf-8", data, body)

    def _events(self, since: int | None) -> None:
        status = self.server.builder.status
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        seen = status.generation if since is None else since
        while not self.server.stopping.is_set():
            seen, news = status.wait_after(seen, PING_SECONDS)
            message = f"event: build\ndata: {news}\n\n" if news else ": ping\n\n"
            self.wfile.write(message.encode("utf-8"))
            self.wfile.flush()
        self.close_connection = True

    def _redirect(self, location: str) -> None:
        self.send_response(301)
        self.send_header("Location", urllib.parse.quote(location, safe="/%"))
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _send(self, code: int, kind: str, data: bytes, body: bool = True) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body:
            self.wfile.write(data)

    def _error(self, code: int, message: str) -> None:
        self._send(code, "text/plain; charset=utf-8", f"{code}: {message}\n".encode())

    def log_message(self, format: str, *args: object) -> None:
        pass  # the terminal shows builds, not requests


class LoopbackServer(http.server.ThreadingHTTPServer):
    """The HTTP server, on 127.0.0.1 unless ``--host`` says otherwise; a failing request is
    one line, never a traceback."""

    daemon_threads = True

    def __init__(self, port: int, builder: Builder, host: str = "127.0.0.1") -> None:
        self.port, self.builder = port, builder
        self.stopping = threading.Event()
        # Besides the loopback names, the Host header may name the address asked for.
        self.extra_hosts = () if is_loopback(host) else (_url_host(host),)
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        super().__init__((host.strip("[]"), port), SiteHandler)

    @property
    def out(self) -> Path:
        return self.builder.config.out_dir

    def handle_error(self, request: object, client_address: object) -> None:
        exc = sys.exc_info()[1]
        click.echo(f"sitegen: a request failed: {type(exc).__name__}: {exc}", err=True)


def is_loopback(host: str) -> bool:
    return host.lower().strip("[]") in ("127.0.0.1", "localhost", "::1")


def _url_host(host: str) -> str:
    return f"[{host.strip('[]')}]" if ":" in host else host.lower()


def open_server(port: int, builder: Builder, host: str = "127.0.0.1") -> LoopbackServer:
    """The bound server, or a ConfigError (exit 2) that says what is wrong with the port."""
    if not 1 <= port <= 65535:
        raise ConfigError(f"--port {port}: a port is a number from 1 to 65535")
    try:
        return LoopbackServer(port, builder, host)
    except (OSError, OverflowError, UnicodeError) as exc:
        if getattr(exc, "errno", None) == errno.EADDRINUSE:
            raise ConfigError(
                f"port {port} on {host} is in use by another program; choose another with --port"
            ) from None
        reason = getattr(exc, "strerror", None) or str(exc)
        raise ConfigError(f"cannot listen on {host}:{port}: {reason}") from None
