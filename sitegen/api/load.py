"""Load the Python API the pages name into the plain model (sitegen/records/api.py), statically
with griffe: the project's packages from the crawl's bytes, and the installed packages their
aliases reach (Starlette for FastAPI's ``Request``) from the running environment, read-only.

Never imports or runs what it reads (griffe without inspection), never reads a project file
from disk (only ``Crawl.code``, so excluded and ignored files stay unread), and writes nothing
but ``.sitegen/api.json`` (content/guides/api-reference.md).
"""

from __future__ import annotations

import contextlib
import fnmatch
import hashlib
import importlib.machinery
import importlib.metadata
import logging
import os
import posixpath
import stat
import sys
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import griffe

from sitegen.api.cache import (
    FILE_NAME,
    AliasSite,
    PackageEntry,
    read_cache,
    without_gc,
    write_cache,
)
from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.languages import LangId
from sitegen.config import Config
from sitegen.records.api import (
    ApiKind,
    ApiModel,
    ApiObject,
    Docstring,
    Expression,
    Overload,
    Parameter,
    TypeRef,
    alias_step,
)
from sitegen.records.crawl import Crawl

#: A docstring longer than this many characters is cut there, with a warning.
MAX_DOCSTRING = 100_000
#: An installed package with more files or bytes than this is not read (its aliases stay).
DEPENDENCY_FILES = 2_000
DEPENDENCY_BYTES = 50_000_000
#: Where a needed path is named (a page and its line), for the warning when it is missing.
Where = tuple[str, int]
_SUFFIXES = (".py", ".pyi")
_CODE = "api"


def load_api(
    config: Config,
    found: Crawl,
    needed: Mapping[str, Where] | Collection[str],
    cache_dir: Path | None,
    *,
    dependency_paths: Sequence[str] | None = None,
) -> tuple[ApiModel, list[Diagnostic]]:
    """The objects of the top-level packages ``needed`` names (dotted paths: ``:::`` targets
    and ``api`` entries), plus the packages their aliases and public re-exports reach and
    mkdocstrings' ``preload_modules``; one warning per needed package that is nowhere.

    A package is read again only when its files changed: the entries of ``cache_dir /
    api.json`` are keyed by their hashes (None: no cache). Installed packages are looked
    for in ``dependency_paths`` (default ``sys.path``), never inside the project root."""
    where = _where_of(config, needed)
    handler = python_handler(config)
    session = _Session(
        _ProjectFiles(config, found, _handler_paths(config, found, handler)),
        _dependency_paths(config, dependency_paths),
        config.max_file_size,
    )
    cache_path = cache_dir / FILE_NAME if cache_dir is not None else None
    if cache_path is not None:
        session.cached, set_aside = read_cache(cache_path, griffe_version())
        session.diagnostics += set_aside
    with _griffe_quiet(), without_gc():
        for top in _tops([*where, *_strings(handler.get("options", {}), "preload_modules")]):
            if not session.add(top) and top in {p.partition(".")[0] for p in where}:
                session.missing(top, where)
        session.reach(list(where))
    session.diagnostics += _cycles(session.entries)
    if cache_path is not None and session.changed:
        write_cache(cache_path, griffe_version(), session.entries)
    return session.model, session.diagnostics


def griffe_version() -> str:
    for name in ("griffelib", "griffe"):
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            return importlib.metadata.version(name)
    return "unknown"


def python_handler(config: Config) -> dict[str, Any]:
    """The ``plugins: mkdocstrings: handlers: python`` table of the project's mkdocs.yml
    (``paths``, ``options`` …), {} when there is none; read as data by
    sitegen/generators/mkdocs.py, never run."""
    return dict(config.generator.api_handler) if config.generator is not None else {}


def _strings(table: Any, key: str) -> list[str]:
    given = table.get(key) if isinstance(table, dict) else None
    return [v for v in given if isinstance(v, str)] if isinstance(given, list) else []


def _where_of(config: Config, needed: Mapping[str, Where] | Collection[str]) -> dict[str, Where]:
    """Each needed path (stripped, non-empty) and where it is named; a bare collection is
    named by the configuration file."""
    if isinstance(needed, Mapping):
        return {p.strip(): w for p, w in needed.items() if p.strip()}
    origin = config.generator.config_file if config.generator else "sitegen.toml"
    return {p.strip(): (origin, 1) for p in needed if p.strip()}


