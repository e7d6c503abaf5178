"""Rust extraction against a hand-written fixture (content/reference/code-graph.md)."""

from __future__ import annotations

from pathlib import Path

from recordkit import symbol_rows

from sitegen.base.languages import LangId
from sitegen.code.extract import extract_source
from sitegen.records.code import Binding, CodeRecord, Import, Reference

FIXTURE = Path(__file__).parent / "fixtures" / "extract" / "sample.rs"


def _extract() -> CodeRecord:
    return extract_source("src/sample.rs", LangId.RUST, FIXTURE.read_bytes())


def test_symbols_impl_methods_are_owned_by_the_type() -> None:
    got = symbol_rows(_extract())
    assert got == [
        ("Store", "struct", "public", "Store", None, 9, 11),
        ("Mode", "enum", "private", "Mode", None, 13, 13),
        ("Runner", "trait", "public", "Runner", None, 15, 20),
        ("name", "method", "public", "Runner.name", "Runner", 17, 19),  # follows the trait
        ("new", "method", "public", "Store.new", "Store", 23, 25),
        ("fill", "method", "private", "Store.fill", "Store", 26, 29),
        ("run", "method", "public", "Store.run", "Store", 33, 36),  # impl Runner for Store
        ("fmt", "method", "public", "Wrapper.fmt", None, 40, 40),  # Wrapper is elsewhere
        ("helper", "function", "public", "helper", None, 43, 46),  # pub(crate)
        ("inner", "function", "private", "helper.inner", "helper", 44, 44),
    ]


def test_mod_and_use_trees() -> None:
    assert _extract().imports == [
        Import("crate::engine", "use", 2, (Binding("Engine"), Binding("Config", "Cfg")), star=True),
        Import("crate::engine::parts", "use", 2, (Binding("self"), Binding("Part"))),
        Import("super", "use", 3, (Binding("sibling"),)),
        Import("std::collections", "use", 4, (Binding("HashMap"),)),
        Import("serde", "use", 5),
        Import("api", "mod", 6),
        Import("internal", "mod", 7),
    ]


def test_references() -> None:
    assert _extract().references == [
        Reference("HashMap", "type", 10, "Store"),
        Reference("String", "type", 10, "Store"),
        Reference("Part", "type", 10, "Store"),
        Reference("Base", "base", 15, "Runner"),
        Reference("fmt::Debug", "base", 15, "Runner"),
        Reference("Mode", "type", 16, "Runner"),
        Reference("String", "type", 17, "Runner.name"),
        Reference("helper", "call", 18, "Runner.name"),
        Reference("Store", "type", 22, None),
        Reference("Store", "type", 23, "Store.new"),
        Reference("Store", "type", 24, "Store.new"),
        Reference("HashMap::new", "call", 24, "Store.new"),
        Reference("Cfg", "type", 26, "Store.fill"),
        Reference("self.items.clear", "call", 27, "Store.fill"),
        Reference("parts::load", "call", 28, "Store.fill"),
        Reference("Runner", "base", 32, "Store"),  # `impl Runner for Store`: Store uses Runner
        Reference("Store", "type", 32, None),
        Reference("Mode", "type", 33, "Store.run"),
        Reference("T", "type", 39, None),
        Reference("fmt::Display", "base", 39, None),  # Wrapper is not in this file
        Reference("Wrapper", "type", 39, None),
        Reference("T", "type", 39, None),
        Reference("fmt::Formatter", "type", 40, "Wrapper.fmt"),
        Reference("fmt::Result", "type", 40, "Wrapper.fmt"),
        Reference("Ok", "call", 40, "Wrapper.fmt"),
        Reference("String", "type", 43, "helper"),
        Reference("String::new", "call", 45, "helper"),
    ]


def test_doc_comment_links() -> None:
    assert [(link.href, link.line, link.column) for link in _extract().links] == [
        ("../docs/guide.md", 1, 39),
        ("https://example.com/rust", 34, 16),
    ]


def test_use_inside_an_inline_mod_counts_its_enclosing_mods() -> None:
    """`mod tests { use super::*; }` names the file's own module: level 1 tells the resolver."""
    from sitegen.base.languages import LangId
    from sitegen.code.extract import extract_source
    from sitegen.code.link import build_code_graph
    from sitegen.config import Config
    from sitegen.records.code_graph import EdgeKind

    util = b"pub fn help() {}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    fn t() { help(); }\n}\n"
    lib = b"mod util;\npub fn run() { util::help(); }\n"
    rec = extract_source("src/util.rs", LangId.RUST, util)
    assert [(i.specifier, i.level) for i in rec.imports] == [("super", 1)]
    records = [extract_source("src/lib.rs", LangId.RUST, lib), rec]
    graph, _ = build_code_graph(records, Config(), {"src/lib.rs", "src/util.rs"})
    imports = {
        (graph.file_of(e.src).path, graph.file_of(e.dst).path if graph.file_of(e.dst) else e.dst)
        for e in graph.edges(EdgeKind.IMPORT)
    }
    assert imports == set()  # no false util -> lib edge, no cycle
    modules = {
        (graph.file_of(e.src).path, graph.file_of(e.dst).path)
        for e in graph.edges(EdgeKind.OWNERSHIP)
        if e.dst in graph.files
    }
    assert modules == {("src/lib.rs", "src/util.rs")}  # `mod util;` is ownership


def test_extern_crate_names_a_workspace_crate_by_its_cargo_name() -> None:
    from sitegen.base.languages import LangId
    from sitegen.code.extract import extract_source
    from sitegen.code.link import build_code_graph
    from sitegen.config import Config
    from sitegen.records.code_graph import EdgeKind

    facade = b"pub extern crate grep_cli as cli;\nextern crate serde;\n"
    records = [
        extract_source("grep/src/lib.rs", LangId.RUST, facade),
        extract_source("cli/src/lib.rs", LangId.RUST, b"pub fn run() {}\n"),
    ]
    manifests = {
        "cli/Cargo.toml": '[package]\nname = "grep-cli"\n',
        "grep/Cargo.toml": '[package]\nname = "grep"\n',
    }
    graph, _ = build_code_graph(
        records, Config(), {*manifests, "grep/src/lib.rs", "cli/src/lib.rs"}, manifests.get
    )
    edges = {
        (
            graph.file_of(e.src).path,
            graph.files[e.dst].path if e.dst in graph.files else graph.externals[e.dst].name,
        )
        for e in graph.edges(EdgeKind.IMPORT)
    }
    assert edges == {("grep/src/lib.rs", "cli/src/lib.rs"), ("grep/src/lib.rs", "serde")}
