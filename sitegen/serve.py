"""``sitegen serve``: the writer's loop. Build, serve the site on the loopback, rebuild on each
change of what a build reads (incrementally; the whole site when the config changes), reload
the open page when the site changed.

Answers only loopback Host names, serves only regular files inside the output (never hidden
paths such as the cache), never writes anything: the live-reload script and the event stream
exist only in served responses, never in the built site (content/guides/site.md, "Serve").
A bad query parameter of its own endpoints is a 400 (content/guides/safety.md).
"""

from __future__ import annotations

import errno
import functools
import hashlib
import html
import http.server
import json
import mimetypes
import os
import re
import socket
import stat
import sys
import threading
import urllib.parse
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import click

from sitegen.base.diagnostics import Diagnostic
from sitegen.base.paths import is_within
from sitegen.base.plural import counted
from sitegen.build import BuildOptions, build
from sitegen.config import Config, ConfigError
from sitegen.crawl import Crawl, Reads, build_reads
from sitegen.docs.includes import include_names
from sitegen.generators import Dialect
from sitegen.ownership import OUTPUT_MARKER
from sitegen.records.result import BuildResult
from sitegen.site.preview import Preview
from sitegen.site.writer import side_prefix

if TYPE_CHECKING:
    from watchfiles import Change

EVENTS_PATH = "/__sitegen/events"
SCRIPT_PATH = "/__sitegen/live.js"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
#: Seconds between keep-alive comments on an idle event stream.
PING_SECONDS = 15.0
#: A build generation in a query: ASCII digits only (``str.isdigit`` takes '²', which ``int``
#: refuses), and few enough that ``int`` stays cheap (content/guides/safety.md).
GENERATION = re.compile(r"[0-9]{1,18}")
#: More fields than this in one query is a 400, before any is looked at.
MAX_QUERY_FIELDS = 8

#: Served at SCRIPT_PATH only. On a "build" event: show the failed build's lines, or reload
#: when the build changed this page (``changed`` lists the site's changed files; null: any).
LIVE_JS = """\
(function () {
  var me = document.currentScript, since = me.getAttribute("data-generation");
  var here = decodeURIComponent(location.pathname).replace(/^\\/+/, "");
  if (here === "" || here.charAt(here.length - 1) === "/") here += "index.html";
  var failing = false;
  function show(lines) {
    var box = document.getElementById("sitegen-build-error");
    if (!box) {
      box = document.createElement("div");
      box.id = "sitegen-build-error";
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;inset:0 0 auto 0;z-index:99;margin:0;padding:1rem;" +
        "background:#fff0f0;color:#600;border-bottom:2px solid #c00;font:14px/1.4 monospace;" +
        "white-space:pre-wrap;max-height:50vh;overflow:auto";
      document.body.appendChild(box);
    }
    box.textContent = "sitegen: the build failed\\n" + lines.join("\\n");
  }
  var source = new EventSource("/__sitegen/events?since=" + encodeURIComponent(since));
  source.addEventListener("build", function (event) {
    var status = JSON.parse(event.data);
    since = String(status.generation);
    if (status.failed) { failing = true; show(status.lines); }
    else if (failing || !status.changed || status.changed.indexOf(here) >= 0 ||
             document.getElementById("sitegen-build-error")) {
      source.close(); location.reload();
    }
  });
})();
"""


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


#: Generations whose changed files an event stream can still name; a page that has seen
#: none of the last HISTORY builds simply reloads.
HISTORY = 64
#: Changed files an event names at most; more reload every open page.
MAX_CHANGED = 2000


