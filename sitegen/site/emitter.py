"""The emitter interface: each output of the site (a kind of page, a report, an export) is one
Emitter that claims the files it owns and then writes them (content/guides/outputs.md).

Declares the contract and the shapes most outputs share; never decides the order of the
outputs (sitegen.site.outputs does) and never swaps the site in (sitegen.site.writer does).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from sitegen.base.diagnostics import Sink
from sitegen.base.paths import OutPath
from sitegen.base.progress import Progress
from sitegen.config import Rebuild
from sitegen.site.state import SiteState, duplicate_output
from sitegen.site.writer import SiteWriter

#: The owner recorded for the files sitegen makes itself (reports, exports, theme files).
SITEGEN = "sitegen"


@dataclass(frozen=True)
class EmitRun:
    """What every emitter is given: the build's shared state, the writer of the new site,
    the progress display, the number of worker processes (``--jobs``) and the build's sink,
    which what an output reports goes into (the result is finished: nothing is added to it)."""

    site: SiteState
    writer: SiteWriter
    progress: Progress
    jobs: int = 1
    sink: Sink = field(default_factory=Sink)

    def claim(self, out: OutPath, owner: str) -> bool:
        """Reserve ``out`` for the repository file ``owner``; when an earlier claim holds it,
        the clash is reported (``duplicate-output``) and the file is not published."""
        if self.writer.claim(out, owner):
            return True
        self.sink.add(duplicate_output(owner, out, self.writer.outputs[out]))
        return False


class Emitter(ABC):
    """One output of the site. The build first asks every emitter, in the registry's order,
    to claim its files (so the first claim wins a clash, the same way every build), then asks
    each to write what it won."""

    #: What the output is called in the registry and the docs: "pages", "graph.json"; unique
    #: among sitegen's outputs and the plugins' (content/guides/plugins.md).
    name: ClassVar[str]
    #: The configuration options it reads itself, besides those of the site state every
    #: output shares (the page tree, the frame of every page: sitegen/site/emit.py).
    options: ClassVar[tuple[str, ...]] = ()
    #: What a change of those options (or of a plugin's version) redoes: an output's files
    #: are the site's (content/guides/builds.md#what-an-option-rebuilds).
    rebuild: ClassVar[Rebuild] = Rebuild.SITE
    #: The distribution version of the plugin that adds it; "" for sitegen's own.
    version: ClassVar[str] = ""
    #: Whether it may run in a forked worker process (a plugin's says so; sitegen's may).
    fork_safe: ClassVar[bool] = True
    #: True for the graph-wide outputs that one forked process writes while the pages are
    #: written. They share one key (the whole graph): when every file they won is in the
    #: previous site under that key, none of them runs. Such an emitter reads only the
    #: finished build and reports nothing (the process's diagnostics would be lost).
    background: ClassVar[bool] = False

    @abstractmethod
    def claim(self, run: EmitRun) -> list[OutPath]:
        """Reserve every file this output would write, in a fixed order; returns those it
        won. Claiming writes nothing."""

    @abstractmethod
    def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
        """Write ``outputs`` (what ``claim`` returned) through ``run.writer``: with
        ``writer.reuse`` first where a key names everything a file shows."""


class OneFile(Emitter):
    """An output that is one file sitegen makes itself at a path it knows up front."""

    #: The file's path, for an output every build has.
    file: ClassVar[OutPath | None] = None

    def path(self, site: SiteState) -> OutPath | None:
        """Where the file goes, or None when this build has no such output (an output that
        depends on the build, such as the cycle report, says so here)."""
        return self.file

    @abstractmethod
    def render(self, run: EmitRun, out: OutPath) -> str | bytes:
        """The file's bytes (or text, written as UTF-8)."""

    def claim(self, run: EmitRun) -> list[OutPath]:
        out = self.path(run.site)
        return [out] if out is not None and run.writer.claim(out, SITEGEN) else []

    def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
        for out in outputs:
            run.writer.write(out, self.render(run, out))
