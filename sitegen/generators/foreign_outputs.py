"""Other generators' output and cache folders: the folders a folder's MkDocs, Jekyll,
VitePress, Docusaurus or Quartz configuration names as its built site or its cache. Each
family module names its own (``OUTPUT_NAMERS`` of sitegen/generators/); this module asks
each of them, places what they name inside the root and describes it.

Never reads a file itself: the caller says which names a folder holds and hands over the text
of a configuration file, read inside the root and bounded. Configurations are read as data
(YAML) or searched as text (scripts), never run.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from sitegen.base.paths import normalize_repo_path, repo_path_within
from sitegen.generators import OUTPUT_NAMERS, Holds, ReadText


@dataclass(frozen=True)
class ForeignOutput:
    """A folder another generator writes: its repository path, the tool, what it is there
    ("output" or "cache") and what names it (an option of the configuration, or the file
    it sits beside)."""

    folder: str
    tool: str
    what: str
    named_by: str

    def describe(self) -> str:
        """``site/ is MkDocs' output (site_dir)``."""
        owner = f"{self.tool}'" if self.tool.endswith("s") else f"{self.tool}'s"
        return f"{self.folder}/ is {owner} {self.what} ({self.named_by})"


def outputs_in(
    folder: str, holds: Holds, read: ReadText, upward: bool = False
) -> list[ForeignOutput]:
    """The output and cache folders that the generator configurations of ``folder`` (a
    repository path, "" for the root) name, each below ``folder``, or with ``upward``
    anywhere inside the root (``site_dir: ../site``) but ``folder`` and the folders holding
    it; a configuration that names another folder names nothing here."""
    found = [
        _output(folder, named.written, named.tool, named.what, named.named_by)
        for namer in OUTPUT_NAMERS
        for named in namer(folder, holds, read)
    ]
    return [out for out in found if _named(out.folder, folder, upward)]


def _named(output: str, folder: str, upward: bool) -> bool:
    """Whether ``output`` is a folder a configuration in ``folder`` may name."""
    if not output or repo_path_within(folder, output):
        return False  # outside the root, the root, the configuration's folder or one above
    return upward or repo_path_within(output, folder)


def _output(folder: str, written: str, tool: str, what: str, named_by: str) -> ForeignOutput:
    """The output ``written`` relative to ``folder``, a repository path; "" when it lies
    outside the root (``../..``, an absolute path)."""
    given = written.strip()
    rel = None if given.startswith("/") else normalize_repo_path(posixpath.join(folder, given))
    return ForeignOutput(rel or "", tool, what, named_by)
