"""Import resolution per language (content/reference/code-graph.md), on hand-written records."""

from __future__ import annotations

from recordkit import build, imp, imports_of, modules_of, rec

from sitegen.records.code import MetacallLoad

D, X = 0.9, 0.5  # DIRECT_IMPORT, CROSS_LANGUAGE written out: the spec's numbers


def formatted(diags):
    return [d.format() for d in diags]


# ---------------------------------------------------------------- Python


def test_python_import_names_one_module_and_not_its_parent_packages():
    graph, diags = build(
        [
            rec("app.py", imports=[imp("a.b.c", line=1), imp("a.pkg", line=2)]),
            rec("a/__init__.py"),
            rec("a/b/__init__.py"),
            rec("a/b/c.py"),
            rec("a/pkg/__init__.py"),
        ]
    )
    assert imports_of(graph) == {("app.py", "a/b/c.py", D), ("app.py", "a/pkg/__init__.py", D)}
    assert diags == []


def test_python_from_import_prefers_the_submodule_else_the_package():
    graph, _ = build(
        [
            rec(
                "app.py",
                imports=[
                    imp("a.b", "from", 1, names=("c", "f")),
                    imp("a.b", "from", 2, names=("g",)),
                ],
            ),
            rec("a/__init__.py"),
            rec("a/b/__init__.py"),
            rec("a/b/c.py"),
        ]
    )
    assert imports_of(graph) == {("app.py", "a/b/c.py", D), ("app.py", "a/b/__init__.py", D)}


def test_python_module_file_beats_package_of_the_same_name():
    graph, _ = build([rec("app.py", imports=[imp("m")]), rec("m.py"), rec("m/__init__.py")])
    assert imports_of(graph) == {("app.py", "m.py", D)}


def test_python_relative_imports_count_levels_from_the_files_package():
    graph, diags = build(
        [
            rec(
                "pkg/sub/x.py",
                imports=[
                    imp(".", "from", 1, names=("sib",), level=1),
                    imp(".m", "from", 2, names=("f",), level=1),
                    imp("..", "from", 3, names=("y",), level=2),
                    imp("..", "from", 4, names=("notamodule",), level=2),
                    imp("...top", "from", 5, names=("t",), level=3),
                ],
            ),
            rec("pkg/__init__.py"),
            rec("pkg/y.py"),
            rec("pkg/sub/__init__.py"),
            rec("pkg/sub/sib.py"),
            rec("pkg/sub/m.py"),
            rec("top.py"),
        ]
    )
    assert imports_of(graph) == {
        ("pkg/sub/x.py", "pkg/sub/sib.py", D),
        ("pkg/sub/x.py", "pkg/sub/m.py", D),
        ("pkg/sub/x.py", "pkg/y.py", D),
        ("pkg/sub/x.py", "pkg/__init__.py", D),
        ("pkg/sub/x.py", "top.py", D),
    }
    assert diags == []


def test_python_level_in_the_record_counts_without_dots_in_the_specifier():
    graph, _ = build(
        [
            rec("pkg/x.py", imports=[imp("m", "from", 1, names=("f",), level=1)]),
            rec("pkg/m.py"),
            rec("m.py"),
        ]
    )
    assert imports_of(graph) == {("pkg/x.py", "pkg/m.py", D)}


def test_python_unresolvable_relative_import_is_a_warning_and_absolute_is_external():
    graph, diags = build(
        [
            rec(
                "pkg/x.py",
                imports=[
                    imp(".missing", "from", 3, names=("a",), level=1),
                    imp("....far", "from", 4, names=("b",), level=4),
                    imp("requests.adapters", line=5),
                    imp("yaml", "from", 6, names=("safe_load",)),
                ],
            ),
        ]
    )
    assert imports_of(graph) == {
        ("pkg/x.py", "external:requests", D),
        ("pkg/x.py", "external:yaml", D),
    }
    assert formatted(diags) == [
        "pkg/x.py:3:1: warning: cannot resolve import '.missing'",
        "pkg/x.py:4:1: warning: cannot resolve import '....far'",
    ]


def test_python_src_layout_resolves_without_configuration():
    graph, _ = build(
        [
            rec("src/pkg/__init__.py"),
            rec("src/pkg/a.py", imports=[imp("pkg.b")]),
            rec("src/pkg/b.py"),
            rec("tests/test_a.py", imports=[imp("pkg.a")]),
        ]
    )
    assert imports_of(graph) == {
        ("src/pkg/a.py", "src/pkg/b.py", D),
        ("tests/test_a.py", "src/pkg/a.py", D),
    }


