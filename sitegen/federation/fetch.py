"""Reading one peer's graph.md, over HTTP(S) like a careful client, or from a local file.

Connect and total timeouts (the total covers the whole exchange: connect, headers, body), a
size limit, no redirect to another host, a body cut short refused, ETag and Last-Modified
revalidation; every failure is a sentence, never an exception. Returns bytes and never
writes or runs anything it reads.
"""

from __future__ import annotations

import base64
import functools
import http.client
import os
import socket
import stat
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any
from urllib.parse import unquote, urlsplit, urlunsplit

from sitegen.base.diagnostics import cut
from sitegen.config import shown_url

#: What the user-agent header says: who is asking.
USER_AGENT = "sitegen (federation: reads a peer site's graph.md)"
_CHUNK = 1 << 16
#: A local peer is opened without waiting for a writer: a FIFO must never block the build.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


@dataclass(frozen=True)
class FetchPolicy:
    """How patient and how generous a read is."""

    #: Seconds to connect, and to wait for any one read of the socket.
    connect_timeout: float = 10.0
    #: Seconds for the whole exchange, connecting to the last byte (headers included).
    total_timeout: float = 30.0
    #: Bytes of graph.md read at most; a larger one is refused.
    max_bytes: int = 64 * 1024 * 1024


@dataclass(frozen=True)
class Validators:
    """What a previous reading saw, for revalidation (HTTP) or a cheap stat (a file)."""

    etag: str = ""
    last_modified: str = ""
    stat: str = ""


@dataclass(frozen=True)
class Fetched:
    """The outcome of one read: the bytes (None when unchanged or failed), the validators
    to store, and ``error``, a sentence, when it failed."""

    data: bytes | None
    validators: Validators = Validators()
    unchanged: bool = False
    error: str = ""


class _Refused(Exception):
    """A read stopped on purpose (a redirect elsewhere, too large, too slow, cut short)."""


class _Deadline:
    """The whole exchange's time limit. A socket's timeout counts from its last byte, so a
    peer that sends one byte a second never meets it; at the deadline this timer shuts the
    exchange's sockets down, and whatever read was waiting returns at once."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.expired = False
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def __enter__(self) -> _Deadline:
        self._timer.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._timer.cancel()
        with self._lock:
            for sock in self._socks:
                sock.close()
            self._socks.clear()

    def watch(self, sock: socket.socket) -> None:
        """Shut ``sock`` down at the deadline. A duplicate is kept: TLS takes over (detaches)
        the socket object it wraps, and the duplicate still reaches the connection."""
        with self._lock:
            self._socks.append(sock.dup())
            if self.expired:
                _shut(self._socks[-1])

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._socks:
                _shut(sock)


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:  # already closed by the peer
        pass


class _WatchedHTTP(http.client.HTTPConnection):
    """A connection whose TCP socket the exchange's deadline watches (before any TLS)."""

    deadline: _Deadline

    def connect(self) -> None:
        super().connect()
        self.deadline.watch(self.sock)


class _WatchedHTTPS(http.client.HTTPSConnection, _WatchedHTTP):
    """HTTPS over a watched TCP socket: ``HTTPSConnection.connect`` calls the watched
    ``connect`` first, so even a dripping TLS handshake meets the deadline."""


def _connection(cls: type[_WatchedHTTP], deadline: _Deadline, host: str, **kw: Any) -> _WatchedHTTP:
    conn = cls(host, **kw)
    conn.deadline = deadline
    return conn


class _WatchedHandler(urllib.request.HTTPHandler, urllib.request.HTTPSHandler):
    """Opens HTTP and HTTPS connections the deadline watches (certificates verified as by
    default)."""

    def __init__(self, deadline: _Deadline) -> None:
        urllib.request.HTTPHandler.__init__(self)
        urllib.request.HTTPSHandler.__init__(self)
        self.deadline = deadline

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(functools.partial(_connection, _WatchedHTTP, self.deadline), req)

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(functools.partial(_connection, _WatchedHTTPS, self.deadline), req)


