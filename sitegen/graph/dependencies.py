"""The records of a dependency graph: one edge (``src`` uses ``dst``) and the deployment unit
a file ships in. Plain data shared by the code link step, which makes them, and the cycle
analysis, which reads them (content/guides/cycles.md); never computes anything itself.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The only edge kinds that make dependencies (content/reference/cycles.md#the-graph-analysed).
IMPORT = "import"
REFERENCE = "reference"
DEPENDENCY_KINDS = (IMPORT, REFERENCE)


@dataclass(frozen=True)
class DepEdge:
    """One dependency: ``src`` uses ``dst``.

    File level: ``src``/``dst`` are project-relative paths. Symbol level: they are symbol ids,
    and ``src_file``/``dst_file`` name the symbols' files (needed to project the reference
    onto files and to link to its source line). ``line`` is 1-based in ``src``'s file
    (0 when unknown); ``count`` is how many occurrences the edge aggregates.
    """

    src: str
    dst: str
    kind: str
    confidence: float
    line: int
    count: int = 1
    src_file: str = ""
    dst_file: str = ""


@dataclass(frozen=True)
class Unit:
    """The deployment unit a file ships in (content/guides/cycles.md): ``id`` is the file's
    own path for a ``file`` unit, a Go package's folder (``cart/``) for a ``package``, a Rust
    crate's root file (``src/lib.rs``) for a ``crate``."""

    id: str
    kind: str = "file"