def _tops(paths: list[str]) -> list[str]:
    return list(dict.fromkeys(p.partition(".")[0] for p in paths if p.partition(".")[0]))


# The sources: one top-level package's files, from the crawl or from the environment.


@dataclass(frozen=True)
class ModuleSource:
    """One module's file: its dotted name, the path messages name it by (a repository path,
    or for an installed package the path below its search folder), the path griffe is told
    and the bytes."""

    module: str
    path: str
    location: Path
    data: bytes


@dataclass
class PackageSource:
    """A top-level package's modules (parents before children) and the folders without
    ``__init__.py`` that are namespace packages (PEP 420, as griffe reads them)."""

    name: str
    modules: list[ModuleSource]
    namespaces: dict[str, list[Path]] = field(default_factory=dict)
    external: bool = False

    def key(self) -> str:
        digest = hashlib.sha256(f"{self.name}\0{self.external}\0".encode())
        for mod in self.modules:
            data_hash = hashlib.sha256(mod.data).hexdigest()
            digest.update(f"{mod.module}\0{mod.path}\0{data_hash}\0".encode())
        for name in sorted(self.namespaces):
            digest.update(f"ns\0{name}\0".encode())
        return digest.hexdigest()


def _module_name(rel: str) -> tuple[str, bool] | None:
    """``pkg/sub/mod.py`` -> (``pkg.sub.mod``, False); ``pkg/__init__.py`` -> (``pkg``,
    True); None for a file no import can name (``my-tool/x.py``, ``a.b.py``)."""
    stem, suffix = posixpath.splitext(rel)
    if suffix not in _SUFFIXES:
        return None
    parts = stem.split("/")
    is_init = parts[-1] == "__init__"
    if is_init:
        parts.pop()
    if not parts or not all(part.isidentifier() for part in parts):
        return None
    return ".".join(parts), is_init


