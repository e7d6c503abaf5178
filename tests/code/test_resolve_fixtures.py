"""End to end: fixture projects through ``extract_source`` and ``build_code_graph``.

Each project under ``fixtures/projects/<lang>/`` exercises every import form of its language,
nesting, visibility, shadowing by rank, star and aliased imports and an import cycle; the
expected edges and confidences below are written by hand from the source, not computed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from recordkit import imports_of, modules_of, refs_of

from sitegen.base.languages import language_for_path
from sitegen.code.extract import extract_source
from sitegen.code.link import build_code_graph, file_dependency_edges
from sitegen.config import Config
from sitegen.records.code_graph import EdgeKind, invariant_violations

FIXTURES = Path(__file__).parent / "fixtures" / "projects"
S, D, T, X = 1.0, 0.9, 0.7, 0.5


def load_project(name: str, **config):
    root = FIXTURES / name
    paths = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    records = []
    for path in paths:
        lang = language_for_path(path)
        if lang is not None:
            records.append(extract_source(path, lang, (root / path).read_bytes()))

    def read_text(path: str) -> str | None:
        file = root / path
        return file.read_text(encoding="utf-8") if file.is_file() else None

    graph, diags = build_code_graph(records, Config(**config), set(paths), read_text)
    assert invariant_violations(graph) == []
    return graph, diags


def owned(graph, path: str) -> set[tuple[str, str]]:
    """Ownership edges of one file as (owner, owned) qualified names ("" for the file)."""

    def name(node_id: str) -> str:
        return graph.symbols[node_id].qualified_name if node_id in graph.symbols else ""

    return {
        (name(e.src), name(e.dst))
        for e in graph.edges(EdgeKind.OWNERSHIP)
        if graph.file_of(e.dst).path == path
    }


# ---------------------------------------------------------------- Python (+ a metacall pair)


def test_python_project():
    graph, diags = load_project("python")
    assert imports_of(graph) == {
        ("app/main.py", "external:os", D),
        ("app/main.py", "app/models.py", D),
        ("app/main.py", "app/util/text.py", D),
        ("app/main.py", "app/util/__init__.py", D),
        ("app/main.py", "app/cycle_a.py", D),
        ("app/main.py", "external:metacall", D),
        ("app/main.py", "scripts/sum.js", X),
        ("app/models.py", "app/util/text.py", D),
        ("app/util/__init__.py", "app/util/_impl.py", D),
        ("app/cycle_a.py", "app/cycle_b.py", D),
        ("app/cycle_b.py", "app/cycle_a.py", D),
    }
    assert refs_of(graph) == {
        ("app/main.py::Runner", "app/models.py::Model", D),  # base class, star import
        ("app/main.py::Runner.run", "app/main.py::helper", S),  # shadows models.helper
        ("app/main.py::Runner.run", "app/models.py::Model.save", D),  # self.save, inherited
        ("app/main.py::Runner.run", "app/util/text.py::upper", D),  # text. and t2. aliases
        ("app/main.py::Runner.run", "app/util/_impl.py::shout", T),  # re-exported by __init__
        ("app/main.py::Runner.run", "app/models.py::make", D),  # app.models.make
        ("app/main.py::Runner.run", "app/cycle_a.py::ping", D),
        ("app/main.py::Runner.run", "scripts/sum.js::sum", X),  # metacall, symbol projection
        ("app/main.py", "scripts/sum.js::sum", X),  # metacall, file projection
        ("app/main.py::Runner._private", "app/main.py::Runner._private.inner", S),
        ("app/main.py::Runner._private.inner", "app/main.py::helper", S),
        ("app/models.py::helper", "app/util/text.py::upper", D),
        ("app/models.py::make", "app/models.py::Model", S),
        ("app/models.py::Model.save", "app/models.py::helper", S),
        ("app/cycle_a.py::ping", "app/cycle_b.py::pong", D),
        ("app/cycle_b.py::pong", "app/cycle_a.py::ping", D),
    }
    assert owned(graph, "app/main.py") == {
        ("", "helper"),
        ("", "Runner"),
        ("Runner", "Runner.run"),
        ("Runner", "Runner._private"),
        ("Runner._private", "Runner._private.inner"),
    }
    visibility = {
        s.qualified_name: str(s.visibility)
        for s in graph.symbols.values()
        if s.file_id == "python:app/models.py"
    }
    assert visibility == {
        "helper": "public",
        "make": "public",
        "Model": "public",
        "Model.save": "public",
        "_Hidden": "private",
    }
    assert diags == []


def test_python_file_projection_for_cycle_analysis():
    graph, _ = load_project("python")
    deps = {(d.src, d.dst, d.kind) for d in file_dependency_edges(graph)}
    assert ("app/cycle_a.py", "app/cycle_b.py", "import") in deps
    assert ("app/cycle_a.py", "app/cycle_b.py", "reference") in deps
    assert ("app/main.py", "scripts/sum.js", "reference") in deps
    assert not any(src == dst and kind == "reference" for src, dst, kind in deps)


# ---------------------------------------------------------------- TypeScript / TSX / JavaScript


def test_typescript_project():
    graph, diags = load_project("typescript")
    assert imports_of(graph) == {
        ("src/index.ts", "src/lib/index.ts", D),
        ("src/index.ts", "src/lib/math.ts", D),  # './lib/math.js' written, .ts on disk
        ("src/index.ts", "src/legacy.js", X),
        ("src/index.ts", "external:react", D),
        ("src/index.ts", "src/cycle/a.ts", D),
        ("src/index.ts", "src/widgets/Button.tsx", X),  # export-from and import(): tsx
        ("src/lib/index.ts", "src/lib/math.ts", D),
        ("src/lib/index.ts", "src/lib/fmt.ts", D),
        ("src/cycle/a.ts", "src/cycle/b.ts", D),
        ("src/cycle/b.ts", "src/cycle/a.ts", D),
        ("src/widgets/Button.tsx", "external:react", D),
        ("src/widgets/Button.tsx", "src/lib/fmt.ts", X),
    }
    assert refs_of(graph) == {
        ("src/index.ts::App.start", "src/lib/math.ts::add", T),  # through the barrel's export *
        ("src/index.ts::App.start", "src/lib/index.ts::clamp", D),  # shadows math.ts's clamp
        ("src/index.ts::App.start", "src/lib/math.ts::mul", D),  # namespace import
        ("src/index.ts::App.start", "src/legacy.js::old", X),  # aliased, cross-language
        ("src/index.ts::App.start", "src/cycle/a.ts::ping", D),
        ("src/index.ts::App.start", "src/index.ts::local", S),
        ("src/index.ts::App.start", "src/index.ts::App.stop", S),  # this.stop
        ("src/index.ts::App.start", "src/lib/fmt.ts::fmt", T),  # named re-export
        ("src/legacy.js::old", "src/legacy.js::helper", S),
        ("src/cycle/a.ts::ping", "src/cycle/b.ts::pong", D),
        ("src/cycle/b.ts::again", "src/cycle/a.ts::ping", D),
        ("src/widgets/Button.tsx::Button", "src/lib/fmt.ts::fmt", X),
    }
    hidden = [s for s in graph.symbols.values() if s.name == "hidden"]
    assert [str(s.visibility) for s in hidden] == ["private"]
    assert diags == []


# ---------------------------------------------------------------- C / C++


def test_c_project():
    graph, diags = load_project("c", include_dirs=("include",))
    assert imports_of(graph) == {
        ("src/main.c", "external:stdio.h", D),
        ("src/main.c", "src/util.h", D),
        ("src/main.c", "include/vec.h", D),
        ("src/main.c", "external:missing.h", D),
        ("src/main.c", "src/a.h", D),
        ("src/util.c", "src/util.h", D),
        ("src/a.h", "src/b.h", D),
        ("src/b.h", "src/a.h", D),
        ("src/app.cpp", "src/util.h", X),
        ("src/app.cpp", "src/shapes.hpp", D),
        ("src/app.cpp", "external:vector", D),
    }
    assert refs_of(graph) == {
        ("src/main.c::main", "src/main.c::helper", S),  # static, own file
        ("src/main.c::main", "src/util.h::util_run", D),  # the prototype it includes
        ("src/main.c::main", "include/vec.h::vec_len", D),
        ("src/main.c::main", "src/b.h::from_b", T),  # a.h includes b.h
        ("src/util.c::util_run", "src/util.c::helper", S),
        ("src/util.c::util_run", "src/util.h::util_inline", D),  # static inline: textual
        ("src/app.cpp::Circle", "src/shapes.hpp::Shape", D),
        ("src/app.cpp::Circle.area", "src/app.cpp::Circle.scale", S),  # sibling, no this->
        ("src/app.cpp::Circle.area", "src/util.h::util_run", X),
    }
    assert [d.format() for d in diags] == [
        (
            "src/main.c:4:1: info: cannot resolve import 'missing.h' beside the file or in "
            "include_dirs; it is treated as external"
        )
    ]


def test_c_project_without_include_dirs_treats_vec_h_as_external():
    graph, diags = load_project("c")
    assert ("src/main.c", "external:vec.h", D) in imports_of(graph)
    assert len(diags) == 2


# ---------------------------------------------------------------- Rust


def test_rust_project():
    graph, diags = load_project("rust")
    assert imports_of(graph) == {
        ("src/lib.rs", "src/net/mod.rs", D),  # use crate::net::*
        ("src/lib.rs", "src/net/tcp.rs", D),  # use crate::net::tcp::{…}
        ("src/lib.rs", "external:std", D),
        ("src/net/mod.rs", "src/net/tcp.rs", D),  # pub use self::tcp::Conn
        ("src/net/tcp.rs", "src/net/mod.rs", D),  # use super::…: a loop inside the crate
    }
    assert modules_of(graph) == {
        ("src/lib.rs", "src/net/mod.rs"),
        ("src/lib.rs", "src/util.rs"),
        ("src/net/mod.rs", "src/net/tcp.rs"),
    }
    assert refs_of(graph) == {
        ("src/lib.rs::Server", "src/net/tcp.rs::Conn", D),  # field type, renamed import
        ("src/lib.rs::Server.new", "src/util.rs::log", D),  # util::log through mod util
        ("src/lib.rs::Server.new", "src/net/tcp.rs::connect", D),
        ("src/lib.rs::Server.new", "src/lib.rs::Server.register", S),  # Self::register
        ("src/lib.rs::Server.new", "src/lib.rs::Server.default_port", S),  # Server::…
        ("src/lib.rs::Server.new", "src/lib.rs::helper", S),
        ("src/lib.rs::Server.new", "src/lib.rs::Server", S),  # struct expression
        ("src/lib.rs::Server.register", "src/net/tcp.rs::Conn", D),
        ("src/lib.rs::probe", "src/net/mod.rs::default_timeout", D),  # star use
        ("src/lib.rs::make_conn", "src/net/tcp.rs::Conn", T),  # net::Conn, re-exported
        ("src/lib.rs::make_conn", "src/net/tcp.rs::connect", D),
        ("src/net/tcp.rs::connect", "src/net/tcp.rs::Conn", S),
        ("src/net/tcp.rs::connect", "src/net/mod.rs::default_timeout", D),
        ("src/util.rs::log", "src/util.rs::helper", S),
    }
    assert diags == []


# ---------------------------------------------------------------- Go


def test_go_project():
    graph, diags = load_project("go")
    assert imports_of(graph) == {
        ("main.go", "external:fmt", D),
        ("main.go", "cart/cart.go", D),
        ("main.go", "cart/price.go", D),  # not cart_test.go
        ("main.go", "internal/log/log.go", D),  # aliased l
        ("cart/cart.go", "internal/log/log.go", D),
        ("cart/cart_test.go", "external:testing", D),
        ("internal/log/log.go", "cart/cart.go", D),
        ("internal/log/log.go", "cart/price.go", D),
    }
    assert refs_of(graph) == {
        ("main.go::main", "cart/cart.go::New", D),
        ("main.go::main", "internal/log/log.go::Info", D),
        ("main.go::main", "main.go::run", S),
        ("cart/cart.go::New", "internal/log/log.go::Info", D),
        ("cart/cart.go::New", "cart/cart.go::Cart", S),
        ("cart/cart.go::Cart.Total", "cart/cart.go::Cart", S),  # the receiver's type
        ("cart/cart.go::Cart.Total", "cart/price.go::sum", D),  # same package, private
        ("cart/cart_test.go::TestNew", "cart/cart.go::New", D),
        ("internal/log/log.go::Info", "cart/price.go::Audit", D),
    }
    assert diags == []


# ---------------------------------------------------------------- Ruby


def test_ruby_project():
    graph, diags = load_project("ruby")
    assert imports_of(graph) == {
        ("app/main.rb", "external:json", D),
        ("app/main.rb", "lib/shop/cart.rb", D),  # require, found in lib/
        ("app/main.rb", "app/helpers/fmt.rb", D),  # require_relative
        ("lib/shop/cart.rb", "lib/shop/price.rb", D),
        ("lib/shop/price.rb", "lib/shop/cart.rb", D),
    }
    assert refs_of(graph) == {
        ("app/main.rb::App.run", "lib/shop/cart.rb::Shop.Cart", D),  # Shop::Cart.new
        ("app/main.rb::App.run", "app/helpers/fmt.rb::fmt_money", D),
        ("app/main.rb::App.run", "app/main.rb::App.log", S),  # private sibling, no receiver
        ("lib/shop/cart.rb::Shop.Cart.total", "lib/shop/price.rb::Shop.Price.sum", D),
    }
    assert [str(s.visibility) for s in graph.symbols.values() if s.qualified_name == "App.log"] == [
        "private"
    ]
    assert diags == []


@pytest.mark.parametrize("name", ["python", "typescript", "c", "rust", "go", "ruby"])
def test_every_fixture_has_an_import_cycle(name):
    graph, _ = load_project(name)
    pairs = {(d.src, d.dst) for d in file_dependency_edges(graph) if d.kind == "import"}
    assert any((b, a) in pairs for a, b in pairs if a != b)
