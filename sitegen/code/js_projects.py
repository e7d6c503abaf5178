"""What a JavaScript / TypeScript project declares about its bare specifiers: ``tsconfig.json``
``baseUrl`` and ``paths`` (following ``extends``), and the workspace packages of a monorepo
(``package.json`` ``workspaces``, ``pnpm-workspace.yaml``) with their entry files.

Pure: manifest texts come through ``read_text``; never reads files, never resolves an
extension (``sitegen.code.resolve`` tries the candidates this module names).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

from sitegen.base.paths import normalize_repo_path
from sitegen.base.yamldata import read_yaml

ReadText = Callable[[str], "str | None"]
#: Export conditions tried for a workspace package's entry, in order.
_CONDITIONS = ("source", "import", "module", "default", "require", "node", "browser", "types")
_MAX_EXTENDS = 16


# ---------------------------------------------------------------- JSON with comments

_COMMENTS = re.compile(r'"(?:[^"\\]|\\.)*"|//[^\n]*|/\*.*?\*/', re.DOTALL)
_TRAILING_COMMAS = re.compile(r'"(?:[^"\\]|\\.)*"|,(?=\s*[}\]])')


def _strings_only(m: re.Match[str]) -> str:
    return m.group(0) if m.group(0).startswith('"') else ""


def parse_jsonc(text: str) -> Any:
    """JSON as tsconfig writes it: ``//`` and ``/* */`` comments and trailing commas allowed
    (strings such as ``"@/*"`` are kept whole). None when it still does not parse."""
    cleaned = _TRAILING_COMMAS.sub(_strings_only, _COMMENTS.sub(_strings_only, text))
    try:
        return json.loads(cleaned)
    except json.JSONDecodeError:
        return None


def _join(folder: str, rel: str) -> str | None:
    return normalize_repo_path(posixpath.join(folder, rel) if folder else rel)


# ---------------------------------------------------------------- tsconfig


@dataclass(frozen=True)
class TsConfig:
    """The resolution options of one tsconfig, ``extends`` applied; folders are repo paths."""

    base_url: str | None = None
    #: ``(pattern, substitutions)`` with substitutions already joined to their base folder.
    paths: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def candidates(self, spec: str) -> list[str]:
        """Repository paths (without extension resolution) that ``spec`` may name, in order:
        the best ``paths`` pattern (exact, else the longest prefix before ``*``), then
        ``baseUrl/spec``."""
        out: list[str] = []
        best: tuple[int, str, tuple[str, ...]] | None = None
        for pattern, subs in self.paths:
            if pattern == spec:
                best = (len(pattern) + 1, "", subs)
                break
            head, star, tail = pattern.partition("*")
            fits = (
                star
                and spec.startswith(head)
                and spec.endswith(tail)
                and len(spec) >= len(head) + len(tail)
            )
            if fits and (best is None or len(head) > best[0]):
                best = (len(head), spec[len(head) : len(spec) - len(tail)], subs)
        if best is not None:
            out += [s.replace("*", best[1], 1) for s in best[2]]
        if self.base_url is not None:
            joined = _join(self.base_url, spec)
            if joined is not None:
                out.append(joined)
        return [p for p in (normalize_repo_path(c) for c in out) if p is not None]


def load_tsconfig(path: str, read_text: ReadText) -> TsConfig:
    """``path``'s options after its ``extends`` chain (a loop or a missing file ends it)."""
    return _load(path, read_text, set())


def _load(path: str, read_text: ReadText, seen: set[str]) -> TsConfig:
    if path in seen or len(seen) > _MAX_EXTENDS:
        return TsConfig()
    seen.add(path)
    doc = parse_jsonc(read_text(path) or "")
    if not isinstance(doc, dict):
        return TsConfig()
    folder = posixpath.dirname(path)
    merged = TsConfig()
    extends = doc.get("extends")
    for parent in [extends] if isinstance(extends, str) else extends or []:
        if isinstance(parent, str) and parent.startswith("."):
            target = _join(folder, parent if parent.endswith(".json") else parent + ".json")
            if target is not None:
                base = _load(target, read_text, seen)
                merged = TsConfig(base.base_url or merged.base_url, base.paths or merged.paths)
    options = doc.get("compilerOptions")
    options = options if isinstance(options, dict) else {}
    base_url = merged.base_url
    if isinstance(options.get("baseUrl"), str):
        base_url = _join(folder, options["baseUrl"])
    paths = merged.paths
    if isinstance(options.get("paths"), dict):
        # Substitutions are relative to baseUrl when there is one, else to this file.
        anchor = base_url if base_url is not None else folder
        paths = tuple(
            (
                pattern,
                tuple(
                    j for s in subs if isinstance(s, str) and (j := _join(anchor, s)) is not None
                ),
            )
            for pattern, subs in options["paths"].items()
            if isinstance(subs, list)
        )
    return TsConfig(base_url, paths)


