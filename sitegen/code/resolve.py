"""Import resolution (content/reference/code-graph.md#imports): an import to files or externals.

Knows every repository path, never the file system: go.mod is read through ``read_text``.
Never builds graph edges itself (``analyse`` does) and never looks inside other files' symbols.
"""

from __future__ import annotations

import posixpath
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.languages import LangId
from sitegen.base.paths import normalize_repo_path
from sitegen.code.include_paths import IncludePaths, read_compile_commands
from sitegen.code.js_projects import TsConfig, WorkspacePackage, load_tsconfig, workspace_packages
from sitegen.config import Config
from sitegen.records.code import Binding, CodeRecord, Import, MetacallLoad

ReadText = Callable[[str], "str | None"]

JS_FAMILY = (LangId.JAVASCRIPT, LangId.TYPESCRIPT, LangId.TSX)
C_FAMILY = (LangId.C, LangId.CPP)
#: Extension resolution order for an extension-less relative JS/TS specifier.
JS_EXTENSIONS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")
#: TypeScript lets ``./m.js`` name ``m.ts`` on disk (the emitted file's name).
_JS_WRITTEN_FOR = {".js": (".ts", ".tsx"), ".jsx": (".tsx",), ".mjs": (".mts",), ".cjs": (".cts",)}
#: Rust files whose child modules live beside them rather than in ``<stem>/``.
_RUST_DIR_OWNERS = ("mod.rs", "lib.rs", "main.rs", "build.rs")
_RUST_CRATE_DIRS = ("bin", "tests", "examples", "benches")
_GO_MAJOR = re.compile(r"^v[0-9]+$")


@dataclass(frozen=True)
class Exposure:
    """Which names of the target an import makes visible in the importing file."""

    #: ``(local, original)``: ``from m import a as b`` gives ``("b", "a")``. The original may be
    #: a dotted qualified name (Rust ``use m::Enum::Variant``).
    names: tuple[tuple[str, str], ...] = ()
    #: Every public name (``from m import *``, ``#include``, Ruby ``require``).
    star: bool = False
    #: Local prefixes naming the module itself: with ``"m"``, the reference ``m.x`` is x in it.
    module_names: tuple[str, ...] = ()


@dataclass(frozen=True)
class ImportTarget:
    """A project file (``path``) or, when the module is not in the project, an ``external``."""

    path: str | None
    external: str | None = None
    exposure: Exposure = Exposure()


@dataclass(frozen=True)
class ResolvedImport:
    """One import statement of ``src`` (at ``line``, written in ``form``: ``from``, ``use``,
    ``#include`` …) with the files or externals it reaches."""

    src: str
    line: int
    form: str
    targets: tuple[ImportTarget, ...]
    #: A ``metacall_load_from_file``: targets serve ``metacall('name')``, not plain names.
    metacall: bool = False
    #: When the statement runs: ``Import.context`` ("" at load time).
    context: str = ""


