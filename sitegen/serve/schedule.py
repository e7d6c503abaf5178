"""The rebuild scheduler of ``sitegen serve``: one build per batch of requests, in a thread of
its own; a saved page shown ahead of its build; what each rebuild prints (only what changed
in its diagnostics: ``Warned``, content/reference/cli.md#sitegen-serve) and which site files
it changed, so that only their open pages reload. A failed build is reported, never raised.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import click

from sitegen.base.diagnostics import Diagnostic
from sitegen.base.plural import counted
from sitegen.build import BuildOptions, build
from sitegen.config import Config, ConfigError
from sitegen.docs.includes import include_names
from sitegen.generators import Dialect
from sitegen.records.crawl import Crawl
from sitegen.records.result import BuildResult
from sitegen.serve.reload import BuildStatus
from sitegen.site.preview import Preview
from sitegen.state.ownership import OUTPUT_MARKER

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
