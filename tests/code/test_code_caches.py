"""The code steps' caches give what a cold run gives: the shards (one per source file), the
link cache (what linking adds across files, sitegen/code/linkcache.py), the shards written by
the extraction workers, and the flow found by the extraction's own query.

Each test compares whole graphs, records and diagnostics with a run that had no cache, and
counts what was parsed or resolved again; nothing here is timed."""

from __future__ import annotations

import gc
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import sitegen.code.extract
import sitegen.code.link
from sitegen.base.languages import LangId
from sitegen.base.progress import Progress
from sitegen.code.dataflow import data_flow, flow_pattern
from sitegen.code.extract import extract_source
from sitegen.code.grammars import get_language, load_query, query_source
from sitegen.code.link import build_code_graph
from sitegen.code.linkcache import FILE_NAME
from sitegen.code.memory import long_lived_objects
from sitegen.code.pipeline import extract_records
from sitegen.code.serialize import dump_code_graph_json
from sitegen.code.shards import ShardCache, dump_shard
from sitegen.config import load_config
from sitegen.crawl import crawl
from sitegen.records.code import CodeRecord, Import
from sitegen.records.code_graph import EdgeKind

FIXTURES = Path(__file__).parent / "fixtures" / "projects"
RUST = "pub fn total(a: u32, b: u32) -> u32 {\n    let s = a + b;\n    s\n}\n"


def project(tmp_path: Path, modules: int = 0) -> Path:
    """A Go module at the root (its go.mod is read by the resolver), the Python fixture's
    packages, a Rust file and ``modules`` more Python files."""
    root = tmp_path / "proj"
    shutil.copytree(FIXTURES / "go", root)
    for folder in ("app", "scripts"):
        shutil.copytree(FIXTURES / "python" / folder, root / folder)
    (root / "src").mkdir()
    (root / "src" / "lib.rs").write_text(RUST, encoding="utf-8")
    for i in range(modules):
        (root / "app" / f"gen{i}.py").write_text(
            f"from app.models import Model\n\n\ndef f{i}(x):\n    y = Model(x)\n    return y\n",
            encoding="utf-8",
        )
    (root / "content").mkdir()
    (root / "content" / "index.md").write_text("# Home\n", encoding="utf-8")
    return root


