"""Imports the way real projects lay them out: a Ruby gem with autoload, a C tree with <>
includes and a compile_commands.json, a TypeScript workspace with tsconfig paths, Go calls
through typed variables. Fixtures under ``fixtures/<name>/``; expectations written by hand."""

from __future__ import annotations

from pathlib import Path

from recordkit import imports_of, refs_of

from sitegen.base.languages import language_for_path
from sitegen.code.extract import extract_source
from sitegen.code.link import build_code_graph
from sitegen.config import Config
from sitegen.records.code_graph import invariant_violations

FIXTURES = Path(__file__).parent / "fixtures"
D, T = 0.9, 0.7


def load(name: str, **config):  # type: ignore[no-untyped-def]
    root = FIXTURES / name
    paths = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    records = [
        extract_source(p, lang, (root / p).read_bytes())
        for p in paths
        if (lang := language_for_path(p)) is not None
    ]

    def read_text(path: str) -> str | None:
        file = root / path
        return file.read_text(encoding="utf-8") if file.is_file() else None

    graph, diags = build_code_graph(records, Config(**config), set(paths), read_text)
    assert invariant_violations(graph) == []
    return graph, diags


# ---------------------------------------------------------------- Ruby


def test_ruby_gem_autoload_require_and_require_relative():
    graph, _ = load("gem")
    assert imports_of(graph) == {
        ("lib/shop.rb", "lib/shop/version.rb", D),
        ("lib/shop.rb", "external:json", D),
        ("lib/shop.rb", "lib/shop/cart.rb", D),  # autoload :Cart, "shop/cart"
        ("lib/shop.rb", "lib/shop/price.rb", D),  # autoload(:Price, "shop/price")
        ("exe/shop.rb", "lib/shop.rb", D),
        ("test/cart_test.rb", "lib/shop/cart.rb", D),
        ("test/cart_test.rb", "external:ext", D),  # vendor/ext is not on the load path
    }
    # Shop::Cart reached through the autoloads of shop.rb.
    assert ("exe/shop.rb::main", "lib/shop/cart.rb::Shop.Cart", T) in refs_of(graph)


def test_ruby_load_paths_are_configurable():
    graph, _ = load("gem", ruby_load_paths=("lib", "vendor/ext"))
    assert ("test/cart_test.rb", "vendor/ext/ext.rb", D) in imports_of(graph)
    graph, _ = load("gem", ruby_load_paths=("vendor/ext",))
    assert ("exe/shop.rb", "external:shop", D) in imports_of(graph)  # lib/ is no longer searched


# ---------------------------------------------------------------- C


def test_c_angle_includes_through_compile_commands_and_include_dirs():
    graph, _ = load("ctree")
    assert imports_of(graph) == {
        ("src/core.c", "include/lib/api.h", D),  # -I../include, relative to "directory"
        ("src/core.c", "external:stdio.h", D),  # nowhere in the project
        ("src/core.c", "src/core.h", D),
        ("src/io.c", "third_party/zlib/zlib.h", D),  # -isystem, absolute under the root
        ("src/io.c", "include/lib/api.h", D),
        # Not in the database: every folder the database names.
        ("tools/gen.c", "include/lib/api.h", D),
        ("tools/gen.c", "external:missing/thing.h", D),
    }
    assert ("src/io.c::io_open", "third_party/zlib/zlib.h::deflate_level", D) in refs_of(graph)


def test_c_include_dirs_serve_angle_includes_without_a_database():
    graph, _ = load("ctree", include_dirs=("third_party/zlib",), exclude=())
    assert ("src/io.c", "third_party/zlib/zlib.h", D) in imports_of(graph)


# ---------------------------------------------------------------- Go


def test_go_calls_and_field_uses_through_receivers_and_typed_locals():
    graph, _ = load("gotypes")
    refs = refs_of(graph)
    expected = {
        ("store/ops.go::Store.Get", "store/store.go::Store", D),  # s.hits, s.items: fields
        ("store/ops.go::Store.Put", "store/store.go::Store", D),  # s.items
        # to := &Store{}; to.Put: Store is found in a sibling file (0.9), Put beside it.
        ("store/ops.go::Copy", "store/ops.go::Store.Put", D),
        ("store/ops.go::Copy", "store/store.go::Store", D),  # from *Store; from.items
        ("app/main.go::main", "store/store.go::NewStore", D),
        ("app/main.go::main", "store/ops.go::Store.Put", D),  # s := store.NewStore(); new(...)
        ("app/main.go::main", "store/ops.go::Store.Get", D),  # var t *store.Store
    }
    assert expected <= refs
    # `other` has no known type: no guess by method name alone.
    assert (
        not {r for r in refs if r[0] == "app/main.go::main"}
        - expected
        - {("app/main.go::main", "store/store.go::Store", D)}
    )  # the type use in `var t`


# ---------------------------------------------------------------- TypeScript


def test_ts_workspace_packages_tsconfig_paths_default_imports_and_require():
    graph, _ = load("tsworkspace")
    main = "apps/web/src/main.ts"
    assert {(d, c) for s, d, c in imports_of(graph) if s == main} == {
        ("packages/core/src/index.ts", D),  # exports point at dist/ (not built): src/index
        ("packages/utils/lib/utils.js", 0.5),  # "module" field; another language
        ("apps/web/src/lib/x.ts", D),  # paths "@app/*", through two extends
        ("packages/utils/src/index.ts", D),  # paths "#utils", exact
        ("external:react", D),
        ("apps/web/src/config.js", 0.5),  # require()
        ("packages/core/src/extra.ts", D),  # a subpath of a workspace package
    }
    refs = {(d, c) for s, d, c in refs_of(graph) if s == main + "::main"}
    assert ("packages/core/src/index.ts::Store", D) in refs  # the default export
    assert ("packages/core/src/index.ts::helper", D) in refs
    assert ("packages/utils/src/index.ts::u", D) in refs
    assert ("packages/core/src/extra.ts::load", D) in refs  # require("…").load


def test_tsconfig_comments_and_trailing_commas_parse():
    from sitegen.code.js_projects import parse_jsonc

    assert parse_jsonc('{"a": "//not a comment", /* c */ "b": [1, 2,], // end\n}') == {
        "a": "//not a comment",
        "b": [1, 2],
    }
