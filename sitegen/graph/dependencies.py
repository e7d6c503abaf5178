"""The records of a dependency graph: one edge (``src`` uses ``dst``) and the deployment unit
a file ships in. Plain data shared by the code link step, which makes them, and the cycle
analysis, which reads them (content/guides/cycles.md); never computes anything itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: The only edge kinds that make dependencies (content/reference/cycles.md#the-graph-analysed).
IMPORT = "import"
REFERENCE = "reference"
DEPENDENCY_KINDS = (IMPORT, REFERENCE)

#: When an import runs (content/guides/cycles.md#when-an-import-runs): at import time (the
#: empty string), only when the function around it is called, or never (``if TYPE_CHECKING:``).
RUNTIME = ""
DEFERRED = "deferred"
TYPE_ONLY = "type-only"
#: The contexts by strength: when one dependency is written several ways, the first wins.
IMPORT_CONTEXTS = (RUNTIME, DEFERRED, TYPE_ONLY)


def strongest_context(contexts: Iterable[str]) -> str:
    """The context that decides for a dependency written several ways (``RUNTIME`` first);
    an unknown context ranks after the known ones, by name, so merging stays order-free."""
    return min(
        contexts,
        key=lambda c: (
            IMPORT_CONTEXTS.index(c) if c in IMPORT_CONTEXTS else len(IMPORT_CONTEXTS),
            c,
        ),
        default=RUNTIME,
    )


@dataclass(frozen=True)
class DepEdge:
    """One dependency: ``src`` uses ``dst``.

    File level: ``src``/``dst`` are project-relative paths. Symbol level: they are symbol ids,
    and ``src_file``/``dst_file`` name the symbols' files (needed to project the reference
    onto files and to link to its source line). ``line`` is 1-based in ``src``'s file
    (0 when unknown); ``count`` is how many occurrences the edge aggregates. ``context`` says
    when the import behind it runs: ``RUNTIME`` (""), ``DEFERRED`` or ``TYPE_ONLY``.
    """

    src: str
    dst: str
    kind: str
    confidence: float
    line: int
    count: int = 1
    src_file: str = ""
    dst_file: str = ""
    context: str = RUNTIME


@dataclass(frozen=True)
class Unit:
    """The deployment unit a file ships in (content/guides/cycles.md): ``id`` is the file's
    own path for a ``file`` unit, a Go package's folder (``cart/``) for a ``package``, a Rust
    crate's root file (``src/lib.rs``) for a ``crate``."""

    id: str
    kind: str = "file"