def test_python_configured_source_roots_and_the_project_root_are_import_roots():
    records = [rec("lib/util.py"), rec("tools/run.py", imports=[imp("util"), imp("lib.util")])]
    graph, _ = build(records, source=("lib",))
    assert imports_of(graph) == {("tools/run.py", "lib/util.py", D)}
    graph, _ = build(records)
    assert imports_of(graph) == {
        ("tools/run.py", "lib/util.py", D),
        ("tools/run.py", "external:util", D),
    }


def test_python_import_of_a_file_that_is_not_analysed_makes_no_edge():
    graph, diags = build(
        [rec("app.py", imports=[imp(".data", "from", 1, names=("x",), level=1)])],
        extra_paths=("data.py",),
    )
    assert imports_of(graph) == set() and diags == []


# ---------------------------------------------------------------- JavaScript / TypeScript


def test_js_relative_specifiers_resolve_extensions_and_index_files():
    graph, diags = build(
        [
            rec(
                "web/app.ts",
                imports=[
                    imp("./m", line=1),
                    imp("./util.js", line=2),
                    imp("./widgets", line=3),
                    imp("../shared/x", "require", 4),
                    imp("./lazy", "dynamic", 5),
                    imp("./re", "export-from", 6, star=True),
                    imp("./styles.css", line=7),
                ],
            ),
            rec("web/m.ts"),
            rec("web/m.js"),
            rec("web/util.ts"),
            rec("web/widgets/index.tsx"),
            rec("shared/x.mjs"),
            rec("web/lazy.cts"),
            rec("web/re.ts"),
        ],
        extra_paths=("web/styles.css",),
    )
    assert imports_of(graph) == {
        ("web/app.ts", "web/m.ts", D),
        ("web/app.ts", "web/util.ts", D),
        ("web/app.ts", "web/widgets/index.tsx", X),
        ("web/app.ts", "shared/x.mjs", X),
        ("web/app.ts", "web/lazy.cts", D),
        ("web/app.ts", "web/re.ts", D),
    }
    assert diags == []


def test_js_written_extension_wins_when_the_file_exists():
    graph, _ = build([rec("a.js", imports=[imp("./b.js")]), rec("b.js"), rec("b.ts")])
    assert imports_of(graph) == {("a.js", "b.js", D)}


def test_js_bare_specifiers_are_packages():
    graph, diags = build(
        [
            rec(
                "a.js",
                imports=[
                    imp("react"),
                    imp("@scope/pkg/deep/x", line=2),
                    imp("lodash/fp", "require", 3),
                    imp("node:fs", line=4),
                ],
            )
        ]
    )
    assert imports_of(graph) == {
        ("a.js", "external:react", D),
        ("a.js", "external:@scope/pkg", D),
        ("a.js", "external:lodash", D),
        ("a.js", "external:node:fs", D),
    }
    assert diags == []


def test_js_unresolvable_relative_specifier_is_a_warning():
    graph, diags = build([rec("src/a.ts", imports=[imp("./x", line=7)])])
    assert imports_of(graph) == set()
    assert formatted(diags) == ["src/a.ts:7:1: warning: cannot resolve import './x'"]


# ---------------------------------------------------------------- C / C++


def test_c_includes_beside_the_file_then_include_dirs_else_external():
    """Quotes: beside the file, then include_dirs; angle brackets: include_dirs only."""
    graph, diags = build(
        [
            rec(
                "src/main.c",
                imports=[
                    imp("x.h", "include-local", 1),
                    imp("../inc/y.h", "include-local", 2),
                    imp("z.h", "include-local", 3),
                    imp("nope.h", "include-local", 4),
                    imp("stdio.h", "include-system", 5),
                    imp("z.h", "include-system", 6),
                ],
            ),
            rec("src/x.h"),
            rec("inc/y.h"),
            rec("include/z.h"),
        ],
        include_dirs=("include",),
    )
    assert imports_of(graph) == {
        ("src/main.c", "src/x.h", D),
        ("src/main.c", "inc/y.h", D),
        ("src/main.c", "include/z.h", D),
        ("src/main.c", "external:nope.h", D),
        # <z.h> is found in include_dirs too; <stdio.h> is nowhere in the project.
        ("src/main.c", "external:stdio.h", D),
    }
    assert formatted(diags) == [
        (
            "src/main.c:4:1: info: cannot resolve import 'nope.h' beside "
            "the file or in include_dirs; it is treated as external"
        )
    ]


