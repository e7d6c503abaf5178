"""Reading one peer's graph.md, over HTTP(S) like a careful client, or from a local file.

Connect and total timeouts, a size limit, no redirect to another host, ETag and
Last-Modified revalidation; every failure is a sentence, never an exception. Returns bytes
and never writes or runs anything it reads.
"""

from __future__ import annotations

import http.client
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit

#: What the user-agent header says: who is asking.
USER_AGENT = "sitegen (federation: reads a peer site's graph.md)"
_CHUNK = 1 << 16


@dataclass(frozen=True)
class FetchPolicy:
    """How patient and how generous a read is."""

    #: Seconds to connect, and to wait for any one read of the socket.
    connect_timeout: float = 10.0
    #: Seconds for the whole response, headers to last byte.
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
    """A read stopped on purpose (a redirect elsewhere, too large, too slow)."""


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
                f"it redirects to another host ({newurl}); the redirect was not followed"
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def fetch_url(url: str, seen: Validators, policy: FetchPolicy) -> Fetched:
    """GET ``url`` with ``If-None-Match`` / ``If-Modified-Since`` from ``seen``."""
    headers = {"User-Agent": USER_AGENT, "Accept": "text/markdown, text/plain;q=0.9, */*;q=0.1"}
    if seen.etag:
        headers["If-None-Match"] = seen.etag
    if seen.last_modified:
        headers["If-Modified-Since"] = seen.last_modified
    opener = urllib.request.build_opener(_SameHostRedirects())
    deadline = time.monotonic() + policy.total_timeout
    try:
        request = urllib.request.Request(url, headers=headers)
        with opener.open(request, timeout=policy.connect_timeout) as response:
            data = _read_limited(response, policy, deadline)
            found = Validators(
                response.headers.get("ETag", "") or "",
                response.headers.get("Last-Modified", "") or "",
            )
            return Fetched(data, found)
    except urllib.error.HTTPError as exc:
        if exc.code == 304:
            return Fetched(None, seen, unchanged=True)
        return Fetched(None, error=f"the server answered {exc.code} {exc.reason}")
    except _Refused as exc:
        return Fetched(None, error=str(exc))
    except TimeoutError:
        return Fetched(None, error=f"no answer within {policy.connect_timeout:g} s (timed out)")
    except urllib.error.URLError as exc:
        return Fetched(None, error=f"it could not be reached ({exc.reason})")
    except (OSError, http.client.HTTPException, ValueError) as exc:
        return Fetched(None, error=f"it could not be read ({type(exc).__name__}: {exc})")


def _read_limited(response: IO[bytes], policy: FetchPolicy, deadline: float) -> bytes:
    length = getattr(response, "headers", {}).get("Content-Length")
    if length and length.isdigit() and int(length) > policy.max_bytes:
        raise _Refused(_too_large(policy))
    chunks: list[bytes] = []
    size = 0
    # read1: whatever one receive brings, so a server that drips bytes meets the deadline
    read = getattr(response, "read1", response.read)
    while chunk := read(_CHUNK):
        size += len(chunk)
        if size > policy.max_bytes:
            raise _Refused(_too_large(policy))
        if time.monotonic() > deadline:
            raise _Refused(f"it took longer than {policy.total_timeout:g} s; reading stopped")
        chunks.append(chunk)
    return b"".join(chunks)


def _too_large(policy: FetchPolicy) -> str:
    return f"it is larger than the limit of {policy.max_bytes:,} bytes; not read"


def read_file(path: Path, seen: Validators, policy: FetchPolicy) -> Fetched:
    """A local graph.md (a folder means its ``graph.md``); unchanged when size and
    modification time are those ``seen``."""
    target = path / "graph.md" if path.is_dir() else path
    try:
        st = target.stat()
        stat = f"{st.st_size}:{st.st_mtime_ns}"
        if seen.stat and stat == seen.stat:
            return Fetched(None, seen, unchanged=True)
        if st.st_size > policy.max_bytes:
            return Fetched(None, error=_too_large(policy))
        with target.open("rb") as f:
            # its size (no 64 MiB buffer for a small file), and on to the limit if it grew
            data = f.read(st.st_size + 1)
            if len(data) > st.st_size:
                data += f.read(policy.max_bytes + 1 - len(data))
        if len(data) > policy.max_bytes:
            return Fetched(None, error=_too_large(policy))
        return Fetched(data, Validators(stat=stat))
    except FileNotFoundError:
        return Fetched(None, error=f"{target} does not exist")
    except OSError as exc:
        return Fetched(None, error=f"{target} could not be read ({exc.strerror or exc})")