@dataclass
class ProjectIndex:
    """What resolution knows about the project: paths, languages, roots, Go modules."""

    code: dict[str, LangId]  # analysed files
    paths: frozenset[str]  # every repository file
    dirs: frozenset[str]
    source_roots: tuple[str, ...]
    include_dirs: tuple[str, ...]
    read_text: ReadText
    ruby_load_paths: tuple[str, ...] = ()
    #: The symbol each JS/TS file exports as ``default`` (qualified name), by path.
    default_exports: dict[str, str] = field(default_factory=dict)
    _go_mods: dict[str, str | None] = field(default_factory=dict)
    _ts_configs: dict[str, TsConfig | None] = field(default_factory=dict)
    #: Python lookups by (package folder, dotted module) and the roots of a folder: every
    #: file of a package asks the same questions (django: 9,000 imports, 900 files).
    _py_modules: dict[tuple[str, str], str | None] = field(default_factory=dict)
    _py_roots: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        records: list[CodeRecord],
        config: Config,
        all_paths: set[str],
        read_text: ReadText | None = None,
    ) -> ProjectIndex:
        code = {r.path: r.language for r in records}
        paths = frozenset(all_paths) | frozenset(code)
        dirs = frozenset(d for p in paths for d in _ancestors(p))
        return cls(
            code,
            paths,
            dirs,
            _clean_dirs(config.source),
            _clean_dirs(config.include_dirs),
            read_text or (lambda _path: None),
            _clean_dirs(config.ruby_load_paths),
            {r.path: r.default_export for r in records if r.default_export},
        )

    def exists(self, path: str | None) -> bool:
        return path is not None and path in self.paths

    def files_in(self, folder: str) -> list[str]:
        """Analysed files directly inside ``folder``, sorted."""
        return self._by_folder.get(folder, [])

    @cached_property
    def _by_folder(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for p in sorted(self.code):
            out.setdefault(posixpath.dirname(p), []).append(p)
        return out

    def ts_config(self, path: str) -> TsConfig | None:
        """The ``tsconfig.json`` (or ``jsconfig.json``) nearest above ``path``, extends applied."""
        return self._ts_config_in(posixpath.dirname(path))

    def _ts_config_in(self, folder: str) -> TsConfig | None:
        if folder not in self._ts_configs:
            found = next(
                (
                    c
                    for c in (_join(folder, n) for n in ("tsconfig.json", "jsconfig.json"))
                    if c in self.paths
                ),
                None,
            )
            if found is not None:
                self._ts_configs[folder] = load_tsconfig(found, self.read_text)
            else:
                self._ts_configs[folder] = (
                    self._ts_config_in(posixpath.dirname(folder)) if folder else None
                )
        return self._ts_configs[folder]

    @cached_property
    def workspaces(self) -> dict[str, WorkspacePackage]:
        return workspace_packages(self.paths, self.dirs, self.read_text)

    @cached_property
    def compile_commands(self) -> list[IncludePaths]:
        """The include folders of each ``compile_commands.json`` of the project."""
        return [
            read_compile_commands(self.read_text(p) or "", self.paths, self.dirs)
            for p in sorted(self.paths)
            if posixpath.basename(p) == "compile_commands.json"
        ]

    def c_include_dirs(self, path: str) -> list[str]:
        """Where ``#include <x.h>`` looks for ``path``: the configured ``include_dirs``, then
        the ``-I`` folders a compilation database gives the file (or any file, for a header)."""
        out = list(self.include_dirs)
        for database in self.compile_commands:
            out += [d for d in database.for_file(path) if d not in out]
        return out

    @cached_property
    def rust_crates(self) -> dict[str, str]:
        """Library crates of the project's ``Cargo.toml`` files: the name code uses
        (``grep-matcher`` is ``grep_matcher``) -> the crate root (``src/lib.rs``)."""
        out: dict[str, str] = {}
        for manifest in sorted(p for p in self.paths if posixpath.basename(p) == "Cargo.toml"):
            found = _cargo_library(manifest, self.read_text(manifest) or "")
            if found is not None and found[1] in self.code:
                out.setdefault(found[0], found[1])
        return out

    @cached_property
    def ruby_lib_dirs(self) -> list[str]:
        """Where ``require 'x'`` looks: the configured ``ruby_load_paths``, else every
        ``lib/`` folder, shallowest first."""
        if self.ruby_load_paths:
            return list(self.ruby_load_paths)
        libs = [d for d in self.dirs if posixpath.basename(d) == "lib"]
        return sorted(libs, key=lambda d: (d.count("/"), d))

    def ruby_roots(self, path: str) -> list[str]:
        """The load path for a file: its own gem's ``lib/`` first (a monorepo of gems), then
        the project's load path."""
        own = [d for d in _ancestors(path) if posixpath.basename(d) == "lib"][:1]
        if self.ruby_load_paths:
            own = []
        return own + [d for d in self.ruby_lib_dirs if d not in own]


def _cargo_library(manifest: str, text: str) -> tuple[str, str] | None:
    """(crate name as code writes it, library root path) of one ``Cargo.toml``; None for a
    manifest without a package (a virtual workspace) or one that does not parse."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    package, lib = doc.get("package"), doc.get("lib")
    if not isinstance(package, dict) or not isinstance(package.get("name"), str):
        return None
    lib = lib if isinstance(lib, dict) else {}
    name: str = lib["name"] if isinstance(lib.get("name"), str) else package["name"]
    root = _join(
        posixpath.dirname(manifest),
        lib["path"] if isinstance(lib.get("path"), str) else "src/lib.rs",
    )
    return (name.replace("-", "_"), root) if root is not None else None


def _ancestors(path: str) -> list[str]:
    out = []
    folder = posixpath.dirname(path)
    while folder:
        out.append(folder)
        folder = posixpath.dirname(folder)
    return out + [""]


def _clean_dirs(dirs: tuple[str, ...]) -> tuple[str, ...]:
    out = []
    for d in dirs:
        norm = normalize_repo_path(d.replace("\\", "/").strip("/")) if d.strip("/. ") else ""
        if norm is not None and norm not in out:
            out.append(norm)
    return tuple(out)


def _join(folder: str, rel: str) -> str | None:
    """``folder/rel`` normalized; None when it climbs out of the project root."""
    return normalize_repo_path(posixpath.join(folder, rel) if folder else rel)


# ---------------------------------------------------------------- the driver


@dataclass
class _Result:
    imports: list[ResolvedImport] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def resolve_imports(
    record: CodeRecord, index: ProjectIndex
) -> tuple[list[ResolvedImport], list[Diagnostic]]:
    """Every import of ``record``, resolved; unresolvable relative imports as warnings."""
    out = _Result()
    for imp in record.imports:
        if imp.form == "metacall-load":
            load = MetacallLoad(tag="", paths=(imp.specifier,), line=imp.line)
            _resolve_metacall_load(record.path, load, index, out)
            continue
        resolver = _RESOLVERS.get(record.language)
        if resolver is not None:
            resolver(record.path, imp, index, out)
    for load in record.metacall_loads:
        _resolve_metacall_load(record.path, load, index, out)
    return out.imports, out.diagnostics


def _unresolved(
    out: _Result,
    path: str,
    line: int,
    specifier: str,
    level: Level = Level.WARNING,
    detail: str = "",
) -> None:
    out.diagnostics.append(
        Diagnostic(
            path,
            max(line, 1),
            1,
            level,
            f"cannot resolve import '{specifier}'{detail}",
            "unresolved-import",
        )
    )


def _add(out: _Result, src: str, imp: Import, targets: list[ImportTarget]) -> None:
    if targets:
        out.imports.append(
            ResolvedImport(src, imp.line, imp.form, tuple(targets), context=imp.context)
        )


def _external(name: str, exposure: Exposure = Exposure()) -> ImportTarget:
    return ImportTarget(None, name, exposure)


def _as_external(
    out: _Result, path: str, imp: Import, searched: str = "", exposure: Exposure = Exposure()
) -> None:
    """The import as an external module. ``searched`` says where the project was looked
    through in vain: an info diagnostic then tells that it is treated as external."""
    if searched:
        note = f"{searched}; it is treated as external"
        _unresolved(out, path, imp.line, imp.specifier, Level.INFO, note)
    _add(out, path, imp, [_external(imp.specifier, exposure)])


def _local(index: ProjectIndex, path: str, exposure: Exposure) -> list[ImportTarget]:
    """A target for an existing path; none when it exists but is not an analysed file."""
    return [ImportTarget(path, None, exposure)] if path in index.code else []


def _binding_names(bindings: tuple[Binding, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((b.alias or b.name, b.name) for b in bindings)


# ---------------------------------------------------------------- Python


def _python_roots(path: str, index: ProjectIndex) -> list[str]:
    """Configured source roots, the project root, the file's own package root, then ``src``."""
    start = posixpath.dirname(path)
    roots = index._py_roots.get(start)
    if roots is None:
        roots = index._py_roots[start] = _python_roots_of(start, index)
    return roots


def _python_roots_of(folder: str, index: ProjectIndex) -> list[str]:
    while folder and _join(folder, "__init__.py") in index.paths:
        folder = posixpath.dirname(folder)
    roots: list[str] = []
    for root in (*index.source_roots, "", folder, "src" if "src" in index.dirs else ""):
        # A configured root that is itself a package (source = ["django"]) is not where
        # imports start: matching `import json` inside it would shadow the stdlib.
        if _join(root, "__init__.py") in index.paths and root:
            continue
        if root not in roots:
            roots.append(root)
    return roots


def _python_module_in(folder: str, dotted: str, index: ProjectIndex) -> str | None:
    """``a.b`` under ``folder``: ``a/b.py``, else ``a/b/__init__.py`` (then the ``.pyi`` forms);
    the empty module (``from . import x``) is the package's ``__init__``."""
    key = (folder, dotted)
    if key not in index._py_modules:
        index._py_modules[key] = _python_module_lookup(folder, dotted, index)
    return index._py_modules[key]


def _python_module_lookup(folder: str, dotted: str, index: ProjectIndex) -> str | None:
    if dotted:
        base = _join(folder, dotted.replace(".", "/"))
        if base is None:
            return None
        candidates = [base + ".py", base + "/__init__.py", base + ".pyi", base + "/__init__.pyi"]
    else:
        candidates = [c for c in (_join(folder, "__init__.py"), _join(folder, "__init__.pyi")) if c]
    return next((c for c in candidates if index.exists(c)), None)


def _python_base(path: str, imp: Import) -> tuple[str | None, str, int]:
    """(folder the module is relative to, dotted module, level); folder None when absolute."""
    spec = imp.specifier
    dots = len(spec) - len(spec.lstrip("."))
    level = dots or imp.level
    module = spec.lstrip(".")
    if level == 0:
        return None, module, 0
    folder: str | None = posixpath.dirname(path)
    for _ in range(level - 1):
        if not folder:
            return "..", module, level  # climbs out of the project
        folder = posixpath.dirname(folder)
    return folder, module, level


def _python_find(path: str, folder: str | None, dotted: str, index: ProjectIndex) -> str | None:
    if folder == "..":
        return None
    if folder is not None:
        return _python_module_in(folder, dotted, index)
    for root in _python_roots(path, index):
        found = _python_module_in(root, dotted, index)
        if found:
            return found
    return None


def _resolve_python(path: str, imp: Import, index: ProjectIndex, out: _Result) -> None:
    folder, module, level = _python_base(path, imp)
    if imp.form == "from":
        targets = _python_from(path, imp, folder, module, index)
    else:
        found = _python_find(path, folder, module, index)
        names = (imp.alias or module,)
        targets = _local(index, found, Exposure(module_names=names)) if found else None
    if targets is not None:
        _add(out, path, imp, targets)
    elif level:
        _unresolved(out, path, imp.line, imp.specifier)
    else:
        _add(out, path, imp, [_external(module.split(".")[0])])


def _python_from(
    path: str, imp: Import, folder: str | None, module: str, index: ProjectIndex
) -> list[ImportTarget] | None:
    """``from a.b import c``: ``a/b/c.py`` when c is a module, else ``a/b/__init__.py``.

    None when nothing resolves (the caller decides between a warning and an external).
    """
    targets: list[ImportTarget] = []
    names: list[tuple[str, str]] = []
    found_any = False
    for b in imp.bindings:
        sub = _python_find(path, folder, f"{module}.{b.name}" if module else b.name, index)
        if sub:
            found_any = True
            targets += _local(index, sub, Exposure(module_names=(b.alias or b.name,)))
        else:
            names.append((b.alias or b.name, b.name))
    package = _python_find(path, folder, module, index)
    if package and (names or imp.star or not imp.bindings):
        found_any = True
        targets += _local(index, package, Exposure(names=tuple(names), star=imp.star))
    return targets if found_any else None


# ---------------------------------------------------------------- JavaScript / TypeScript


def _is_relative_js(spec: str) -> bool:
    return spec in (".", "..") or spec.startswith(("./", "../", "/"))


def _js_file(base: str, index: ProjectIndex) -> str | None:
    """The file a relative specifier names: as written, TS's ``.js``→``.ts``, extensions, index."""
    if base in index.paths:
        return base
    stem, ext = posixpath.splitext(base)
    candidates = [stem + alt for alt in _JS_WRITTEN_FOR.get(ext, ())]
    candidates += [base + e for e in JS_EXTENSIONS]
    candidates += [posixpath.join(base, "index") + e for e in JS_EXTENSIONS] if base else []
    return next((c for c in candidates if c in index.paths), None)


def js_package_name(spec: str) -> str:
    """``react/jsx-runtime`` -> ``react``; ``@scope/pkg/x`` -> ``@scope/pkg``."""
    parts = spec.split("/")
    return "/".join(parts[:2]) if spec.startswith("@") and len(parts) > 1 else parts[0]


def _resolve_js(path: str, imp: Import, index: ProjectIndex, out: _Result) -> None:
    exposure = Exposure(_binding_names(imp.bindings), imp.star, (imp.alias,) if imp.alias else ())
    spec = imp.specifier
    if not _is_relative_js(spec):
        found = _js_bare(path, spec, index)
        if found is not None:
            _add(out, path, imp, _local(index, found, exposure))
        else:
            _add(out, path, imp, [_external(js_package_name(spec), exposure)])
        return
    base = (
        _join("", spec.lstrip("/"))
        if spec.startswith("/")
        else _join(posixpath.dirname(path), spec)
    )
    found = _js_file(base, index) if base is not None else None
    if found is None:
        _unresolved(out, path, imp.line, spec)
    else:
        _add(out, path, imp, _local(index, found, exposure))


def _js_bare(path: str, spec: str, index: ProjectIndex) -> str | None:
    """A bare specifier inside the project: through the file's tsconfig ``paths`` and
    ``baseUrl``, else a workspace package (``@scope/pkg`` or ``@scope/pkg/sub``)."""
    config = index.ts_config(path)
    for cand in config.candidates(spec) if config is not None else []:
        found = _js_file(cand, index)
        if found is not None:
            return found
    name = js_package_name(spec)
    package = index.workspaces.get(name)
    if package is None:
        return None
    subpath = spec[len(name) :].lstrip("/")
    return next((f for f in (_js_file(c, index) for c in package.entries(subpath)) if f), None)


# ---------------------------------------------------------------- C / C++


def _resolve_c(path: str, imp: Import, index: ProjectIndex, out: _Result) -> None:
    """``"x.h"``: beside the file, then the include folders; ``<x.h>``: the include folders
    (``include_dirs``, then a compile_commands.json's ``-I``). What resolves nowhere is external."""
    spec = imp.specifier
    local = imp.form != "include-system"
    folders = [posixpath.dirname(path)] if local else []
    for cand in (_join(folder, spec) for folder in folders + index.c_include_dirs(path)):
        if index.exists(cand):
            _add(out, path, imp, _local(index, cand, Exposure(star=True)))  # type: ignore[arg-type]
            return
    _as_external(out, path, imp, " beside the file or in include_dirs" if local else "")


# ---------------------------------------------------------------- Rust


def _rust_child_dir(module_file: str) -> str:
    """Where ``mod x;`` inside ``module_file`` looks for ``x.rs`` / ``x/mod.rs``."""
    folder, name = posixpath.split(module_file)
    if name in _RUST_DIR_OWNERS or posixpath.basename(folder) in _RUST_CRATE_DIRS:
        return folder
    return posixpath.join(folder, name[:-3]) if folder else name[:-3]


def _rust_child(module_file: str, name: str, index: ProjectIndex) -> str | None:
    folder = _rust_child_dir(module_file)
    for cand in (_join(folder, name + ".rs"), _join(folder, name + "/mod.rs")):
        if index.exists(cand):
            return cand
    return None


def _rust_crate_root(path: str, index: ProjectIndex) -> str | None:
    name, folder = posixpath.basename(path), posixpath.dirname(path)
    if name in ("lib.rs", "main.rs") or posixpath.basename(folder) in _RUST_CRATE_DIRS:
        return path
    for anc in _ancestors(path):
        for root in ("lib.rs", "main.rs"):
            cand = _join(anc, root)
            if index.exists(cand):
                return cand
    return None


def _rust_parent(module_file: str, index: ProjectIndex) -> str | None:
    """The module file of ``super``."""
    folder, name = posixpath.split(module_file)
    if name in ("lib.rs", "main.rs"):
        return None
    container = posixpath.dirname(folder) if name == "mod.rs" else folder
    for cand in (
        _join(container, "lib.rs"),
        _join(container, "main.rs"),
        container + ".rs" if container else None,
        _join(container, "mod.rs"),
    ):
        if index.exists(cand) and cand != module_file:
            return cand
    return None


def _rust_start(
    path: str, segments: list[str], index: ProjectIndex, inline_depth: int = 0
) -> tuple[str | None, int]:
    """(module file the path starts in, segments consumed); (None, 0) for another crate.

    ``inline_depth`` is how many inline ``mod m { … }`` blocks hold the ``use``: that many
    ``super`` steps stay inside the file (``mod tests { use super::*; }``).
    """
    head = segments[0]
    if head == "crate":
        return _rust_crate_root(path, index), 1
    if head in ("self", "super"):
        module: str | None = path
        used = 0
        while used < len(segments) and segments[used] in ("self", "super") and module:
            if segments[used] == "super":
                if inline_depth:
                    inline_depth -= 1
                else:
                    module = _rust_parent(module, index)
            used += 1
        return module, used
    if _rust_child(path, head, index):  # 2018 edition: a child module named without self::
        return path, 0
    if head in index.rust_crates:  # another crate of the project (a workspace member)
        return index.rust_crates[head], 1
    return None, 0


def _resolve_rust(path: str, imp: Import, index: ProjectIndex, out: _Result) -> None:
    if imp.form == "mod":
        found = _rust_child(path, imp.specifier, index)
        if found is None:
            _unresolved(out, path, imp.line, imp.specifier)
            return
        _add(out, path, imp, _local(index, found, Exposure(module_names=(imp.specifier,))))
        return
    segments = [s for s in imp.specifier.split("::") if s]
    if not segments:
        return
    # The record's ``level`` of a Rust ``use``: inline ``mod { }`` blocks around it.
    module, used = _rust_start(path, segments, index, imp.level)
    if module is None:
        if segments[0] in ("crate", "self", "super"):
            _unresolved(out, path, imp.line, imp.specifier)
        else:
            _add(out, path, imp, [_external(segments[0])])
        return
    # ``use self::Item`` names the file's own items: not a dependency (nor a self-loop).
    targets = [t for t in _rust_use_targets(module, segments[used:], imp, index) if t.path != path]
    _add(out, path, imp, targets)


def _rust_use_targets(
    module: str, rest: list[str], imp: Import, index: ProjectIndex
) -> list[ImportTarget]:
    """Walk ``rest`` down the module tree; what remains names items of the last module."""
    last = posixpath.splitext(posixpath.basename(module))[0]
    while rest:
        child = _rust_child(module, rest[0], index)
        if child is None:
            break
        module, last, rest = child, rest[0], rest[1:]
    if rest:
        item = ".".join(rest)
        return _local(index, module, Exposure(names=((imp.alias or rest[-1], item),)))
    if not imp.bindings and not imp.star:
        return _local(index, module, Exposure(module_names=(imp.alias or last,)))
    targets: list[ImportTarget] = []
    names: list[tuple[str, str]] = []
    for b in imp.bindings:
        child = _rust_child(module, b.name, index) if b.name != "self" else module
        if child:
            local = b.alias or (last if b.name == "self" else b.name)
            targets += _local(index, child, Exposure(module_names=(local,)))
        else:
            names.append((b.alias or b.name, b.name))
    if names or imp.star:
        targets += _local(index, module, Exposure(names=tuple(names), star=imp.star))
    return targets


# ---------------------------------------------------------------- Go


def _go_module(path: str, index: ProjectIndex) -> tuple[str, str] | None:
    """(folder of the governing go.mod, its module path)."""
    for folder in _ancestors(path):
        gomod = _join(folder, "go.mod")
        if gomod not in index.paths:
            continue
        if gomod not in index._go_mods:
            index._go_mods[gomod] = _go_module_path(index.read_text(gomod) or "")
        module = index._go_mods[gomod]
        return (folder, module) if module else None
    return None


def _go_module_path(text: str) -> str | None:
    for line in text.splitlines():
        words = line.split("//")[0].split()
        if len(words) >= 2 and words[0] == "module":
            return words[1].strip('"`')
    return None


def go_package_name(import_path: str) -> str:
    """The name a Go import binds without an alias: the last segment (``v2`` skipped)."""
    parts = [p for p in import_path.split("/") if p]
    if len(parts) > 1 and _GO_MAJOR.match(parts[-1]):
        return parts[-2]
    return parts[-1] if parts else import_path


def go_package_files(folder: str, index: ProjectIndex, include_tests: bool = False) -> list[str]:
    return [
        p
        for p in index.files_in(folder)
        if p.endswith(".go") and (include_tests or not p.endswith("_test.go"))
    ]


def _resolve_go(path: str, imp: Import, index: ProjectIndex, out: _Result) -> None:
    spec = imp.specifier
    if imp.alias == "_":
        exposure = Exposure()
    elif imp.alias == ".":
        exposure = Exposure(star=True)
    else:
        exposure = Exposure(module_names=(imp.alias or go_package_name(spec),))
    module = _go_module(path, index)
    searched = ""
    if module and (spec == module[1] or spec.startswith(module[1] + "/")):
        folder = _join(module[0], spec[len(module[1]) :].lstrip("/"))
        files = go_package_files(folder, index) if folder is not None else []
        if files:
            _add(out, path, imp, [ImportTarget(f, None, exposure) for f in files])
            return
        searched = f": no Go files in '{folder}'"
    _as_external(out, path, imp, searched, exposure)


# ---------------------------------------------------------------- Ruby


def _with_rb(spec: str) -> str:
    return spec if spec.endswith(".rb") else spec + ".rb"


def _resolve_ruby(path: str, imp: Import, index: ProjectIndex, out: _Result) -> None:
    spec = imp.specifier
    if imp.form == "require_relative":
        cand = _join(posixpath.dirname(path), _with_rb(spec))
        if index.exists(cand):
            _add(out, path, imp, _local(index, cand, Exposure(star=True)))  # type: ignore[arg-type]
        else:
            _unresolved(out, path, imp.line, spec)
        return
    for lib in index.ruby_roots(path):
        cand = _join(lib, _with_rb(spec))
        if index.exists(cand):
            _add(out, path, imp, _local(index, cand, Exposure(star=True)))  # type: ignore[arg-type]
            return
    _add(out, path, imp, [_external(spec)])


# ---------------------------------------------------------------- metacall


def _resolve_metacall_load(
    path: str, load: MetacallLoad, index: ProjectIndex, out: _Result
) -> None:
    """Each loaded script: beside the file, then from the project root, then each source root."""
    targets: list[ImportTarget] = []
    for script in load.paths:
        folders = (posixpath.dirname(path), "", *index.source_roots)
        found = next((c for c in (_join(f, script) for f in folders) if index.exists(c)), None)
        if found is None:
            _unresolved(out, path, load.line, script)
        else:
            targets += _local(index, found, Exposure())
    if targets:
        out.imports.append(ResolvedImport(path, load.line, "metacall-load", tuple(targets), True))


_RESOLVERS: dict[LangId, Callable[[str, Import, ProjectIndex, _Result], None]] = {
    LangId.PYTHON: _resolve_python,
    LangId.JAVASCRIPT: _resolve_js,
    LangId.TYPESCRIPT: _resolve_js,
    LangId.TSX: _resolve_js,
    LangId.C: _resolve_c,
    LangId.CPP: _resolve_c,
    LangId.RUST: _resolve_rust,
    LangId.GO: _resolve_go,
    LangId.RUBY: _resolve_ruby,
}