class _SameHostRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to the same scheme family and host (and port)."""

    max_redirections = 5

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: http.client.HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        old, new = urlsplit(req.full_url), urlsplit(newurl)
        if new.scheme not in ("http", "https") or (old.hostname, old.port) != (
            new.hostname,
            new.port,
        ):
            raise _Refused(
                f"it redirects to another host ({cut(shown_url(newurl))}); the redirect "
                "was not followed"
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def fetch_url(url: str, seen: Validators, policy: FetchPolicy) -> Fetched:
    """GET ``url`` with ``If-None-Match`` / ``If-Modified-Since`` from ``seen``, all of it
    within ``policy.total_timeout``."""
    with _Deadline(policy.total_timeout) as deadline:
        try:
            return _exchange(url, seen, policy, deadline)
        except urllib.error.HTTPError as exc:
            if exc.code == 304:
                return Fetched(None, seen, unchanged=True)
            return Fetched(None, error=f"the server answered {exc.code} {cut(str(exc.reason))}")
        except (
            _Refused,
            urllib.error.URLError,
            OSError,
            http.client.HTTPException,
            ValueError,
        ) as exc:
            if deadline.expired:
                return Fetched(None, error=_too_slow(policy))
            return Fetched(None, error=_failure(exc, policy))


def _exchange(url: str, seen: Validators, policy: FetchPolicy, deadline: _Deadline) -> Fetched:
    address, headers = _credentials(url)
    headers["User-Agent"] = USER_AGENT
    headers["Accept"] = "text/markdown, text/plain;q=0.9, */*;q=0.1"
    if seen.etag:
        headers["If-None-Match"] = seen.etag
    if seen.last_modified:
        headers["If-Modified-Since"] = seen.last_modified
    opener = urllib.request.build_opener(_WatchedHandler(deadline), _SameHostRedirects())
    request = urllib.request.Request(address, headers=headers)
    with opener.open(request, timeout=policy.connect_timeout) as response:
        data = _read_limited(response, policy)
        if deadline.expired:  # the last read ended because the deadline shut the socket
            raise _Refused(_too_slow(policy))
        found = Validators(
            response.headers.get("ETag", "") or "",
            response.headers.get("Last-Modified", "") or "",
        )
        return Fetched(data, found)


def _credentials(url: str) -> tuple[str, dict[str, str]]:
    """The URL to request and its headers: a user and password in the URL are sent as HTTP
    Basic authentication (urllib would take them for part of the host), to that host only,
    since a redirect elsewhere is never followed."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url, {}
    userinfo, _, host = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    token = base64.b64encode(f"{unquote(user)}:{unquote(password)}".encode()).decode("ascii")
    return urlunsplit(parts._replace(netloc=host)), {"Authorization": f"Basic {token}"}


def _failure(exc: BaseException, policy: FetchPolicy) -> str:
    """The sentence for a read that failed, quoting at most 80 characters of what it said."""
    if isinstance(exc, _Refused):
        return str(exc)
    if isinstance(exc, TimeoutError):
        return f"no answer within {policy.connect_timeout:g} s (timed out)"
    if isinstance(exc, urllib.error.URLError):
        if isinstance(exc.reason, TimeoutError):
            return f"no answer within {policy.connect_timeout:g} s (timed out)"
        return f"it could not be reached ({cut(str(exc.reason))})"
    return f"it could not be read ({type(exc).__name__}: {cut(str(exc))})"


def _too_slow(policy: FetchPolicy) -> str:
    return f"it took longer than {policy.total_timeout:g} s; reading stopped"


def _read_limited(response: http.client.HTTPResponse, policy: FetchPolicy) -> bytes:
    """The body, refused when larger than the limit or shorter than its ``Content-Length``
    (a cut connection must not replace the last good copy)."""
    length = response.headers.get("Content-Length", "").strip()
    announced = int(length) if length.isdigit() and len(length) <= 18 else None
    if response.headers.get("Transfer-Encoding", "").lower() == "chunked":
        announced = None  # chunked wins: http.client reads the chunks, and raises if cut
    if announced is not None and announced > policy.max_bytes:
        raise _Refused(_too_large(policy))
    chunks: list[bytes] = []
    size = 0
    # read1: whatever one receive brings, so the size limit holds while reading
    while chunk := response.read1(_CHUNK):
        size += len(chunk)
        if size > policy.max_bytes:
            raise _Refused(_too_large(policy))
        chunks.append(chunk)
    if announced is not None and size < announced:
        raise _Refused(
            f"the answer was cut short ({size:,} of the {announced:,} bytes it announced); not used"
        )
    return b"".join(chunks)


def _too_large(policy: FetchPolicy) -> str:
    return f"it is larger than the limit of {policy.max_bytes:,} bytes; not read"


def read_file(path: Path, seen: Validators, policy: FetchPolicy) -> Fetched:
    """A local graph.md (a folder means its ``graph.md``); unchanged when size and
    modification time are those ``seen``. Only a regular file is read: a FIFO or a device
    (``/dev/stdin``) would block the build or never end."""
    target = path / "graph.md" if path.is_dir() else path
    try:
        st = target.stat()
        if not stat.S_ISREG(st.st_mode):
            return Fetched(None, error=_not_regular(target))
        stamp = f"{st.st_size}:{st.st_mtime_ns}"
        if seen.stat and stamp == seen.stat:
            return Fetched(None, seen, unchanged=True)
        if st.st_size > policy.max_bytes:
            return Fetched(None, error=_too_large(policy))
        with os.fdopen(os.open(target, _OPEN_FLAGS), "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # replaced since the stat
                return Fetched(None, error=_not_regular(target))
            # its size (no 64 MiB buffer for a small file), and on to the limit if it grew
            data = f.read(st.st_size + 1)
            if len(data) > st.st_size:
                data += f.read(policy.max_bytes + 1 - len(data))
        if len(data) > policy.max_bytes:
            return Fetched(None, error=_too_large(policy))
        return Fetched(data, Validators(stat=stamp))
    except FileNotFoundError:
        return Fetched(None, error=f"{target} does not exist")
    except OSError as exc:
        return Fetched(None, error=f"{target} could not be read ({exc.strerror or exc})")


def _not_regular(target: Path) -> str:
    return f"{target} is not a regular file (a pipe, a device or a socket); not read"