class Run:
    """One pass of the code steps (crawl, extract_records, build_code_graph) over ``root``,
    counting the files parsed and the resolutions run."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch, jobs: int = 1) -> None:
        counts = {"parsed": 0, "resolved": 0}
        real_extract, real_resolve = extract_source, sitegen.code.link._resolve

        def counting_extract(*args: Any) -> CodeRecord:
            counts["parsed"] += 1
            return real_extract(*args)

        def counting_resolve(*args: Any) -> Any:
            counts["resolved"] += 1
            return real_resolve(*args)

        monkeypatch.setattr(sitegen.code.extract, "extract_source", counting_extract)
        monkeypatch.setattr(sitegen.code.link, "_resolve", counting_resolve)
        config = load_config(root, jobs=jobs)
        found = crawl(config)
        self.records, self.diagnostics = extract_records(
            found, config, jobs, False, Progress(enabled=False)
        )
        self.graph, link_diagnostics = build_code_graph(
            self.records, config, set(found.all_paths), found.manifests.get
        )
        self.diagnostics += link_diagnostics
        self.parsed, self.resolved = counts["parsed"], counts["resolved"]
        monkeypatch.undo()

    def same_as(self, other: Run, set_aside: str = "") -> bool:
        """The same graph, records and diagnostics as ``other``; with ``set_aside``, one
        warning more: that this cache file did not check and was set aside."""
        mine = self.diagnostics
        if set_aside:
            healed = [d for d in mine if d.path == f".sitegen/shards/{set_aside}"]
            if len(healed) != 1 or "set aside as" not in healed[0].message:
                return False
            mine = [d for d in mine if d not in healed]
        return (
            self.graph == other.graph
            and dump_code_graph_json(self.graph) == dump_code_graph_json(other.graph)
            and self.records == other.records
            and mine == other.diagnostics
        )


def cold(root: Path, monkeypatch: pytest.MonkeyPatch, jobs: int = 1) -> Run:
    shutil.rmtree(root / ".sitegen", ignore_errors=True)
    return Run(root, monkeypatch, jobs)


def link_cache(root: Path) -> Path:
    return root / ".sitegen" / "shards" / FILE_NAME


def test_a_warm_run_gives_the_cold_graph_without_parsing_or_resolving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path)
    first = cold(root, monkeypatch)
    assert (first.parsed, first.resolved) == (len(first.records), 1)
    assert {r.language for r in first.records} >= {LangId.GO, LangId.PYTHON, LangId.RUST}
    assert link_cache(root).is_file()
    assert first.graph.edges(EdgeKind.FLOW) and first.graph.edges(EdgeKind.REFERENCE)
    warm = Run(root, monkeypatch)
    assert (warm.parsed, warm.resolved) == (0, 0)
    assert warm.same_as(first)


def test_a_changed_file_is_parsed_and_linked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path)
    before = cold(root, monkeypatch)
    models = root / "app" / "models.py"
    models.write_text(
        models.read_text() + "\n\ndef added(v):\n    w = v\n    return w\n", encoding="utf-8"
    )
    changed = Run(root, monkeypatch)
    assert (changed.parsed, changed.resolved) == (1, 1)
    assert not changed.same_as(before)
    assert changed.same_as(cold(root, monkeypatch))


def test_a_changed_manifest_is_resolved_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path)
    before = cold(root, monkeypatch)
    (root / "go.mod").write_text("module example.com/other\n\ngo 1.22\n", encoding="utf-8")
    changed = Run(root, monkeypatch)
    assert (changed.parsed, changed.resolved) == (0, 1)  # go.mod is read, never parsed
    assert changed.graph.edges(EdgeKind.IMPORT) != before.graph.edges(EdgeKind.IMPORT)
    assert changed.same_as(cold(root, monkeypatch))


def _unknown_node(doc: dict[str, Any]) -> None:
    doc["edges"][0][1] = "python:app/nowhere.py::gone"


def _string_confidence(doc: dict[str, Any]) -> None:
    doc["edges"][0][3] = "0.9"


def _flow_edge(doc: dict[str, Any]) -> None:
    doc["edges"][0][2] = "flow"


def _short_row(doc: dict[str, Any]) -> None:
    doc["diagnostics"].append(["app/main.py", 1])


def _other_reads(doc: dict[str, Any]) -> None:
    doc["reads"]["go.mod"] = None


@pytest.mark.parametrize(
    "spoil", [_unknown_node, _string_confidence, _flow_edge, _short_row, _other_reads]
)
def test_a_link_cache_that_does_not_check_is_resolved_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spoil: Any
) -> None:
    root = project(tmp_path)
    first = cold(root, monkeypatch)
    doc = json.loads(link_cache(root).read_text())
    spoil(doc)
    link_cache(root).write_text(json.dumps(doc))
    again = Run(root, monkeypatch)
    assert (again.parsed, again.resolved) == (0, 1)
    # Made of other inputs: a miss. Anything else did not check: set aside, with a warning.
    assert again.same_as(first, "" if spoil is _other_reads else FILE_NAME)
    after = Run(root, monkeypatch)
    assert after.resolved == 0  # the run wrote a sound cache again
    assert after.same_as(first)


@pytest.mark.parametrize("text", ["", "{not json", "[]", '{"key": 1}'])
def test_a_link_cache_that_does_not_read_is_resolved_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    root = project(tmp_path)
    first = cold(root, monkeypatch)
    link_cache(root).write_text(text)
    again = Run(root, monkeypatch)
    assert again.resolved == 1 and again.same_as(first, FILE_NAME)
    assert link_cache(root).with_name(FILE_NAME + ".unreadable").read_text() == text


def test_records_made_without_a_shard_are_never_cached(tmp_path: Path) -> None:
    root = project(tmp_path)
    config = load_config(root)
    ShardCache(config.cache_dir).open()  # the folder exists, as after a build
    found = crawl(config)
    records = [extract_source(f.path, f.language, f.data) for f in found.code]
    assert all(r.shard_digest is None for r in records)
    graph, _ = build_code_graph(records, config, set(found.all_paths), found.manifests.get)
    assert graph.edges(EdgeKind.IMPORT)
    assert not link_cache(root).exists()


def test_no_link_cache_is_written_where_no_shard_folder_is(tmp_path: Path) -> None:
    root = project(tmp_path)
    config = load_config(root)
    cache = ShardCache(tmp_path / "elsewhere")
    found = crawl(config)
    records = []
    for f in found.code:
        record = extract_source(f.path, f.language, f.data)
        cache.put(record)
        records.append(record)
    assert all(r.shard_digest is not None for r in records)
    build_code_graph(records, config, set(found.all_paths), found.manifests.get)
    assert not (root / ".sitegen").exists()


def test_a_record_whose_shard_drops_an_import_is_not_named_by_it(tmp_path: Path) -> None:
    record = extract_source("a.py", LangId.PYTHON, b"import os\n")
    record.imports.append(Import("bad\udcff", "import", 2))
    cache = ShardCache(tmp_path)
    assert cache.put(record) and record.shard_digest is None
    loaded = cache.get("a.py", record.content_hash)
    assert loaded is not None and loaded.shard_digest is not None


def test_workers_write_the_shards_and_give_the_records_of_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, modules=70)  # above the size at which work is forked
    one = cold(root, monkeypatch, jobs=1)
    two = cold(root, monkeypatch, jobs=2)
    assert two.same_as(one)
    warm = Run(root, monkeypatch)
    assert (warm.parsed, warm.resolved) == (0, 0)
    assert warm.same_as(one)


@pytest.mark.parametrize("path", ["python/app/main.py", "python/app/models.py", "rust/src/lib.rs"])
def test_the_extraction_query_finds_the_flow_of_the_flow_query(path: str) -> None:
    data = (FIXTURES / path).read_bytes()
    lang = LangId.RUST if path.endswith(".rs") else LangId.PYTHON
    record = extract_source(path, lang, data)
    nodes, edges = data_flow(record, data)  # its own query, stops found again
    assert [v.id for v in record.data] == [n.id for n in nodes]
    assert [(f.src, f.dst, f.line, f.kind) for f in record.flows] == [
        (e.src, e.dst, e.line, e.flow_kind) for e in edges
    ]


@pytest.mark.parametrize("lang", list(LangId))
def test_the_flow_pattern_is_the_last_pattern_of_the_extraction_query(lang: LangId) -> None:
    from tree_sitter import Query

    own = Query(get_language(lang), query_source(lang)).pattern_count
    flows = 1 if flow_pattern(lang) else 0
    assert load_query(lang).pattern_count == own + flows
    assert bool(flows) == (lang in (LangId.PYTHON, LangId.RUST))


def test_every_shard_line_is_json_with_sorted_keys() -> None:
    source = "def café(naïve, x: 'ünï'):\n    return naïve\n# see https://example.com/ä\n"
    record = extract_source("pkg/é.py", LangId.PYTHON, source.encode())
    text, _ = dump_shard(record)
    for line in text.splitlines():
        assert line == json.dumps(json.loads(line), sort_keys=True)


def test_long_lived_objects_restores_the_thresholds() -> None:
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        with long_lived_objects():
            assert gc.get_threshold() == (200_000, 50, 1_000)
        assert gc.get_threshold() == (700, 10, 10)
        gc.set_threshold(0)  # collection off: left off
        with long_lived_objects():
            assert gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*before)


def test_a_file_too_deep_to_analyse_is_a_warning_not_a_crash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """CPython's own test files nest deeper than the recursion limit allows a walk: such a
    file gets an empty record and one warning, and the build goes on."""
    from sitegen.base.languages import LangId
    from sitegen.code import extract, pipeline

    real = extract.extract_source

    def deep(path: str, lang: LangId, data: bytes) -> CodeRecord:
        if path == "deep.py":
            raise RecursionError("maximum recursion depth exceeded")
        return real(path, lang, data)

    monkeypatch.setattr(extract, "extract_source", deep)
    rec = pipeline._extract_one("deep.py", LangId.PYTHON, b"x = 1\n")
    assert rec.symbols == [] and rec.has_error
    assert [(d.path, d.line, d.level.value, d.code) for d in rec.diagnostics] == [
        ("deep.py", 1, "warning", "code")
    ]
    assert pipeline._extract_one("ok.py", LangId.PYTHON, b"def f(): pass\n").symbols


def test_the_link_caches_key_reads_modules_that_exist() -> None:
    """Each module the link cache's key hashes is where the code is: after a module moves,
    a pattern that matches nothing would let a cache outlive a change of resolution."""
    import sitegen
    from sitegen.code import linkcache

    package = Path(sitegen.__file__).parent
    empty = [p for p in linkcache._RESOLUTION_CODE if not sorted(package.glob(p))]
    assert empty == []
