"""Deployment units: a file per Python/JS/TS/C/C++/Ruby file, a Go package, a Rust crate.

The fixture projects under ``tests/code/fixtures/units/`` were written for these tests: a Go
package whose files use each other and a second package that imports it, and a Rust crate
whose modules ``use crate::`` each other both ways plus a second crate that uses the first.
"""

from __future__ import annotations

from pathlib import Path

from sitegen.analyse.check import code_cycle_findings
from sitegen.analyse.cycles import analyse_code_cycles
from sitegen.analyse.reports import cycles_json, membership, render_cycles_md
from sitegen.base.languages import language_for_path
from sitegen.code.extract import extract_source
from sitegen.code.link import build_code_graph, dependency_edges
from sitegen.code.units import deployment_units
from sitegen.config import Config
from sitegen.graph.dependencies import DepEdge, Unit
from sitegen.records.code_graph import EdgeKind

FIXTURES = Path(__file__).resolve().parents[1] / "code" / "fixtures" / "units"


def analyse(name: str):  # type: ignore[no-untyped-def]
    root = FIXTURES / name
    paths = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    records = [
        extract_source(p, lang, (root / p).read_bytes())
        for p in paths
        if (lang := language_for_path(p)) is not None
    ]

    def read_text(path: str) -> str | None:
        return (root / path).read_text(encoding="utf-8") if (root / path).is_file() else None

    graph, _ = build_code_graph(records, Config(), set(paths), read_text)
    files, symbols = dependency_edges(graph)
    units = deployment_units(graph)
    return graph, units, analyse_code_cycles([r.path for r in records], files, symbols, units)


def test_go_files_of_one_package_are_one_unit_and_never_a_cycle() -> None:
    graph, units, code = analyse("go")
    assert units == {
        "app/main.go": Unit("app/", "package"),
        "cart/cart.go": Unit("cart/", "package"),
        "cart/items.go": Unit("cart/", "package"),
    }
    # The two files of cart reference each other (NewCart -> newItems, Total -> Cart) ...
    file_pairs = {
        (graph.file_of(e.src).path, graph.file_of(e.dst).path)
        for e in graph.edges(EdgeKind.REFERENCE)
    }
    assert ("cart/cart.go", "cart/items.go") in file_pairs
    assert ("cart/items.go", "cart/cart.go") in file_pairs
    # ... which is no cycle: one package, and app/ depends on it by one pair of units.
    assert code.cyclic == ()
    assert code_cycle_findings(code) == []
    assert code.deploy_order == ("cart/", "app/")
    assert code.unit_count == 2 and code.file_count == 3
    assert [(c.unit, c.kind, c.members) for c in code.internal] == [
        ("cart/", "package", ("cart/cart.go", "cart/items.go"))
    ]


def test_rust_modules_of_one_crate_use_each_other_freely() -> None:
    graph, units, code = analyse("rust")
    crate = Unit("src/lib.rs", "crate")
    assert units == {
        "src/lib.rs": crate,
        "src/alpha.rs": crate,
        "src/beta.rs": crate,
        "cli/src/main.rs": Unit("cli/src/main.rs", "crate"),
    }
    imports = {
        (graph.file_of(e.src).path, graph.file_of(e.dst).path)
        for e in graph.edges(EdgeKind.IMPORT)
        if e.dst in graph.files
    }
    assert {("src/alpha.rs", "src/beta.rs"), ("src/beta.rs", "src/alpha.rs")} <= imports
    # `use shop_core::start` names the library crate of the other Cargo.toml.
    assert ("cli/src/main.rs", "src/lib.rs") in imports
    assert code.cyclic == ()
    assert code_cycle_findings(code) == []
    assert code.deploy_order == ("src/lib.rs", "cli/src/main.rs")
    assert [(c.unit, c.members) for c in code.internal] == [
        ("src/lib.rs", ("src/alpha.rs", "src/beta.rs"))
    ]


def test_a_cycle_between_two_go_packages_is_one_finding_naming_the_packages() -> None:
    units = {
        "a/x.go": Unit("a/", "package"),
        "a/y.go": Unit("a/", "package"),
        "b/z.go": Unit("b/", "package"),
    }
    edges = [
        DepEdge("a/y.go", "b/z.go", "import", 0.9, 3),
        DepEdge("b/z.go", "a/x.go", "import", 0.9, 5),
        DepEdge("b/z.go", "a/y.go", "import", 0.9, 5),
    ]
    code = analyse_code_cycles(units, edges, (), units)
    assert [(u.members, u.kind) for u in code.cyclic] == [(("a/", "b/"), "package")]
    [finding] = code_cycle_findings(code)
    # Placed in the file that holds the import, not at the package folder.
    assert (finding.path, finding.line) in {("a/y.go", 3), ("b/z.go", 5)}
    assert "2 Go packages: a/, b/" in finding.message
    data = cycles_json_of(code)
    assert data["cyclic"][0]["unit_kind"] == "package"
    assert data["cyclic"][0]["member_kinds"] == {"a/": "package", "b/": "package"}
    assert data["units"]["a/"] == {"kind": "package", "files": ["a/x.go", "a/y.go"]}


def test_membership_covers_every_file_of_a_cyclic_package() -> None:
    from sitegen.analyse.cycles import CycleReport

    units = {
        "a/x.go": Unit("a/", "package"),
        "a/y.go": Unit("a/", "package"),
        "b/z.go": Unit("b/", "package"),
    }
    edges = [
        DepEdge("a/y.go", "b/z.go", "import", 0.9, 3),
        DepEdge("b/z.go", "a/x.go", "import", 0.9, 5),
    ]
    report = CycleReport(analyse_code_cycles(units, edges, (), units))
    assert membership(report) == {"a/x.go": [0], "a/y.go": [0], "b/z.go": [0]}
    assert "2 Go packages" in render_cycles_md(report)


def test_a_file_unit_keeps_its_self_import_but_a_package_does_not() -> None:
    units = {"p/a.go": Unit("p/", "package"), "m.py": Unit("m.py")}
    edges = [
        DepEdge("p/a.go", "p/a.go", "import", 0.9, 1),
        DepEdge("m.py", "m.py", "import", 0.9, 2),
    ]
    code = analyse_code_cycles(units, edges, (), units)
    assert [u.members for u in code.cyclic] == [("m.py",)]


def cycles_json_of(code):  # type: ignore[no-untyped-def]
    from sitegen.analyse.cycles import CycleReport

    return cycles_json(CycleReport(code))["code"]


def test_the_cycles_page_lists_loops_inside_a_package_for_information() -> None:
    import jinja2

    from sitegen.analyse.cycles import CycleReport
    from sitegen.site.cycles_view import cycles_view

    _, _, code = analyse("go")
    templates = Path(__file__).resolve().parents[2] / "templates"
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(
            [
                jinja2.DictLoader(
                    {"base.html": "{% block content %}{% endblock %}{% block toc %}{% endblock %}"}
                ),
                jinja2.FileSystemLoader(templates),
            ]
        ),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["href"] = lambda href: href
    html = env.get_template("cycles.html").render(cycles=cycles_view(CycleReport(code)))
    section = html[html.index('id="inside-units"') : html.index('id="relation-cycles"')]
    assert (
        "<code>cart/</code>" in section and "cart/cart.go" in section and "cart/items.go" in section
    )
    assert 'href="#inside-units"' in html
    assert 'id="cycle-1"' not in html  # no cyclic unit at all
