"""The registry of outputs (sitegen/site/outputs/__init__.py, content/guides/outputs.md): each
output declares its name, the options it reads, what a change of them rebuilds, its version
and whether it may run in a forked process; the plugins' outputs go through the same steps
(``emit_site(..., extra=...)``, content/guides/plugins.md)."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Sequence
from pathlib import Path

import pytest

from sitegen.base.diagnostics import Diagnostic, Sink
from sitegen.base.paths import OutPath
from sitegen.base.progress import Progress
from sitegen.build import build
from sitegen.config import OPTION_NAMES, Rebuild, load_config
from sitegen.records.result import BuildOptions, BuildResult
from sitegen.site.emit import emit_site
from sitegen.site.emitter import EmitRun, Emitter, OneFile
from sitegen.site.outputs import OUTPUTS
from sitegen.site.state import SiteState
from sitegen.state.ownership import OUTPUT_MARKER
from sitegen.state.remembered import SiteRecord

#: The properties of Config that stand for an option (content_rel is ``content`` made
#: relative); the others (root, generator, set_by) are no option a project sets.
PROPERTY_OPTIONS = {
    "site_title": "title",
    "content_rel": "content",
    "content_dir": "content",
    "out_dir": "out",
    "dialect": "markdown_extensions",
}


def test_every_output_declares_a_unique_name_and_its_options() -> None:
    names = [e.name for e in OUTPUTS]
    assert len(names) == len(set(names))
    for emitter in OUTPUTS:
        own = type(emitter).__dict__
        assert isinstance(own.get("name"), str) and own["name"], type(emitter)
        assert "options" in own, f"{emitter.name}: declares no options (write options = ())"
        assert set(emitter.options) <= set(OPTION_NAMES), emitter.name
        assert emitter.rebuild is Rebuild.SITE
        assert emitter.version == "" and emitter.fork_safe is True


def _options_read(module: object) -> set[str]:
    """The options a module reads as ``<...>.config.<name>``, properties as their option."""
    tree = ast.parse(inspect.getsource(module))  # type: ignore[arg-type]
    read = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value
        named = (isinstance(owner, ast.Name) and owner.id == "config") or (
            isinstance(owner, ast.Attribute) and owner.attr == "config"
        )
        if named:
            read.add(PROPERTY_OPTIONS.get(node.attr, node.attr))
    return read & set(OPTION_NAMES)


def test_the_options_an_output_reads_are_declared() -> None:
    """An option read in an output's module that none of its outputs declares fails here."""
    modules: dict[str, set[str]] = {}
    for emitter in OUTPUTS:
        modules.setdefault(type(emitter).__module__, set()).update(emitter.options)
    for name, declared in modules.items():
        module = inspect.getmodule(next(e for e in OUTPUTS if type(e).__module__ == name))
        assert _options_read(module) <= declared, name


# --- the plugins' outputs through the same steps --------------------------------------------


class _Extra(OneFile):
    """An output as a plugin adds one."""

    name = "extra"
    options = ("title",)
    version = "1.2"

    def __init__(self, path: str = "extra.txt") -> None:
        self.out = OutPath(path)

    def path(self, site: SiteState) -> OutPath:
        return self.out

    def render(self, run: EmitRun, out: OutPath) -> str:
        return f"{run.site.result.config.site_title}: {len(run.site.pages_by_node)} pages\n"


class _Raises(Emitter):
    name = "raises"

    def claim(self, run: EmitRun) -> list[OutPath]:
        return [OutPath("raises.txt")] if run.writer.claim(OutPath("raises.txt"), "x") else []

    def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
        raise RuntimeError("out of ink")


@pytest.fixture
def built(tmp_path: Path) -> BuildResult:
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "index.md").write_text("# Home\n\n[A](a.md)\n")
    (tmp_path / "content" / "a.md").write_text("# A\n")
    (tmp_path / "sitegen.toml").write_text('title = "Demo"\n')
    return build(load_config(tmp_path), BuildOptions(write_site=False, quiet=True, jobs=1))


def _emit(result: BuildResult, extra: Sequence[Emitter]) -> tuple[int, list[Diagnostic]]:
    """The site written with ``extra`` outputs: its number of files, and what was reported
    (into the build's sink where the emit step takes one, else onto the result)."""
    sink = Sink()
    given: dict[str, object] = {"extra": extra}
    if "sink" in inspect.signature(emit_site).parameters:  # the one sink (issue 31, point 4)
        given["sink"] = sink
    written = emit_site(result, Progress(enabled=False), 1, "", **given)  # type: ignore[arg-type]
    return written, [*result.diagnostics, *sink.sorted()]


def test_an_extra_output_writes_its_file_and_is_claimed_like_the_built_ins(
    built: BuildResult,
) -> None:
    site = built.config.out_dir
    # a clash with sitegen's own file: the built-in claimed first and wins
    written, _ = _emit(built, (_Extra(), _Extra("index.html")))
    assert (site / "extra.txt").read_text() == "Demo: 2 pages\n"
    assert "Demo: 2 pages" not in (site / "index.html").read_text()
    assert "<html" in (site / "index.html").read_text()  # the page, not the extra's text
    files = SiteRecord.read(site / OUTPUT_MARKER).files
    assert "extra.txt" in files and len(files) == written


def test_an_extra_output_that_raises_is_one_diagnostic_naming_it(built: BuildResult) -> None:
    from sitegen.plugins import PluginOutput  # the wrapper every plugin's output gets

    class Wrapped(PluginOutput):
        name = "raises"

    _, diagnostics = _emit(built, (Wrapped(_Raises(), "inky"), _Extra()))
    site = built.config.out_dir
    said = [d for d in diagnostics if "inky" in d.message]
    assert len(said) == 1 and "'raises'" in said[0].message and "out of ink" in said[0].message
    assert (site / "index.html").is_file() and (site / "a.html").is_file()
    assert (site / "extra.txt").read_text() == "Demo: 2 pages\n"
