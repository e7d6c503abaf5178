"""Live reload (``sitegen serve``): the script served to every page, the build status its event
stream reports, and the page as served, with the script (and a failed build's lines) added.
The script and the stream exist only in served responses, never in the built site
(content/guides/site.md, "Serve"; content/reference/cli.md#sitegen-serve).
"""

from __future__ import annotations

import html
import json
import threading
from dataclasses import dataclass, field

EVENTS_PATH = "/__sitegen/events"
SCRIPT_PATH = "/__sitegen/live.js"
#: Seconds between keep-alive comments on an idle event stream.
PING_SECONDS = 15.0

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