def test_cpp_including_a_c_header_is_cross_language():
    graph, _ = build(
        [
            rec("a.cpp", imports=[imp("a.h", "include-local"), imp("b.hpp", "include-local")]),
            rec("a.h"),
            rec("b.hpp"),
        ]
    )
    assert imports_of(graph) == {("a.cpp", "a.h", X), ("a.cpp", "b.hpp", D)}


# ---------------------------------------------------------------- Rust

RUST_TREE = ["src/lib.rs", "src/util.rs", "src/util/inner.rs", "src/net/mod.rs", "src/net/tcp.rs"]


def _rust(imports: dict[str, list]) -> tuple:
    return build([rec(p, imports=imports.get(p, [])) for p in RUST_TREE])


def test_rust_mod_declarations_find_files_beside_or_below():
    graph, diags = _rust(
        {
            "src/lib.rs": [imp("util", "mod", 1), imp("net", "mod", 2)],
            "src/util.rs": [imp("inner", "mod", 1)],
            "src/net/mod.rs": [imp("tcp", "mod", 1), imp("missing", "mod", 2)],
        }
    )
    # `mod x;` is containment (ownership), not an import (content/guides/cycles.md).
    assert imports_of(graph) == set()
    assert modules_of(graph) == {
        ("src/lib.rs", "src/util.rs"),
        ("src/lib.rs", "src/net/mod.rs"),
        ("src/util.rs", "src/util/inner.rs"),
        ("src/net/mod.rs", "src/net/tcp.rs"),
    }
    assert formatted(diags) == ["src/net/mod.rs:2:1: warning: cannot resolve import 'missing'"]


def test_rust_use_paths_name_module_files():
    graph, diags = _rust(
        {
            "src/util/inner.rs": [
                imp("crate::net", "use", 1, names=("tcp",)),
                imp("crate::util", "use", 2, names=("helper",)),
                imp("super", "use", 3, names=("helper",)),
                imp("crate::net::tcp::Conn", "use", 4),
            ],
            "src/net/tcp.rs": [
                imp("super::super::util::inner", "use", 1, star=True),
                imp("self::Local", "use", 2),
            ],
            "src/net/mod.rs": [
                imp("self::tcp", "use", 1, names=("Conn",)),
                imp("tcp::Conn", "use", 2),
            ],
        }
    )
    assert imports_of(graph) == {
        ("src/util/inner.rs", "src/net/tcp.rs", D),
        ("src/util/inner.rs", "src/util.rs", D),
        ("src/net/tcp.rs", "src/util/inner.rs", D),
        ("src/net/mod.rs", "src/net/tcp.rs", D),
    }
    assert diags == []


def test_rust_other_crates_are_external_and_unresolved_relative_paths_warn():
    graph, diags = _rust(
        {
            "src/util.rs": [
                imp("std::io", "use", 1, names=("self", "Read")),
                imp("serde::Serialize", "use", 2),
                imp("super::super::x", "use", 3),
            ]
        }
    )
    assert imports_of(graph) == {
        ("src/util.rs", "external:std", D),
        ("src/util.rs", "external:serde", D),
    }
    assert formatted(diags) == ["src/util.rs:3:1: warning: cannot resolve import 'super::super::x'"]


# ---------------------------------------------------------------- Go

GO_MOD = "// the module\nmodule example.com/m\n\ngo 1.22\n"


def test_go_imports_under_the_module_path_name_every_file_of_the_package():
    records = [
        rec(
            "cmd/main.go",
            imports=[
                imp("example.com/m/util", "go", 3),
                imp("fmt", "go", 4),
                imp("github.com/x/y", "go", 5),
                imp("example.com/m/nope", "go", 6),
            ],
        ),
        rec("util/a.go"),
        rec("util/b.go"),
        rec("util/a_test.go"),
        rec("util/deep/c.go"),
    ]
    graph, diags = build(records, extra_paths=("go.mod",), read_text={"go.mod": GO_MOD})
    assert imports_of(graph) == {
        ("cmd/main.go", "util/a.go", D),
        ("cmd/main.go", "util/b.go", D),
        ("cmd/main.go", "external:fmt", D),
        ("cmd/main.go", "external:github.com/x/y", D),
        ("cmd/main.go", "external:example.com/m/nope", D),
    }
    assert formatted(diags) == [
        (
            "cmd/main.go:6:1: info: cannot resolve import "
            "'example.com/m/nope': no Go files in 'nope'; it is treated "
            "as external"
        )
    ]