@dataclass
class BuildStatus:
    """The latest build the open pages are told of, shared by the builder and every open
    event stream: a new generation reloads the pages it changed."""

    generation: int = 0
    failed: bool = False
    lines: tuple[str, ...] = ()
    #: ``site_signature`` of the site the last good build left.
    site: str = ""
    changed: threading.Condition = field(default_factory=threading.Condition)
    #: (generation, the site files it changed; None: any), the last HISTORY generations.
    history: list[tuple[int, frozenset[str] | None]] = field(default_factory=list)

    def publish(
        self, failed: bool, lines: list[str], site: str = "", files: frozenset[str] | None = None
    ) -> bool:
        """Tell the open pages of a build, unless it shows them nothing new: a good build that
        left the same site as the last good one, or a failure with the same lines. False then:
        a page reloaded for nothing loses its scroll and, rebuilt in a loop, never settles.
        ``files`` are the site files the build changed (None: unknown, every page reloads)."""
        with self.changed:
            if self.generation and failed == self.failed:
                if failed and tuple(lines) == self.lines:
                    return False
                if not failed and site == self.site:
                    return False
            if failed or self.failed:
                files = None  # the banner comes or goes on every open page
            self._next(files)
            self.failed, self.lines = failed, tuple(lines)
            if not failed:
                self.site = site
            return True

    def publish_preview(self, files: frozenset[str]) -> bool:
        """Tell the open pages of ``files`` shown ahead of their build (sitegen/site/preview.py);
        not while a failed build's lines are shown."""
        with self.changed:
            if self.failed or not self.generation:
                return False
            self._next(files)
            return True

    def _next(self, files: frozenset[str] | None) -> None:
        self.generation += 1
        self.history = [*self.history[-(HISTORY - 1) :], (self.generation, files)]
        self.changed.notify_all()

    def changed_since(self, seen: int) -> list[str] | None:
        """The site files changed by the generations after ``seen``, sorted; None: any."""
        if seen > self.generation:  # a page of another serve process: it reloads
            return None
        after = [files for generation, files in self.history if generation > seen]
        if len(after) < self.generation - seen or any(f is None for f in after):
            return None
        names = sorted(frozenset().union(*(f for f in after if f is not None)))
        return names if len(names) <= MAX_CHANGED else None

    def wait_after(self, seen: int, timeout: float) -> tuple[int, str]:
        """Waits for a build after generation ``seen``: (its generation, its JSON), or
        (``seen``, "") when none came within ``timeout`` seconds."""
        with self.changed:
            self.changed.wait_for(lambda: self.generation != seen, timeout=timeout)
            return (self.generation, self.as_json(seen)) if self.generation != seen else (seen, "")

    def as_json(self, seen: int | None = None) -> str:
        changed = None if seen is None else self.changed_since(seen)
        return json.dumps(
            {
                "generation": self.generation,
                "failed": self.failed,
                "lines": list(self.lines),
                "changed": changed,
            }
        )


#: What makes a diagnostic the same one in the next build: its place is left out, since an
#: edit above a warning moves it without changing it.
_Said = tuple[str, str, str, str]


def _said(diagnostic: Diagnostic) -> _Said:
    return (diagnostic.path, diagnostic.level, diagnostic.code, diagnostic.message)


@dataclass
class Warned:
    """The diagnostics serve printed, so that a rebuild prints only what changed: the new
    ones in full, and a count of those gone and of those left as they were
    (content/reference/cli.md#sitegen-serve). The first build prints every one."""

    #: The last good build's diagnostics, each as often as it occurred; None before one.
    seen: Counter[_Said] | None = None

    def changes(self, diagnostics: Sequence[Diagnostic]) -> list[str]:
        """The lines to print for a good build's ``diagnostics``, in their order; it becomes
        the build the next one is compared with."""
        now = Counter(map(_said, diagnostics))
        before, self.seen = self.seen, now
        if before is None:
            return [d.format() for d in diagnostics]
        left = before.copy()
        lines = []
        for d in diagnostics:  # a repeated diagnostic is new past its count of the last build
            if left[_said(d)] > 0:
                left[_said(d)] -= 1
            else:
                lines.append(d.format())
        gone, kept = left.total(), len(diagnostics) - len(lines)
        if gone or kept:
            said = [f"{counted(gone, 'message')} of the last build gone"] if gone else []
            if kept:
                said.append(f"{kept} as before, not repeated (sitegen build prints every one)")
            lines.append("sitegen: " + "; ".join(said))
        return lines


