"""The link step's cache: what linking adds across files (externals, import and reference
edges, its diagnostics), kept from the last build and reused when every input of name and
import resolution is the same again.

Those inputs are the records (known by the digests of their shards, ``CodeRecord.
shard_digest``: a record made any other way is never cached), the resolution options, every
repository path, the answer to every ``read_text`` the resolution asked for (``go.mod``,
``tsconfig.json`` …, compared again on reuse) and sitegen's own resolution code. The cache is
one JSON file, ``links.json``, in the shard folder (``sitegen/code/shards.py``), which wipes
it with the shards; it is used only where that folder exists. Nothing read back is trusted:
it is read bounded (``sitegen/state/files.py``), every value is type-checked and every edge must
join nodes of the graph being built; a file made of other inputs is ignored, and one that
does not check is set aside with a warning. Either way resolution runs again.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.fsutil import write_atomically
from sitegen.base.languages import LangId
from sitegen.config import Config
from sitegen.graph.dependencies import IMPORT_CONTEXTS
from sitegen.records.code import CodeRecord
from sitegen.records.code_graph import (
    CodeEdge,
    CodeGraph,
    EdgeKey,
    EdgeKind,
    ExternalNode,
    external_endpoint,
    merge_into,
)
from sitegen.state.caches import LINK_CACHE_VERSION as LINK_CACHE_VERSION
from sitegen.state.files import Unreadable, read_json, set_aside

FILE_NAME = "links.json"
_KINDS = {str(kind): kind for kind in (EdgeKind.IMPORT, EdgeKind.REFERENCE, EdgeKind.OWNERSHIP)}
#: The modules whose code decides what resolution makes of the same inputs.
_RESOLUTION_CODE = (
    "code/*.py",
    "base/paths.py",
    "base/languages.py",
    "graph/model.py",
    "records/code.py",
    "records/code_graph.py",
)


@dataclass
class Resolution:
    """What linking adds across files, in the order it was found: ``add_external`` and
    ``add_edge`` as on a ``CodeGraph``, kept until ``apply`` puts them in one."""

    externals: dict[str, ExternalNode] = field(default_factory=dict)
    edges: dict[EdgeKey, CodeEdge] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def add_external(self, node: ExternalNode) -> None:
        """Idempotent, as on the graph: the first node of an id stays."""
        self.externals.setdefault(node.id, node)

    def add_edge(self, edge: CodeEdge) -> None:
        """Duplicates merge at once, by the graph's own rule."""
        merge_into(self.edges, edge)

    def apply(self, graph: CodeGraph) -> None:
        for node in self.externals.values():
            graph.add_external(node)
        for edge in self.edges.values():
            graph.add_edge(edge)


class LinkCache:
    """``load`` and ``save`` of one build's resolution; ``LinkCache.of`` is None when the
    inputs cannot be known (a record without a shard, no shard folder)."""

    def __init__(self, path: Path, key: str) -> None:
        self.path, self.key = path, key
        #: The warning for a file that did not check, set aside by ``load``.
        self.diagnostics: list[Diagnostic] = []

    @classmethod
    def of(cls, records: list[CodeRecord], config: Config, all_paths: set[str]) -> LinkCache | None:
        folder = config.cache_dir / "shards"
        if any(r.shard_digest is None for r in records) or not (folder / "header.json").is_file():
            return None
        doc = [
            LINK_CACHE_VERSION,
            _code_fingerprint(),
            [[r.path, str(r.language), r.shard_digest] for r in records],
            [list(config.source), list(config.include_dirs), list(config.ruby_load_paths)],
            sorted(all_paths),
        ]
        key = hashlib.blake2b(json.dumps(doc).encode("utf-8"), digest_size=16).hexdigest()
        return cls(folder / FILE_NAME, key)

    def load(self, graph: CodeGraph, read_text: Any) -> Resolution | None:
        """The stored resolution when it was made of these inputs and joins ``graph``'s
        nodes; None for anything else (no file, other inputs, a file that does not check)."""
        try:
            doc = read_json(self.path)
            if doc is None:
                return None
            if not isinstance(doc, dict) or not isinstance(doc.get("key"), str):
                raise Unreadable("not a link cache")
            if doc["key"] != self.key or not _same_reads(doc["reads"], read_text):
                return None  # made of other inputs: a miss, as for a changed file
            found = _resolution(doc, graph)
            if found is None:
                raise Unreadable("an edge or a value that does not check")
            return found
        except (Unreadable, ValueError, KeyError, TypeError) as why:
            reason = str(why) if isinstance(why, Unreadable) else "a value that does not check"
            self.diagnostics.append(set_aside(self.path, "the link cache", reason))
            return None

    def save(self, resolution: Resolution, reads: dict[str, str | None]) -> None:
        doc = {
            "link_cache_version": LINK_CACHE_VERSION,
            "key": self.key,
            "reads": {path: _text_digest(text) for path, text in sorted(reads.items())},
            "externals": [[n.id, n.name, str(n.language)] for n in resolution.externals.values()],
            "edges": [
                [e.src, e.dst, str(e.kind), e.confidence, e.line, e.context]
                for e in resolution.edges.values()
            ],
            "diagnostics": [
                [d.path, d.line, d.col, str(d.level), d.message, d.code]
                for d in resolution.diagnostics
            ],
        }
        try:
            write_atomically(self.path, json.dumps(doc, allow_nan=False), durable=False)
        except (OSError, ValueError):  # a cache that cannot be written is only slower
            pass


def _text_digest(text: str | None) -> str | None:
    if text is None:
        return None
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _same_reads(stored: Any, read_text: Any) -> bool:
    """Every file the resolution read still reads the same (or is still absent)."""
    if not isinstance(stored, dict):
        return False
    return all(
        isinstance(path, str) and _text_digest(read_text(path)) == digest
        for path, digest in stored.items()
    )


def _resolution(doc: dict[str, Any], graph: CodeGraph) -> Resolution | None:
    out = Resolution()
    for node_id, name, language in doc["externals"]:
        lang = LangId(language)
        if not isinstance(name, str) or node_id != external_endpoint(lang, name):
            return None
        out.externals[node_id] = ExternalNode(node_id, name, lang)
    known = out.externals
    for src, dst, kind, confidence, line, context in doc["edges"]:
        ends_known = all(
            isinstance(end, str) and (end in graph.files or end in graph.symbols or end in known)
            for end in (src, dst)
        )
        if not ends_known or type(line) is not int or type(confidence) is not float:
            return None
        if context not in IMPORT_CONTEXTS:
            return None
        if not math.isfinite(confidence):
            return None
        edge = CodeEdge(src, dst, _KINDS[kind], confidence, line, context=context)
        out.edges[(src, dst, edge.kind)] = edge
    for path, line, col, level, message, code in doc["diagnostics"]:
        if not all(isinstance(v, str) for v in (path, message, code)):
            return None
        if type(line) is not int or type(col) is not int:
            return None
        out.diagnostics.append(Diagnostic(path, line, col, Level(level), message, code))
    return out


@cache
def _code_fingerprint() -> str:
    """A digest of sitegen's resolution code, so that a changed sitegen never reuses what an
    older one resolved (read once per process)."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.blake2b(digest_size=16)
    for pattern in _RESOLUTION_CODE:
        for path in sorted(root.glob(pattern)):
            digest.update(path.name.encode("utf-8"))
            digest.update(path.read_bytes())
    return digest.hexdigest()
