"""Plugins: installed packages, named in the configuration, that add syntaxes, outputs and
checks through the same shapes as sitegen's own (content/guides/plugins.md).

sitegen runs no code of the repository it builds (content/guides/plugins.md): a plugin is
a distribution the user installed, found through its entry points in the groups
``sitegen.syntax``, ``sitegen.outputs`` and ``sitegen.checks``, and loaded only when the
``plugins`` option names it (the entry point's name is the plugin's). Whatever goes wrong while
loading one (not installed, an import that raises, an object of the wrong type, a name that is
taken) is one diagnostic naming it, and the build goes on without it; so is what its syntax,
output or check raises while it runs. Its distribution's version enters the caches' keys
(``plugins_key``, and the syntaxes' ``version`` the page records' key), and a plugin that
does not declare itself fork-safe makes the build run in one process (``jobs_for``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any, ClassVar, TypeVar

from markdown_it import MarkdownIt

from sitegen.analyse.checks import CHECKS, Check
from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.paths import OutPath
from sitegen.config import Config
from sitegen.docs.gates import rulers_of
from sitegen.docs.registry import PLUGIN, SYNTAXES, Syntax, SyntaxInstallError
from sitegen.generators import Dialect
from sitegen.site.emitter import EmitRun, Emitter
from sitegen.site.outputs import OUTPUTS

#: The entry-point groups a plugin's objects are found in, and what each must load.
SYNTAX_GROUP = "sitegen.syntax"
OUTPUTS_GROUP = "sitegen.outputs"
CHECKS_GROUP = "sitegen.checks"
GROUPS: tuple[str, ...] = (SYNTAX_GROUP, OUTPUTS_GROUP, CHECKS_GROUP)
#: The module attribute by which a plugin's module declares that its objects may run in
#: forked worker processes; a module without it is not fork-safe (content/guides/plugins.md).
FORK_SAFE = "SITEGEN_FORK_SAFE"


@dataclass(frozen=True)
class Plugin:
    """One loaded plugin: its name (the entry points'), its distribution's version, whether
    every module it loaded declares it fork-safe, and what it adds, each carrying the
    version and the guards that make what it raises one diagnostic naming it."""

    name: str
    version: str
    fork_safe: bool
    syntaxes: tuple[Syntax, ...] = ()
    outputs: tuple[Emitter, ...] = ()
    checks: tuple[Check, ...] = ()


@dataclass(frozen=True)
class Place:
    """Where the ``plugins`` option is written: what a diagnostic about a plugin points at."""

    path: str = "sitegen.toml"
    line: int = 1

    def diagnostic(self, level: Level, message: str) -> Diagnostic:
        return Diagnostic(self.path, self.line, 1, level, message, PLUGIN)


class PluginFailure(Exception):
    """What a plugin's syntax raised while a page was read, naming the plugin: the
    extraction (``sitegen/docs/pipeline.py``) catches it, reads the page without the
    plugins' syntaxes and puts this sentence in a warning on the page."""

    def __init__(self, plugin: str, what: str, exc: BaseException) -> None:
        super().__init__(f"plugin '{plugin}' raised while {what}: {_shown(exc)}")
        self.plugin = plugin


# --- loading ---------------------------------------------------------------------------------


def plugins_place(config: Config) -> Place:
    """The file and line of the ``plugins`` option (``sitegen.toml``, or pyproject.toml's
    ``[tool.sitegen]`` table), read again only to point at it; line 1 when it cannot be told."""
    shown = config.set_by.get("plugins", "")
    if not shown or shown == "the command line":
        return Place()
    try:
        text = (config.root / shown).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return Place(shown)
    # sitegen.toml: a top-level key, before any table; pyproject.toml: in [tool.sitegen]
    pyproject = shown.endswith("pyproject.toml")
    in_table = not pyproject
    for number, line in enumerate(text.splitlines(), 1):
        header = _TABLE.match(line)
        if header:
            in_table = pyproject and header.group(1).strip() == "tool.sitegen"
            continue
        if in_table and _PLUGINS_KEY.match(line):
            return Place(shown, number)
    return Place(shown)


_TABLE = re.compile(r"\s*\[([^\[\]]+)\]\s*(?:#.*)?$")
_PLUGINS_KEY = re.compile(r"\s*[\"']?plugins[\"']?\s*=")


def load_configured(config: Config) -> tuple[tuple[Plugin, ...], list[Diagnostic]]:
    """The plugins ``config.plugins`` names, and what loading them said, at the option."""
    if not config.plugins:
        return (), []
    return load_plugins(config.plugins, plugins_place(config))


def load_plugins(
    names: Sequence[str], where: Place = Place()
) -> tuple[tuple[Plugin, ...], list[Diagnostic]]:
    """The installed plugins ``names`` names, in that order, and one diagnostic for each
    that could not be loaded (the build goes on without it) or is not fork-safe. Only the
    entry points of the named plugins are loaded: an installed plugin not named runs nothing."""
    if not names:
        return (), []
    plugins: list[Plugin] = []
    diagnostics: list[Diagnostic] = []
    taken = _builtin_names()
    for name in names:
        try:
            plugin = _load_one(name, taken)
        except _NotLoaded as why:
            diagnostics.append(where.diagnostic(Level.WARNING, f"plugin '{name}' {why}"))
            continue
        plugins.append(plugin)
        taken = _with_names(taken, plugin)
    return tuple(plugins), diagnostics


class _NotLoaded(Exception):
    """Why a plugin was left out: the end of the diagnostic's sentence."""


_Taken = tuple[frozenset[str], frozenset[str], frozenset[str]]


def _builtin_names() -> _Taken:
    return (
        frozenset(s.name for s in SYNTAXES),
        frozenset(e.name for e in OUTPUTS),
        frozenset(c.name for c in CHECKS),
    )


def _with_names(taken: _Taken, plugin: Plugin) -> _Taken:
    return (
        taken[0] | {s.name for s in plugin.syntaxes},
        taken[1] | {e.name for e in plugin.outputs},
        taken[2] | {c.name for c in plugin.checks},
    )


def _entry_points(name: str) -> list[tuple[str, metadata.EntryPoint]]:
    found = []
    for group in GROUPS:
        for ep in metadata.entry_points(group=group, name=name):
            found.append((group, ep))
    return found


def _load_one(name: str, taken: _Taken) -> Plugin:
    found = _entry_points(name)
    if not found:
        raise _NotLoaded(
            "is not installed (no entry point of that name in "
            f"{', '.join(GROUPS)}); the build goes on without it"
        )
    dists = sorted({_dist_name(ep) for _, ep in found})
    if len(dists) > 1:
        raise _NotLoaded(
            f"is installed by more than one distribution ({', '.join(dists)}); "
            "the build goes on without it"
        )
    version = _version(found[0][1])
    loaded: dict[str, list[Any]] = {group: [] for group in GROUPS}
    fork_safe = True
    for group, ep in found:
        try:
            obj = ep.load()
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - a plugin's bug is one line
            raise _NotLoaded(
                f"could not be loaded ({ep.value}: {_shown(exc)}); the build goes on without it"
            ) from None
        loaded[group] = _objects(group, ep, obj)
        module = sys.modules.get(ep.module)
        fork_safe = fork_safe and getattr(module, FORK_SAFE, False) is True
    syntaxes = tuple(_plugin_syntax(name, version, s) for s in loaded[SYNTAX_GROUP])
    outputs = tuple(_plugin_output(name, version, e) for e in loaded[OUTPUTS_GROUP])
    checks = tuple(
        dataclasses.replace(c, version=version, plugin=name) for c in loaded[CHECKS_GROUP]
    )
    _check_names(name, syntaxes, outputs, checks, taken)
    if syntaxes:
        _check_install(syntaxes)
    fork_safe = (
        fork_safe
        and all(s.fork_safe for s in loaded[SYNTAX_GROUP])
        and all(getattr(e, "fork_safe", True) is True for e in loaded[OUTPUTS_GROUP])
    )
    return Plugin(name, version, fork_safe, syntaxes, outputs, checks)


_KINDS: dict[str, tuple[type, str]] = {
    SYNTAX_GROUP: (Syntax, "a Syntax (sitegen.docs.registry)"),
    OUTPUTS_GROUP: (Emitter, "an Emitter instance (sitegen.site.emitter)"),
    CHECKS_GROUP: (Check, "a Check (sitegen.analyse.checks)"),
}


def _objects(group: str, ep: metadata.EntryPoint, obj: object) -> list[Any]:
    """``obj`` as a list of the objects ``group`` holds, or why it is none."""
    kind, described = _KINDS[group]
    items = list(obj) if isinstance(obj, (list, tuple)) else [obj]
    wrong = next((item for item in items if not isinstance(item, kind)), None)
    if wrong is not None or not items:
        got = "an empty sequence" if not items else _type_name(wrong)
        raise _NotLoaded(
            f"could not be loaded ({ep.value} in {group} must be {described} or a sequence "
            f"of them, not {got}); the build goes on without it"
        )
    return items


def _check_names(
    name: str,
    syntaxes: Sequence[Syntax],
    outputs: Sequence[Emitter],
    checks: Sequence[Check],
    taken: _Taken,
) -> None:
    """A plugin adds names of its own: one it shares with sitegen or an earlier plugin is
    refused, so it can never replace a built-in (a forgotten gate or a check turned off)."""
    for kind, names, used in (
        ("syntax", [s.name for s in syntaxes], taken[0]),
        ("output", [e.name for e in outputs], taken[1]),
        ("check", [c.name for c in checks], taken[2]),
    ):
        seen: set[str] = set()
        for item in names:
            if item in used or item in seen:
                raise _NotLoaded(
                    f"could not be loaded (its {kind} '{item}' has a name already taken); "
                    "the build goes on without it"
                )
            seen.add(item)


def _check_install(syntaxes: tuple[Syntax, ...]) -> None:
    """The syntaxes install on sitegen's parser (after its own), or the plugin is left out
    here, once, instead of failing the parser of every page."""
    from sitegen.docs.markdown import parser_for  # the parser: only when a plugin has syntax

    try:
        parser_for(Dialect.NONE, syntaxes)
    except Exception as exc:  # noqa: BLE001 - a plugin's bug is one line, not a crash
        cause = exc.cause if isinstance(exc, SyntaxInstallError) else exc
        raise _NotLoaded(
            f"could not be loaded (its syntax could not be installed: {_shown(cause)}); "
            "the build goes on without it"
        ) from None


def _dist_name(ep: metadata.EntryPoint) -> str:
    dist = ep.dist
    return str(dist.name) if dist is not None else ""


def _version(ep: metadata.EntryPoint) -> str:
    dist = ep.dist
    return str(dist.version) if dist is not None and dist.version else ""


def _type_name(obj: object) -> str:
    if isinstance(obj, type):
        return f"the class {obj.__name__}"
    return f"a {type(obj).__name__}"


def _shown(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


# --- what the build asks of the loaded plugins ------------------------------------------------


def checks_of(plugins: Iterable[Plugin]) -> tuple[Check, ...]:
    """The plugins' checks, evaluated after sitegen's own."""
    return tuple(c for p in plugins for c in p.checks)


def plugins_key(plugins: Iterable[Plugin]) -> str:
    """What the loaded plugins add to the site's fingerprint: each plugin's name, version and
    the names of what it adds, in order; "" with no plugin, so a build without plugins keeps
    its fingerprint (content/guides/plugins.md#versions)."""
    parts = [
        "\0".join(
            (
                p.name,
                p.version,
                ",".join(s.name for s in p.syntaxes),
                ",".join(e.name for e in p.outputs),
                ",".join(c.name for c in p.checks),
            )
        )
        for p in plugins
    ]
    if not parts:
        return ""
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def jobs_for(jobs: int, plugins: Sequence[Plugin], where: Place) -> tuple[int, list[Diagnostic]]:
    """``jobs``, or 1 when a plugin is not fork-safe: its code must not run in forked
    workers. Said once, naming every such plugin (an info line)."""
    unsafe = [p.name for p in plugins if not p.fork_safe]
    if not unsafe:
        return jobs, []
    named = ", ".join(f"'{n}'" for n in unsafe)
    said = where.diagnostic(
        Level.INFO,
        f"plugin {named} {'does' if len(unsafe) == 1 else 'do'} not declare "
        f"{FORK_SAFE} = True; the build runs in one process",
    )
    return 1, [said]


# --- guards: what a plugin raises while it runs is one diagnostic naming it ------------------

_Fn = TypeVar("_Fn", bound=Callable[..., Any])


def _plugin_syntax(plugin: str, version: str, syntax: Syntax) -> Syntax:
    """``syntax`` with the plugin's version, and an ``install`` whose rules raise
    ``PluginFailure`` (naming the plugin) for anything they raise."""
    return dataclasses.replace(syntax, version=version, install=_GuardedInstall(plugin, syntax))


class _GuardedInstall:
    """Installs a plugin's syntax, then wraps every rule (parser and renderer) it added or
    replaced, so that a rule that raises names the plugin."""

    def __init__(self, plugin: str, syntax: Syntax) -> None:
        self.plugin, self.syntax = plugin, syntax

    def __call__(self, md: MarkdownIt) -> None:
        before = _rule_fns(md)
        rendering: dict[str, Any] = getattr(md.renderer, "rules", {})
        renderers = dict(rendering)
        self.syntax.install(md)  # what it raises: SyntaxInstallError, naming the syntax
        what = f"reading a page (syntax '{self.syntax.name}')"
        for ruler in rulers_of(md).values():
            changed = False
            for rule in ruler.__rules__:
                if before.get((id(ruler), rule.name)) is not rule.fn:
                    rule.fn = _guard(rule.fn, self.plugin, what)
                    changed = True
            if changed:
                ruler.__cache__ = None
        for name, fn in list(rendering.items()):
            if renderers.get(name) is not fn:
                rendering[name] = _guard(fn, self.plugin, what)


def _rule_fns(md: MarkdownIt) -> dict[tuple[int, str], Any]:
    return {(id(r), rule.name): rule.fn for r in rulers_of(md).values() for rule in r.__rules__}


def _guard(fn: _Fn, plugin: str, what: str) -> _Fn:
    def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PluginFailure:
            raise
        except Exception as exc:
            raise PluginFailure(plugin, what, exc) from exc

    return guarded  # type: ignore[return-value]


class PluginOutput(Emitter):
    """A plugin's output, run so that what it raises is one warning naming it and the site
    goes on without its files. It runs in the build's own process (never ``background``)
    and may write only inside the output folder."""

    background: ClassVar[bool] = False

    def __init__(self, inner: Emitter, plugin: str) -> None:
        self.inner, self.plugin = inner, plugin

    def claim(self, run: EmitRun) -> list[OutPath]:
        try:
            outs = list(self.inner.claim(run))
            outside = next((o for o in outs if not _inside(o)), None)
            if outside is not None:
                raise ValueError(f"'{outside}' lies outside the output folder")
        except Exception as exc:  # noqa: BLE001 - a plugin's bug is one line, not a crash
            self._failed(run, "claiming its files", exc)
            return []
        return outs

    def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
        try:
            self.inner.emit(run, outputs)
        except Exception as exc:  # noqa: BLE001 - a plugin's bug is one line, not a crash
            self._failed(run, "writing its files", exc)

    def _failed(self, run: EmitRun, what: str, exc: BaseException) -> None:
        message = (
            f"plugin '{self.plugin}' raised while {what} (output '{self.name}'): "
            f"{_shown(exc)}; the site goes on without them"
        )
        said = plugins_place(run.site.result.config).diagnostic(Level.WARNING, message)
        run.sink.add(said)  # the build's sink: the result is finished


def _inside(out: str) -> bool:
    parts = out.split("/")
    return bool(out) and not out.startswith("/") and "\\" not in out and ".." not in parts


def _plugin_output(plugin: str, version: str, emitter: Emitter) -> Emitter:
    """``emitter`` wrapped in a ``PluginOutput`` of its name, carrying the plugin's version."""
    attributes = {
        "name": emitter.name,
        "version": version,
        "fork_safe": getattr(emitter, "fork_safe", True),
        "options": getattr(emitter, "options", ()),
    }
    cls = type(f"PluginOutput_{plugin}", (PluginOutput,), attributes)
    output: Emitter = cls(emitter, plugin)
    return output