class Builder:
    """Rebuilds the site on demand; a failure is reported, never raised, so watching goes on.

    A saved page the last build published is shown first, rendered alone in that build's
    site and served from memory (sitegen/site/preview.py); the build that follows replaces it.
    """

    def __init__(self, load_config: Callable[[], Config], config: Config, quiet: bool) -> None:
        self.load_config, self.config, self.quiet = load_config, config, quiet
        self.status = BuildStatus()
        self.lock = threading.Lock()
        #: The names the pages' snippet lines give, as of the last build that crawled.
        self.snippets: frozenset[str] = frozenset()
        #: The last finished build, to render a saved page in; None before the first.
        self.preview: Preview | None = None
        #: Site file -> (the save it shows, its bytes): pages shown ahead of their build.
        self.overlay: dict[str, tuple[int, bytes]] = {}
        #: Batches of saves seen so far; a build that starts after save n shows it.
        self.saves = 0
        self._overlay_lock = threading.Lock()
        #: Each site file's stamp as the last good build left it.
        self.stamps: dict[str, str] = {}
        self._wanted = threading.Condition()
        self._pending: bool | None = None  # None: no build wanted; True: a full one
        #: The diagnostics printed so far: a rebuild prints what changed only.
        self.warned = Warned()

    def rebuild(self, full: bool = False) -> bool:
        """Build; True when the open pages were told to reload. Prints a failed build's
        lines, or what changed in a good build's diagnostics (``Warned``) and its summary."""
        with self.lock:
            started = self.saves
            failed, lines, result = self._build(full)
            printed = lines
            if result is not None:  # the diagnostics' lines come first, then the summary
                said = len(result.diagnostics)
                printed = self.warned.changes(result.diagnostics) + lines[said:]
            for line in printed:
                click.echo(line, err=True)
            stamps = {} if failed else site_stamps(self.config.out_dir)
            files = None if failed else self._settle(started, changed_files(self.stamps, stamps))
            site = "" if failed else signature(stamps)
            published = self.status.publish(failed, lines, site, files)
            if not failed:
                self.stamps = stamps
            if result is not None:  # made after the pages are told: off the save's path
                self.preview = self._preview_of(result) or self.preview
            return published

    def _build(self, full: bool) -> tuple[bool, list[str], BuildResult | None]:
        try:
            self.config = self.load_config()
            result = build(self.config, BuildOptions(quiet=True, clean=full))
        except ConfigError as exc:  # a bad config or template: one line, as `build` says it
            return True, [f"error: {exc}"], None
        except Exception as exc:  # noqa: BLE001 - serve must outlive any failed build
            return True, [f"error: the build failed: {type(exc).__name__}: {exc}"], None
        self.snippets = included_names(result.crawl, self.config.dialect)
        lines = [d.format() for d in result.diagnostics]
        if not self.quiet:
            lines.append(f"sitegen: {'full rebuild: ' if full else ''}{result.summary()}")
        return False, lines, result

    @staticmethod
    def _preview_of(result: BuildResult) -> Preview | None:
        try:
            return Preview.of(result)
        except Exception:  # noqa: BLE001 - no preview then; the builds go on as before
            return None

    def _settle(self, started: int, files: set[str]) -> frozenset[str]:
        """The files this build changed, less the pages a preview already showed with these
        very bytes; the previews it made stale (saved before it started) go."""
        out = self.config.out_dir
        with self._overlay_lock:
            for name, (save, data) in list(self.overlay.items()):
                if save > started:
                    continue  # saved while the build ran: its own build comes next
                del self.overlay[name]
                if name in files and _bytes_of(out / name) == data:
                    files.discard(name)
        return frozenset(files)

    def shown(self, name: str) -> bytes | None:
        """The preview's bytes of site file ``name``, when one is shown."""
        with self._overlay_lock:
            entry = self.overlay.get(name)
        return None if entry is None else entry[1]

    def _served(self, name: str) -> bytes | None:
        return self.shown(name) or _bytes_of(self.config.out_dir / name)

    def show_saved(self, paths: list[str]) -> bool:
        """Render each saved page the last build published, and tell its open pages; True
        when one was shown. A page this cannot render waits for its build."""
        preview, root = self.preview, os.path.realpath(self.config.root)
        shown: dict[str, bytes] = {}
        for path in paths:
            rel = os.path.relpath(os.path.realpath(path), root).replace(os.sep, "/")
            if rel.startswith("../"):
                continue
            try:
                made = preview.render(rel, Path(path).read_bytes()) if preview else None
            except Exception:  # noqa: BLE001 - the build that follows reports it
                made = None
            # A page saved with the bytes it had shows nothing new: its open pages hear nothing.
            if made is not None and made[1] != self._served(str(made[0])):
                shown[str(made[0])] = made[1]
        with self._overlay_lock:
            self.saves += 1
            self.overlay.update((name, (self.saves, data)) for name, data in shown.items())

        return bool(shown) and self.status.publish_preview(frozenset(shown))

    def request(self, full: bool) -> None:
        """Ask the build thread for a build; requests made while one runs become one build."""
        with self._wanted:
            self._pending = full or bool(self._pending)
            self._wanted.notify()

    def run_requests(self, stop: threading.Event) -> None:
        """The build thread: one build per batch of requests, until ``stop`` is set."""
        while not stop.is_set():
            with self._wanted:
                self._wanted.wait_for(lambda: self._pending is not None, timeout=0.5)
                full, self._pending = self._pending, None
            if full is not None:
                self.rebuild(full=full)