def _assemble(
    name: str, files: list[tuple[str, str, Path, bytes]], external: bool
) -> PackageSource:
    """A package from its files: (path below the search folder, path shown, location,
    bytes). A ``.py`` wins over its ``.pyi``; a module below a folder without
    ``__init__.py`` inside a regular package is not importable and left out, as griffe
    leaves it."""
    by_module: dict[str, tuple[str, ModuleSource]] = {}
    inits: set[str] = set()
    folders: dict[str, list[Path]] = {}
    for rel, shown, location, data in files:
        named = _module_name(rel)
        if named is None:
            continue
        module, is_init = named
        if is_init:
            inits.add(module)
        kept = by_module.get(module)
        if kept is None or (kept[0].endswith(".pyi") and rel.endswith(".py")):
            by_module[module] = (rel, ModuleSource(module, shown, location, data))
        # The folders of the packages above: where a namespace package (no __init__) lies.
        below = location.parent.parent if is_init else location.parent
        parts = module.split(".")[:-1]
        for depth in range(len(parts), 0, -1):
            places = folders.setdefault(".".join(parts[:depth]), [])
            if below not in places:
                places.append(below)
            below = below.parent
    modules, namespaces = [], {}
    for module in sorted(by_module, key=lambda m: m.split(".")):
        chain = [".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)]
        regular = False
        importable = True
        for ancestor in chain:
            if ancestor in inits:
                regular = True
            elif regular:
                importable = False
            else:
                namespaces[ancestor] = folders.get(ancestor, [])
        if importable:
            modules.append(by_module[module][1])
    return PackageSource(name, modules, namespaces, external)


class _ProjectFiles:
    """The project's Python files (the crawl's), found by top-level name in the search roots:
    mkdocstrings' ``paths``, each source root, its ``src/`` and the folder above it, then the
    project root and ``src/``. Python's rule: the first regular package or module wins, else
    every namespace portion counts."""

    def __init__(self, config: Config, found: Crawl, first: list[str]) -> None:
        roots = list(first)
        for source in (s.strip("/") for s in config.source):
            roots += [source, posixpath.join(source, "src"), posixpath.dirname(source)]
        roots += ["", "src"]
        self.config = config
        normal = (posixpath.normpath(r) if r else "." for r in roots)
        self.roots = list(dict.fromkeys("" if r == "." else r for r in normal))
        self.index: list[dict[str, list[tuple[str, str, bytes]]]] = []
        python = [f for f in found.code if f.language is LangId.PYTHON]
        for root in self.roots:
            tops: dict[str, list[tuple[str, str, bytes]]] = {}
            prefix = f"{root}/" if root else ""
            for file in python:
                if file.path.startswith(prefix):
                    rel = file.path[len(prefix) :]
                    top = rel.partition("/")[0] if "/" in rel else posixpath.splitext(rel)[0]
                    tops.setdefault(top, []).append((rel, file.path, file.data))
            self.index.append(tops)

    def package(self, top: str) -> PackageSource | None:
        portions: list[tuple[str, str, bytes]] = []
        for tops in self.index:
            files = tops.get(top, [])
            if any(rel in _module_files(top) for rel, _, _ in files):
                return self._source(top, files)
            portions += files
        return self._source(top, portions) if portions else None

    def _source(self, top: str, files: list[tuple[str, str, bytes]]) -> PackageSource:
        root = self.config.root
        return _assemble(top, [(rel, path, root / path, data) for rel, path, data in files], False)


def _module_files(top: str) -> set[str]:
    """The files that make ``top`` a regular package or a module."""
    return {f"{top}/__init__.py", f"{top}/__init__.pyi", f"{top}.py", f"{top}.pyi"}


def _handler_paths(config: Config, found: Crawl, handler: dict[str, Any]) -> list[str]:
    """mkdocstrings' ``paths`` as repository paths (relative to mkdocs.yml's folder, globs
    matched against the crawl's folders); one above the root is never read."""
    gen = config.generator
    base = posixpath.dirname(gen.config_file) if gen is not None else ""
    out: list[str] = []
    for given in _strings(handler, "paths") or ["."]:
        rel = posixpath.normpath(posixpath.join(base, given))
        if rel == ".." or rel.startswith("../") or posixpath.isabs(rel):
            continue
        rel = "" if rel == "." else rel
        if any(ch in rel for ch in "*?["):
            out += sorted(d for d in found.all_dirs if fnmatch.fnmatchcase(d, rel))
        else:
            out.append(rel)
    return out


def _dependency_paths(config: Config, given: Sequence[str] | None) -> list[str]:
    """The folders installed packages are looked for in: never the project itself."""
    root = config.root.resolve()
    out = []
    for entry in sys.path if given is None else given:
        if not entry:
            continue
        folder = Path(entry).resolve()
        if folder == root or root in folder.parents:
            continue
        out.append(str(folder))
    return out


def _dependency(top: str, paths: list[str], max_file: int) -> PackageSource | str | None:
    """The installed package ``top`` (found the way ``import`` finds it, never imported),
    read-only; None when it is not installed, a reason when it is not read."""
    try:
        spec = importlib.machinery.PathFinder.find_spec(top, paths)
    except (ImportError, OSError, ValueError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        folders = [Path(p) for p in spec.submodule_search_locations]
    elif spec.origin and spec.origin.endswith(_SUFFIXES):
        folders = [Path(spec.origin)]
    elif spec.origin and Path(spec.origin).with_name(f"{top}.pyi").is_file():
        folders = [Path(spec.origin).with_name(f"{top}.pyi")]  # compiled: its stub
    else:
        return None
    files: list[tuple[str, str, Path, bytes]] = []
    total = 0
    for folder in folders:
        for location in _walk(folder):
            try:
                info = os.lstat(location)
                if not stat.S_ISREG(info.st_mode) or info.st_size > max_file:
                    continue
                total += info.st_size
                if len(files) >= DEPENDENCY_FILES or total > DEPENDENCY_BYTES:
                    return f"more than {DEPENDENCY_FILES:,} files or {DEPENDENCY_BYTES:,} bytes"
                rel = location.relative_to(folder.parent).as_posix()
                files.append((rel, rel, location, location.read_bytes()))
            except OSError:
                continue
    return _assemble(top, files, True)


def _walk(start: Path) -> Iterator[Path]:
    """The source files below ``start`` (or ``start`` itself), sorted; links are not
    followed, caches and folders no import can name are not entered."""
    if start.is_file():
        yield start
        return
    for folder, subfolders, names in os.walk(start, followlinks=False):
        subfolders[:] = sorted(d for d in subfolders if d.isidentifier())
        for name in sorted(names):
            if name.endswith(_SUFFIXES):
                yield Path(folder) / name


# The session: packages added on demand, from the cache or read with griffe.


class _Session:
    def __init__(self, project: _ProjectFiles, paths: list[str], max_file: int) -> None:
        self.project, self.paths, self.max_file = project, paths, max_file
        self.model = ApiModel()
        self.cached: dict[str, PackageEntry] = {}
        self.entries: dict[str, PackageEntry] = {}
        self.diagnostics: list[Diagnostic] = []
        self.tried: set[str] = set()
        self.changed = False

    def add(self, top: str) -> bool:
        """Load the package ``top`` once (the project's, else an installed one); whether it
        is in the model."""
        if top in self.tried:
            return top in self.entries
        self.tried.add(top)
        source = self.project.package(top)
        if source is None:
            found = _dependency(top, self.paths, self.max_file)
            if isinstance(found, str):
                self.diagnostics.append(
                    Diagnostic(
                        top,
                        1,
                        1,
                        Level.WARNING,
                        f"the installed package {top} is not read: {found}",
                        _CODE,
                    )
                )
                return False
            source = found
        if source is None:
            return False
        key = source.key()
        entry = self.cached.get(top)
        if entry is None or entry.key != key:
            entry, self.changed = read_package(source, key), True
        self.entries[top] = entry
        self.model.objects.update(entry.objects)
        self.model.aliases.update((path, site.target) for path, site in entry.aliases.items())
        self.model.alias_lines.update((path, site.line) for path, site in entry.aliases.items())
        self.diagnostics += entry.diagnostics
        return True

    def missing(self, top: str, where: dict[str, Where]) -> None:
        page, line = next(w for p, w in where.items() if p.partition(".")[0] == top)
        message = f"no Python module named {top}: not in the project's source folders nor installed"
        self.diagnostics.append(Diagnostic(page, max(line, 1), 1, Level.WARNING, message, _CODE))

    def reach(self, starts: list[str]) -> None:
        """Walk from the needed paths through members, aliases and public re-exports (a
        module's ``__all__``), loading each package an alias leads into, once."""
        queue, seen = list(reversed(starts)), set()
        while queue:
            path = queue.pop()
            if path in seen:
                continue
            canonical, unloaded = self._follow(path)
            if unloaded is not None:
                self.add(unloaded)
                queue.append(path)  # again, now that its package was tried
                continue
            seen.add(path)
            obj = self.model.objects.get(canonical) if canonical is not None else None
            if obj is None:
                continue
            for name, target in obj.members:
                own = target == f"{obj.canonical}.{name}"
                if own or (obj.exports is not None and name in obj.exports):
                    queue.append(target)

    def _follow(self, path: str) -> tuple[str | None, str | None]:
        """(the canonical path ``path`` stands for, None) or (None, the top-level package
        not tried yet that it leads into); (None, None) when it is nowhere."""
        for _ in range(ApiModel.MAX_HOPS):
            top = path.partition(".")[0]
            if top not in self.tried:
                return None, top
            if path in self.model.objects:
                return path, None
            step = alias_step(self.model.aliases, path)
            if step is None:
                return None, None
            path = step
        return None, None


# Reading one package with griffe and converting it to the model.


def read_package(source: PackageSource, key: str = "") -> PackageEntry:
    """The objects, aliases and warnings of one package, visited by griffe from its bytes."""
    loader = griffe.GriffeLoader(allow_inspection=False, search_paths=[])
    entry = PackageEntry(key or source.key())
    modules: dict[str, griffe.Module] = {}
    shown = {mod.module: mod.path for mod in source.modules}
    steps: list[tuple[str, ModuleSource | list[Path]]] = [
        *((m.module, m) for m in source.modules),
        *source.namespaces.items(),
    ]
    for name, what in sorted(steps, key=lambda step: step[0].split(".")):
        parent_name, _, last = name.rpartition(".")
        parent = modules.get(parent_name) if parent_name else None
        if parent_name and parent is None:
            continue  # its package did not load (a syntax error, warned about there)
        module = _module(loader, last if parent else name, what, parent, entry)
        if module is None:
            continue
        if parent is None:
            loader.modules_collection.set_member(name, module)
        else:
            parent.set_member(last, module)
        modules[name] = module
    top = modules.get(source.name)
    if top is not None:
        _post_load(loader, top)
        _convert(top, shown, source.external, entry)
    return entry


def _module(
    loader: griffe.GriffeLoader,
    name: str,
    what: ModuleSource | list[Path],
    parent: griffe.Module | None,
    entry: PackageEntry,
) -> griffe.Module | None:
    if isinstance(what, list):
        return griffe.Module(
            name,
            filepath=what,
            parent=parent,
            lines_collection=loader.lines_collection,
            modules_collection=loader.modules_collection,
        )
    try:
        code = what.data.decode("utf-8-sig")
        return griffe.visit(
            name,
            what.location,
            code,
            extensions=loader.extensions,
            parent=parent,
            lines_collection=loader.lines_collection,
            modules_collection=loader.modules_collection,
        )
    except UnicodeDecodeError as err:
        _warn(
            entry,
            what.path,
            1,
            1,
            f"not UTF-8 text (byte {err.start}): left out of the API reference",
        )
    except SyntaxError as err:
        line, col = err.lineno or 1, err.offset or 1
        _warn(
            entry, what.path, line, col, f"{err.msg}: this module is left out of the API reference"
        )
    except (ValueError, RecursionError, MemoryError, griffe.GriffeError) as err:
        _warn(
            entry,
            what.path,
            1,
            1,
            f"griffe cannot read this module ({type(err).__name__}): left out of the API reference",
        )
    return None


def _post_load(loader: griffe.GriffeLoader, top: griffe.Module) -> None:
    """What ``GriffeLoader.load`` does after visiting (without git): ``__all__`` and
    wildcard imports expanded within the package, and the dataclass extension's ``__init__``."""
    with contextlib.suppress(griffe.GriffeError, RecursionError, KeyError):
        loader.expand_exports(top)
    with contextlib.suppress(griffe.GriffeError, RecursionError, KeyError):
        loader.expand_wildcards(top, external=False)
    with contextlib.suppress(griffe.GriffeError, RecursionError, KeyError, AttributeError):
        loader.extensions.call("on_package", pkg=top, loader=loader)


def _warn(entry: PackageEntry, path: str, line: int, col: int, message: str) -> None:
    entry.diagnostics.append(
        Diagnostic(path, max(line, 1), max(col, 1), Level.WARNING, message, _CODE)
    )


def _convert(
    top: griffe.Module, shown: dict[str, str], external: bool, entry: PackageEntry
) -> None:
    """Every object of the package once, by canonical path, with its own members in
    insertion order; every alias as its first hop. Inherited members are not stored."""
    stack: list[griffe.Object] = [top]
    while stack:
        obj = stack.pop()
        module = obj.module.path
        file = "" if external else shown.get(module, "")
        members: list[tuple[str, str]] = []
        for name, member in obj.members.items():
            if isinstance(member, griffe.Alias):
                if member.wildcard:
                    continue  # from an unloaded package: nothing to name
                line = member.alias_lineno or 1
                entry.aliases[member.path] = AliasSite(
                    member.target_path, shown.get(module, module), line
                )
                members.append((name, member.target_path))
            else:
                members.append((name, member.path))
                stack.append(member)
        entry.objects[obj.path] = _api_object(
            obj, tuple(members), file, external, shown.get(module, module), entry
        )


def _api_object(
    obj: griffe.Object,
    members: tuple[tuple[str, str], ...],
    file: str,
    external: bool,
    shown: str,
    entry: PackageEntry,
) -> ApiObject:
    lineno = obj.lineno or 1
    extra: dict[str, Any] = {}
    if isinstance(obj, griffe.Function):
        extra["parameters"] = tuple(_parameter(p) for p in obj.parameters)
        extra["returns"] = _expression(obj.returns)
        extra["decorators"] = tuple(str(d.value) for d in obj.decorators)
        extra["overloads"] = tuple(
            Overload(tuple(_parameter(p) for p in o.parameters), _expression(o.returns))
            for o in obj.overloads or ()
        )
    elif isinstance(obj, griffe.Class):
        extra["bases"] = tuple(_required(_expression(b)) for b in obj.bases)
        extra["decorators"] = tuple(str(d.value) for d in obj.decorators)
    elif isinstance(obj, griffe.Attribute):
        extra["annotation"] = _expression(obj.annotation)
        extra["value"] = _expression(obj.value)
    elif isinstance(obj, griffe.TypeAlias):
        extra["value"] = _expression(obj.value)
    elif isinstance(obj, griffe.Module) and obj.exports is not None:
        extra["exports"] = tuple(e for e in obj.exports if isinstance(e, str))
    return ApiObject(
        canonical=obj.path,
        name=obj.name,
        kind=ApiKind(obj.kind.value),
        file=file,
        lineno=lineno,
        endlineno=max(obj.endlineno or lineno, lineno),
        labels=tuple(sorted(obj.labels)),
        docstring=_docstring(obj, shown, entry),
        members=members,
        is_public=obj.is_public,
        external=external,
        is_imported=obj.is_imported,
        **extra,
    )


def _docstring(obj: griffe.Object, shown: str, entry: PackageEntry) -> Docstring | None:
    if obj.docstring is None:
        return None
    text, line = obj.docstring.value, obj.docstring.lineno or obj.lineno or 1
    if len(text) > MAX_DOCSTRING:
        _warn(
            entry,
            shown,
            line,
            1,
            f"the docstring of {obj.path} has {len(text):,} characters; "
            f"the API reference shows its first {MAX_DOCSTRING:,}",
        )
        text = text[:MAX_DOCSTRING]
    return Docstring(text, line)


def _parameter(param: griffe.Parameter) -> Parameter:
    variadic = param.kind in (
        griffe.ParameterKind.var_positional,
        griffe.ParameterKind.var_keyword,
    )
    # griffe gives ``*args`` the default "()" and ``**kwargs`` "{}": not in the source.
    default = None if variadic else _expression(param.default)
    kind = param.kind.value if param.kind is not None else "positional or keyword"
    return Parameter(param.name, kind, _expression(param.annotation), default)


def _expression(value: str | griffe.Expr | None) -> Expression | None:
    """Source text and the names it refers to (``list[Thing]`` -> ``pkg.mod.Thing``, as
    griffe resolves the name in its scope: the first hop of an import)."""
    if value is None:
        return None
    if isinstance(value, str):
        return Expression(value)
    names = []
    for part in value.iterate(flat=True):
        if isinstance(part, griffe.ExprName):
            try:
                path = part.canonical_path
            except (griffe.GriffeError, KeyError, AttributeError, RecursionError):
                path = part.name
            names.append(TypeRef(part.name, path))
    return Expression(str(value), tuple(names))


def _required(expr: Expression | None) -> Expression:
    return expr if expr is not None else Expression("")


def _cycles(entries: dict[str, PackageEntry]) -> list[Diagnostic]:
    """One warning per cycle of aliases (``a.X`` names ``b.X``, which names ``a.X``), at the
    alias of the cycle that sorts first; linear in the number of aliases."""
    sites = {path: site for entry in entries.values() for path, site in entry.aliases.items()}
    state: dict[str, int] = {}  # 1: on the current walk, 2: done
    out = []
    for start in sorted(sites):
        walk: list[str] = []
        path: str | None = start
        while path is not None and path in sites and path not in state:
            state[path] = 1
            walk.append(path)
            path = sites[path].target
        if path is not None and state.get(path) == 1:
            cycle = walk[walk.index(path) :]
            first = min(cycle)
            chain = " -> ".join([*cycle[cycle.index(first) :], *cycle[: cycle.index(first)], first])
            site = sites[first]
            message = f"a cycle of aliases: {chain}; none of them is documented"
            out.append(Diagnostic(site.file, site.line, 1, Level.WARNING, message, _CODE))
        for done in walk:
            state[done] = 2
    return out


@contextlib.contextmanager
def _griffe_quiet() -> Iterator[None]:
    """griffe's own log lines stay out of the build's output: its findings that matter are
    this module's warnings."""
    logger = logging.getLogger("griffe")
    before = logger.disabled
    logger.disabled = True
    try:
        yield
    finally:
        logger.disabled = before
