"""Shards (content/reference/serialization.md#shards): version 8, endpoint names, round trip."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from recordkit import imp, rec, ref, sym

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.languages import LangId
from sitegen.code.shards import (
    SHARD_SCHEMA_VERSION,
    ShardCache,
    ShardFormatError,
    ShardVersionError,
    content_hash,
    dump_shard,
    load_shard,
    read_header,
)
from sitegen.records.code import (
    CommentLink,
    MetacallCall,
    MetacallLoad,
    Range,
    Symbol,
    SymbolKind,
    Visibility,
)


def _record():
    r = rec(
        "pkg/mod.py",
        [
            sym("Engine", "class", (1, 9)),
            sym("Engine.run", "method", (2, 5)),
            sym("_f", lines=(10, 11), visibility="private"),
            sym("_f", lines=(12, 13), visibility=None),
        ],
        [
            imp("os.path", line=1),
            imp("..up", "from", 2, names=("a", "b as c"), level=2),
            imp("x", "from", 3, star=True),
        ],
        [
            ref("self.go", "Engine.run", 3),
            ref("print", None, 14, "call"),
            ref("Base", "Engine", 1, "base"),
        ],
        [MetacallCall("sum", 4, "Engine.run")],
        [MetacallLoad("node", ("a.js", "b.js"), 2)],
    )
    r.symbols.append(
        Symbol("anon", "anon", SymbolKind.FUNCTION, Visibility.PUBLIC, Range(0, 1, 1, 1))
    )
    r.links.append(CommentLink("docs/x.md", "the docs", 40, 3, 7))
    r.imports += [replace(r.imports[0], line=20, context="deferred")]
    r.imports += [replace(r.imports[1], line=21, context="type-only")]
    r.diagnostics.append(Diagnostic("pkg/mod.py", 2, 1, Level.WARNING, "odd", "syntax"))
    r.has_error = True
    return r


def test_record_to_shard_to_record_is_the_identity():
    record = _record()
    text, warnings = dump_shard(record)
    assert warnings == []
    assert load_shard(text) == record


def test_an_import_keeps_when_it_runs_and_a_load_time_one_writes_nothing_for_it():
    text, _ = dump_shard(_record())
    rows = [json.loads(line) for line in text.splitlines()]
    contexts = [(r["line"], r.get("context")) for r in rows if r["record"] == "import"]
    assert contexts == [(1, None), (2, None), (3, None), (20, "deferred"), (21, "type-only")]
    assert [i.context for i in load_shard(text).imports] == ["", "", "", "deferred", "type-only"]


def test_every_line_declares_version_7_and_stores_no_numeric_ids():
    text, _ = dump_shard(_record())
    rows = [json.loads(line) for line in text.splitlines()]
    assert all(row["shard_schema_version"] == SHARD_SCHEMA_VERSION == 8 for row in rows)
    symbols = [r for r in rows if r["record"] == "symbol"]
    assert symbols[1]["endpoint"] == "python:pkg/mod.py::Engine.run"
    assert symbols[1]["parent"] == "python:pkg/mod.py::Engine"
    assert (symbols[1]["kind"], symbols[1]["visibility"]) == ("method", "public")
    refs = [r for r in rows if r["record"] == "reference"]
    assert [r["enclosing"] for r in refs] == [
        "python:pkg/mod.py::Engine.run",
        None,
        "python:pkg/mod.py::Engine",
    ]
    assert not any(key == "id" or key.endswith("_id") for row in rows for key in row)
    imports = [r for r in rows if r["record"] == "import"]
    assert imports[0]["specifier"] == "os.path"  # no quotes


def test_a_symbol_without_name_range_still_parses():
    text, _ = dump_shard(_record())
    rows = [json.loads(line) for line in text.splitlines()]
    assert "name_range" not in [r for r in rows if r["record"] == "symbol"][-1]
    stripped = []
    for row in rows:
        row.pop("name_range", None)
        stripped.append(json.dumps(row))
    loaded = load_shard("\n".join(stripped))
    assert all(s.name_range is None for s in loaded.symbols)
    assert [s.qualified_name for s in loaded.symbols] == [
        s.qualified_name for s in _record().symbols
    ]


@pytest.mark.parametrize("version", [4, 5, 6, 7, 9, "8", None])
def test_a_record_of_another_version_is_refused_naming_both_versions(version):
    text, _ = dump_shard(_record())
    lines = text.splitlines()
    row = json.loads(lines[2])
    if version is None:
        del row["shard_schema_version"]
    else:
        row["shard_schema_version"] = version
    lines[2] = json.dumps(row)
    with pytest.raises(ShardVersionError) as err:
        load_shard("\n".join(lines), "x.metast")
    message = str(err.value)
    assert f"version {version!r} found" in message and "reads version 8" in message
    assert (err.value.found, err.value.expected) == (version, SHARD_SCHEMA_VERSION)


def test_cache_get_put_and_content_hash(tmp_path):
    cache = ShardCache(tmp_path)
    assert cache.open() == []
    data = b"print('hi')\n"
    record = _record()
    record.content_hash = content_hash(data)
    assert cache.get(record.path, record.content_hash) is None
    cache.put(record)
    assert cache.get(record.path, content_hash(data)) == record
    assert cache.get(record.path, content_hash(b"changed")) is None
    assert cache.get("other.py", record.content_hash) is None
    assert json.loads((tmp_path / "shards" / "header.json").read_text()) == {
        "shard_schema_version": 8
    }
    assert [p.name for p in (tmp_path / "shards").iterdir() if p.name.endswith(".tmp")] == []
    assert ShardCache(tmp_path).get(record.path, record.content_hash) == record  # a new process


def test_prune_keeps_only_named_files(tmp_path):
    cache = ShardCache(tmp_path)
    cache.open()
    for path in ("a.py", "b.py", "c.py"):
        cache.put(rec(path))
    assert cache.prune({"b.py"}) == 2
    assert [cache.get(p, "hash-" + p) is not None for p in ("a.py", "b.py", "c.py")] == [
        False,
        True,
        False,
    ]


def test_a_cache_of_another_version_is_regenerated_with_a_warning(tmp_path):
    folder = tmp_path / "shards"
    folder.mkdir()
    (folder / "header.json").write_text('{"shard_schema_version": 4}\n')
    (folder / "old.metast").write_text('{"shard_schema_version": 4}\n')
    with pytest.raises(ShardVersionError, match=r"version 4 found.*version 8"):
        read_header(folder)
    warnings = ShardCache(tmp_path).open()
    assert [(w.level, w.code) for w in warnings] == [(Level.WARNING, "shard-version")]
    assert "version 4 found" in warnings[0].message and "version 8" in warnings[0].message
    assert sorted(p.name for p in folder.iterdir()) == ["header.json"]
    assert read_header(folder) == 8


def test_a_broken_shard_is_a_miss_and_clean_wipes(tmp_path):
    cache = ShardCache(tmp_path)
    cache.open()
    cache.put(rec("a.py"))
    cache.shard_path("a.py").write_text("{not json\n")
    assert cache.get("a.py", "hash-a.py") is None
    cache.put(rec("a.py"))
    assert cache.open(clean=True) == []
    assert cache.get("a.py", "hash-a.py") is None


def test_a_specifier_that_is_not_utf8_is_dropped_with_a_warning():
    record = rec("a.py", imports=[imp("ok"), imp("bad\udcff", line=4)])
    text, warnings = dump_shard(record)
    assert [w.format() for w in warnings] == [
        "a.py:4:1: warning: import specifier is not valid UTF-8; it is not cached"
    ]
    assert [i.specifier for i in load_shard(text).imports] == ["ok"]


def test_records_of_other_languages_round_trip(tmp_path):
    cache = ShardCache(tmp_path)
    for record in (
        rec("src/lib.rs", [sym("Foo", "struct")], [imp("crate::a", "use", names=("b",))]),
        rec("main.go", [sym("main")], [imp("fmt", "go", alias="f")], language=LangId.GO),
    ):
        cache.put(record)
        assert cache.get(record.path, record.content_hash) == record


def test_a_shard_cut_short_at_a_line_end_is_refused():
    text, _ = dump_shard(_record())
    lines = text.splitlines()
    with pytest.raises(ShardFormatError, match="incomplete"):
        load_shard("\n".join(lines[:-2]))
    with pytest.raises(ShardFormatError, match="incomplete"):
        load_shard("\n".join(lines[:-1]))
    assert json.loads(lines[-1]) == {
        "record": "end",
        "rows": len(lines) - 1,
        "shard_schema_version": 8,
    }