def _bytes_of(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


# ---------------------------------------------------------------------------- watching


def included_names(found: Crawl, dialect: Dialect = Dialect.NONE) -> frozenset[str]:
    """Every name a page's snippets and includes give, read or not: a file created at one is
    read. ``dialect`` is the generator record's: a Docusaurus page's MDX partials are
    includes too (content/syntax/docusaurus.md#partials)."""
    return frozenset(
        name for page in found.pages for name in include_names(page.path, page.data, dialect)
    )


def site_stamps(out: Path) -> dict[str, str]:
    """What the site folder holds, cheaply: each file's inode, size and time, by its path in
    the site. The site writer hard-links every unchanged output from the previous site and
    writes a changed one anew (sitegen/site/writer.py), so an unchanged file keeps its inode:
    one stat per file, no byte read. The marker, rewritten by every build, is left out."""
    stamps: dict[str, str] = {}
    for folder, dirs, files in os.walk(out):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            if name == OUTPUT_MARKER and folder == str(out):
                continue
            try:
                st = os.stat(path)
            except OSError:
                continue
            rel = os.path.relpath(path, out).replace(os.sep, "/")
            stamps[rel] = f"{st.st_ino}\0{st.st_size}\0{st.st_mtime_ns}"
    return stamps


def signature(stamps: dict[str, str]) -> str:
    digest = hashlib.sha256()
    for rel, stamp in sorted(stamps.items()):
        digest.update(f"{rel}\0{stamp}\n".encode())
    return digest.hexdigest()


def site_signature(out: Path) -> str:
    """One hash of ``site_stamps``: equal when no file of the site was written anew."""
    return signature(site_stamps(out))


def changed_files(before: dict[str, str], after: dict[str, str]) -> set[str]:
    """The site files added, removed or written anew between two sets of stamps."""
    return {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}


def config_files(config: Config, config_file: Path | None) -> set[Path]:
    """The files whose change rebuilds everything: sitegen's configuration, and the files
    the generator found beside the content was read from (``mkdocs.yml``, a VitePress
    ``config.ts``, Jekyll's ``_config.yml``), which the configuration holds."""
    names = {config.root / "sitegen.toml", config.root / "pyproject.toml"}
    if config_file is not None:
        names.add(config_file)
    if config.generator is not None:
        names.update(config.root / rel for rel, _ in config.generator.sources)
    return {Path(os.path.realpath(p)) for p in names}


def own_logs() -> set[tuple[int, int]]:
    """(device, inode) of this process's standard output and error when they are files:
    ``sitegen serve > docs/serve.log`` must not rebuild on its own lines, even where a build
    reads the log (an asset in the content folder)."""
    found = set()
    for stream in (sys.stdout, sys.stderr):
        try:
            st = os.fstat(stream.fileno())
        except (OSError, ValueError, AttributeError):
            continue
        if stat.S_ISREG(st.st_mode):
            found.add((st.st_dev, st.st_ino))
    return found


def watch(builder: Builder, config_file: Path | None, stop: threading.Event) -> None:
    """Rebuild after each batch of changes of what a build reads, until ``stop`` is set; never
    ends on a failure. The output, the cache, gitignored files and anything else a build does
    not read (a log in the project root) never start one (content/guides/safety.md)."""
    from watchfiles import watch as watch_changes

    logs = own_logs()

    def relevant(change: Change, path: str) -> bool:
        config = builder.config
        if path.startswith(
            _own_folders(config.out_dir, config.cache_dir)
        ):  # a build's own writes: the bulk of events
            return False
        if logs:
            try:
                st = os.stat(path)
            except OSError:
                pass
            else:
                if (st.st_dev, st.st_ino) in logs:
                    return False
        # Only what a build reads starts one. A file it merely lists (a log in the root)
        # changes no output when it appears or goes, only what a warning about a link to it
        # says; the next build brings that up to date.
        files = config_files(config, config_file)
        return build_reads(config, path, builder.snippets, files) is Reads.BYTES

    root = Path(os.path.realpath(builder.config.root))
    threading.Thread(target=builder.run_requests, args=(stop,), daemon=True).start()
    # Changes are grouped until none came for 50 ms, and for at most 300 ms: a build writing
    # its site never stops for 50 ms, and a save made meanwhile is shown within 300 ms.
    changes_of = watch_changes(root, watch_filter=relevant, stop_event=stop, step=50, debounce=300)
    for changes in changes_of:
        full = any(
            Path(os.path.realpath(p)) in config_files(builder.config, config_file)
            for _, p in changes
        )

        if not full:  # the saved page first, from the last build's site; then its build
            builder.show_saved(sorted({p for _, p in changes}))
        builder.request(full)


@functools.lru_cache(maxsize=4)
def _own_folders(out: Path, cache: Path) -> tuple[str, ...]:
    """Where a build writes, as real path prefixes: the output and cache folders, and the
    folders beside the output it swaps in and out (sitegen/site/writer.py)."""
    real_out = Path(os.path.realpath(out))
    return (str(real_out) + os.sep, os.path.realpath(cache) + os.sep, side_prefix(real_out))


# ---------------------------------------------------------------------------- serving


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


def with_live_reload(page: bytes, status: BuildStatus) -> bytes:
    """The page as served: the reload script, and the failed build's lines when it failed."""
    tag = f'<script src="{SCRIPT_PATH}" data-generation="{status.generation}"></script>'
    if status.failed:
        text = html.escape("sitegen: the build failed\n" + "\n".join(status.lines))
        tag = (
            f'<pre id="sitegen-build-error" role="alert" style="position:fixed;inset:0 0 auto 0;'
            f"z-index:99;margin:0;padding:1rem;background:#fff0f0;color:#600;"
            f'white-space:pre-wrap">{text}</pre>' + tag
        )
    head, sep, tail = page.rpartition(b"</body>")
    return head + tag.encode("utf-8") + sep + tail if sep else page + tag.encode("utf-8")


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


def serve(
    config: Config,
    port: int = 8000,
    quiet: bool = False,
    load_config: Callable[[], Config] | None = None,
    config_file: Path | None = None,
    host: str = "127.0.0.1",
) -> None:
    """Build, then serve and rebuild on change until Ctrl-C. ``load_config`` reads the
    configuration again before each build, so an edited config takes effect."""
    builder = Builder(load_config or (lambda: config), config, quiet)
    server = open_server(port, builder, host)
    if not is_loopback(host):
        click.echo(
            f"sitegen: warning: serving on {host}, not the loopback: anyone who can reach "
            "this machine can read the site",
            err=True,
        )
    stop = threading.Event()
    # Watching starts before the first build, so an edit saved while it runs is not lost.
    threading.Thread(target=watch, args=(builder, config_file, stop), daemon=True).start()
    builder.rebuild(full=False)
    click.echo(
        f"sitegen: serving {config.out_dir} at http://{_url_host(host)}:{port}/ (Ctrl-C stops)",
        err=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        server.stopping.set()
        server.server_close()
