"""Records at the bottom (issue 31, point 5): the records that pass between stages live in
``sitegen/records/`` (ARCHITECTURE.md#the-records-between-stages), the build result is
complete when the emitters receive it and they cannot change it, and the link step's inputs
are made by one constructor, ``LinkInputs.of``, in every driver."""

from __future__ import annotations

import ast
import dataclasses
import tomllib
from collections.abc import Sequence
from pathlib import Path

import pytest

from sitegen.base.paths import OutPath
from sitegen.build import BuildOptions, build
from sitegen.config import load_config
from sitegen.docs.pipeline import PageInputs
from sitegen.link.step import LinkInputs
from sitegen.records.result import BuildResult
from sitegen.site import emit
from sitegen.site.emitter import EmitRun, Emitter
from sitegen.site.outputs import OUTPUTS

ROOT = Path(__file__).resolve().parents[1]

FILES = {
    "sitegen.toml": 'content = "content"\n',
    "content/index.md": "# Home\n\n[guide](guide.md) [gone](gone.md) [part](guide.md#two)\n",
    "content/guide.md": "# Guide\n\n## Two\n\n[home](index.md#nowhere)\n",
    "src/app.py": "def run():\n    return 1\n",
}


def _project(root: Path) -> Path:
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    root = _project(tmp_path_factory.mktemp("records"))
    return build(load_config(root), BuildOptions(write_site=False, jobs=1, quiet=True))


def test_link_inputs_of_a_result_link_as_the_build_did(built: BuildResult) -> None:
    again = LinkInputs.of(built).link_all()
    assert again.resolutions == built.linked.resolutions
    assert again.edges_by_source == built.linked.edges_by_source
    assert again.broken == built.linked.broken
    assert sorted(b.target for b in again.broken) == ["gone.md", "index.md#nowhere"]


def test_link_one_and_trace_read_the_same_inputs(built: BuildResult) -> None:
    inputs = LinkInputs.of(built)
    home = next(p for p in built.pages if p.path == "content/index.md")
    node = next(n for n, rec in built.linked.resolutions.items() if n.endswith("index.md"))
    assert inputs.link_one(home) == built.linked.resolutions[node]
    traced = inputs.trace(home, home.links[1])
    assert traced.resolved == built.linked.resolutions[node][1]
    assert [d.code for d in traced.diagnostics] == ["broken-link"]  # gone.md, as the build said


def _calls(name: str, on: str = "") -> set[str]:
    """The modules of sitegen that call the function ``name`` (``on.name`` with ``on``)."""
    found = set()
    for path in sorted((ROOT / "sitegen").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if on:
                hit = isinstance(func, ast.Attribute) and func.attr == name
                hit = hit and isinstance(func.value, ast.Name) and func.value.id == on
            else:
                hit = isinstance(func, ast.Name) and func.id == name
            if hit:
                found.add(path.relative_to(ROOT).as_posix())
    return found


def test_the_link_steps_inputs_are_assembled_in_one_place() -> None:
    """No driver assembles the link step's inputs by hand: the index, the line counts and
    ``UnreadFiles`` are made in sitegen/link/step.py only, by ``LinkInputs``, which the
    build, ``sitegen explain`` and serve's preview each make with its constructor."""
    for name in ("crawl_index", "line_counts", "UnreadFiles", "link_all", "trace_link"):
        assert _calls(name) <= {"sitegen/link/step.py"}, name
    assert _calls("LinkInputs") == set(), "made by LinkInputs.of or LinkInputs.of_crawl only"
    drivers = _calls("of", on="LinkInputs") | _calls("of_crawl", on="LinkInputs")
    assert {"sitegen/build.py", "sitegen/site/preview.py"} <= drivers
    assert any(d.startswith("sitegen/commands") for d in drivers)  # sitegen explain


def test_page_inputs_read_a_page_as_the_build_did(built: BuildResult) -> None:
    """serve's preview extracts a saved page with ``PageInputs.of(config)``, as the build
    does: the same record."""
    rec = next(p for p in built.pages if p.path == "content/guide.md")
    data = (built.config.root / rec.path).read_bytes()
    assert PageInputs.of(built.config).extract(rec.path, data) == rec
    assert _calls("PageInputs") == set(), "made by PageInputs.of only"
    assert {"sitegen/build.py", "sitegen/site/preview.py"} <= _calls("of", on="PageInputs")


def _below_records() -> tuple[str, ...]:
    """The parts the pipeline's layer contract puts at or below ``sitegen.records``."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    layers = config["tool"]["importlinter"]["contracts"][0]["layers"]
    at = layers.index("sitegen.records")
    return tuple(m.strip() for layer in layers[at:] for m in layer.split("|"))


def test_every_record_module_is_data_and_low_in_the_layers() -> None:
    """sitegen/records/ imports nothing of a stage (crawl, extract, link, analyse, site …):
    only the layers below it, so every stage can name its records."""
    allowed = _below_records()
    assert "sitegen.crawl" not in allowed and "sitegen.graph" in allowed
    for path in sorted((ROOT / "sitegen" / "records").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sitegen"):
                module = node.module or ""
                assert any(module == m or module.startswith(m + ".") for m in allowed), (
                    path.name,
                    module,
                )


def test_the_build_result_is_frozen(built: BuildResult) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.written = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.diagnostics = ()  # type: ignore[misc]
    assert isinstance(built.diagnostics, tuple)  # no append either


#: What the driver sets after the emit step, in a new result: what it did, and the time.
AFTER_EMIT = {"written", "diagnostics", "seconds"}


def test_the_emitters_get_the_result_complete_and_cannot_change_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every stage's output is in the result the emitters read (the analysis' too); each
    field an emitter tries to set stays as it was, and the build's result is that one with
    only what the emit step did added."""
    root = _project(tmp_path / "p")
    seen: list[BuildResult] = []
    refused: list[str] = []

    class Changes(Emitter):
        name = "changes"

        def claim(self, run: EmitRun) -> list[OutPath]:
            result = run.site.result
            seen.append(result)
            for f in dataclasses.fields(result):
                try:
                    setattr(result, f.name, None)
                except dataclasses.FrozenInstanceError:
                    refused.append(f.name)
            return []

        def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
            pass

    monkeypatch.setattr(emit, "OUTPUTS", (*OUTPUTS, Changes()))
    final = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    [given] = seen
    names = [f.name for f in dataclasses.fields(BuildResult)]
    assert refused == names
    assert given.cycles is not None and given.insight is not None and given.stale is not None
    assert given.pages and given.code is not None
    for name in set(names) - AFTER_EMIT:
        assert getattr(final, name) is getattr(given, name), name
    assert final.written > given.written == 0