# ---------------------------------------------------------------- workspaces


@dataclass(frozen=True)
class WorkspacePackage:
    name: str
    folder: str
    manifest: dict[str, Any]

    def entries(self, subpath: str = "") -> list[str]:
        """Candidate files (repo paths, extension optional) for ``name`` or ``name/subpath``."""
        exports = self.manifest.get("exports")
        key = "./" + subpath if subpath else "."
        found: list[str] = []
        if isinstance(exports, str) and not subpath:
            found.append(exports)
        elif isinstance(exports, dict):
            target = (
                exports.get(key)
                if any(k.startswith(".") for k in exports)
                else (exports if not subpath else None)
            )
            found += [t for t in [_condition(target)] if t]
        if subpath:
            found += [subpath, "src/" + subpath]
        else:
            found += [
                v
                for k in ("module", "main", "types", "typings")
                if isinstance(v := self.manifest.get(k), str)
            ]
            found.append("src/index")
        return [p for p in (_join(self.folder, f) for f in found) if p is not None]


def _condition(target: Any) -> str | None:
    """The first path of an ``exports`` value: a string, a list, or nested conditions."""
    if isinstance(target, str):
        return target
    if isinstance(target, list):
        return next((c for c in (_condition(t) for t in target) if c), None)
    if isinstance(target, dict):
        keys = [k for k in _CONDITIONS if k in target] + [k for k in target if k not in _CONDITIONS]
        return next((c for c in (_condition(target[k]) for k in keys) if c), None)
    return None


def workspace_packages(
    paths: frozenset[str], dirs: frozenset[str], read_text: ReadText
) -> dict[str, WorkspacePackage]:
    """Package name -> package, for every folder a workspace declaration names."""
    globs: list[tuple[str, str]] = []  # (folder of the declaration, glob)
    for manifest in sorted(
        p for p in paths if posixpath.basename(p) in ("package.json", "pnpm-workspace.yaml")
    ):
        if "node_modules/" in manifest:
            continue
        globs += [(posixpath.dirname(manifest), g) for g in _declared(manifest, read_text)]
    if not globs:
        return {}
    out: dict[str, WorkspacePackage] = {}
    for folder in sorted(dirs):
        if not _matches(folder, globs) or "node_modules" in folder.split("/"):
            continue
        package_json = _join(folder, "package.json")
        doc = (
            parse_jsonc(read_text(package_json) or "")
            if package_json and package_json in paths
            else None
        )
        if isinstance(doc, dict) and isinstance(doc.get("name"), str):
            out.setdefault(doc["name"], WorkspacePackage(doc["name"], folder, doc))
    return out


def _declared(manifest: str, read_text: ReadText) -> list[str]:
    text = read_text(manifest) or ""
    if manifest.endswith(".yaml"):
        try:
            doc = read_yaml(text, yaml.SafeLoader).data  # bounded: sitegen/base/yamldata.py
        except yaml.YAMLError:
            return []
        found = doc.get("packages") if isinstance(doc, dict) else None
    else:
        doc = parse_jsonc(text)
        found = doc.get("workspaces") if isinstance(doc, dict) else None
        if isinstance(found, dict):
            found = found.get("packages")
    return [g for g in found if isinstance(g, str)] if isinstance(found, list) else []


def _matches(folder: str, globs: list[tuple[str, str]]) -> bool:
    """Whether a workspace glob names ``folder``; a later ``!glob`` excludes it again."""
    hit = False
    for base, glob in globs:
        negated = glob.startswith("!")
        pattern = _join(base, glob.lstrip("!").rstrip("/")) or ""
        if _glob(pattern).fullmatch(folder):
            hit = not negated
    return hit


def _glob(pattern: str) -> re.Pattern[str]:
    """A workspace glob as a regex: ``*`` stays inside one folder name, ``**`` crosses them."""
    parts = re.split(r"(\*\*/?|\*|\?)", pattern)
    table = {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}
    return re.compile("".join(table.get(p, re.escape(p)) for p in parts))