def test_go_without_a_readable_go_mod_everything_is_external():
    graph, _ = build(
        [rec("main.go", imports=[imp("example.com/m/util", "go")]), rec("util/a.go")],
        extra_paths=("go.mod",),
    )
    assert imports_of(graph) == {("main.go", "external:example.com/m/util", D)}


def test_go_nested_module_governs_its_folder():
    graph, _ = build(
        [rec("svc/main.go", imports=[imp("example.com/svc/api", "go")]), rec("svc/api/api.go")],
        extra_paths=("go.mod", "svc/go.mod"),
        read_text={"go.mod": GO_MOD, "svc/go.mod": "module example.com/svc\n"},
    )
    assert imports_of(graph) == {("svc/main.go", "svc/api/api.go", D)}


# ---------------------------------------------------------------- Ruby


def test_ruby_require_relative_and_require_through_lib_folders():
    graph, diags = build(
        [
            rec(
                "app/main.rb",
                imports=[
                    imp("helpers/text", "require_relative", 1),
                    imp("mylib/thing", "require", 2),
                    imp("json", "require", 3),
                    imp("gone", "require_relative", 4),
                ],
            ),
            rec("app/helpers/text.rb"),
            rec("lib/mylib/thing.rb"),
            rec("vendor/lib/mylib/thing.rb"),
        ]
    )
    assert imports_of(graph) == {
        ("app/main.rb", "app/helpers/text.rb", D),
        ("app/main.rb", "lib/mylib/thing.rb", D),
        ("app/main.rb", "external:json", D),
    }
    assert formatted(diags) == ["app/main.rb:4:1: warning: cannot resolve import 'gone'"]


# ---------------------------------------------------------------- metacall


def test_metacall_load_makes_a_cross_language_import():
    graph, diags = build(
        [
            rec(
                "app/client.py",
                imports=[imp("scripts/sum.js", "metacall-load", 2)],
                loads=[MetacallLoad("node", ("scripts/sum.js", "local.rb", "gone.js"), 2)],
            ),
            rec("scripts/sum.js"),
            rec("app/local.rb"),
        ]
    )
    assert imports_of(graph) == {
        ("app/client.py", "scripts/sum.js", X),
        ("app/client.py", "app/local.rb", X),
    }
    assert formatted(diags) == ["app/client.py:2:1: warning: cannot resolve import 'gone.js'"]


def test_rust_super_inside_an_inline_module_stays_in_the_file():
    # `mod tests { use super::*; }` in util.rs: level carries the inline-module depth.
    graph, diags = _rust(
        {
            "src/util.rs": [
                imp("super", "use", 5, star=True, level=1),
                imp("super::super", "use", 6, star=True, level=1),
            ]
        }
    )
    assert imports_of(graph) == {("src/util.rs", "src/lib.rs", D)}
    assert diags == []


def test_a_source_root_that_is_a_package_does_not_shadow_the_stdlib() -> None:
    """source = ["pkg"] with pkg/json.py: `import json` in pkg/a.py is the stdlib, as grimp has it."""
    from sitegen.base.languages import LangId
    from sitegen.code.extract import extract_source
    from sitegen.code.link import build_code_graph
    from sitegen.config import Config
    from sitegen.records.code_graph import EdgeKind

    files = {
        "pkg/__init__.py": b"",
        "pkg/json.py": b"import json\n",
        "pkg/http/__init__.py": b"",
        "pkg/a.py": b"import json\nfrom http import cookies\nfrom pkg import json as j\n",
    }
    records = [extract_source(p, LangId.PYTHON, d) for p, d in sorted(files.items())]
    graph, _ = build_code_graph(records, Config(source=("pkg",)), set(files))
    imports = {(graph.file_of(e.src).path, e.dst) for e in graph.edges(EdgeKind.IMPORT)}
    assert ("pkg/a.py", "external:python:json") in imports
    assert ("pkg/a.py", "external:python:http") in imports
    assert (
        "pkg/a.py",
        "python:pkg/json.py",
    ) in imports  # the explicit package import still resolves
    assert ("pkg/json.py", "python:pkg/json.py") not in imports
