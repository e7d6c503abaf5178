"""Name resolution (content/reference/code-graph.md#name-resolution): ranks, bindings, metacall."""

from __future__ import annotations

from recordkit import build, imp, rec, ref, refs_of, sym

from sitegen.code.names import NameTable
from sitegen.code.resolve import ProjectIndex, resolve_imports
from sitegen.config import Config
from sitegen.records.code import MetacallCall, MetacallLoad
from sitegen.records.code_graph import EdgeKind

S, D, T, X = 1.0, 0.9, 0.7, 0.5  # the ladder, written out


def uses(path: str, enclosing: str, *names: str, kind: str = "call") -> list:
    return [ref(n, enclosing, 2, kind) for n in names]


# ---------------------------------------------------------------- the ladder


def test_own_file_shadows_a_direct_import():
    graph, _ = build(
        [
            rec(
                "a.py",
                [sym("main", lines=(1, 3)), sym("helper", lines=(5, 6))],
                [imp("b", "from", names=("helper",))],
                uses("a.py", "main", "helper"),
            ),
            rec("b.py", [sym("helper")]),
        ]
    )
    assert refs_of(graph) == {("a.py::main", "a.py::helper", S)}


def test_direct_import_shadows_transitive_and_transitive_is_found_when_direct_lacks_it():
    c = rec("c.py", [sym("x"), sym("y")])
    b_with_x = rec("b.py", [sym("x")], [imp("c", "from", star=True)])
    a = rec("a.py", [sym("main")], [imp("b", "from", star=True)], uses("a.py", "main", "x", "y"))
    graph, _ = build([a, b_with_x, c])
    assert refs_of(graph) == {("a.py::main", "b.py::x", D), ("a.py::main", "c.py::y", T)}


def test_cross_language_import_ranks_last():
    header_c = rec("api.h", [sym("f"), sym("g")])
    header_cpp = rec("impl.hpp", [sym("f")])
    main = rec(
        "main.cpp",
        [sym("main")],
        [imp("api.h", "include-local"), imp("impl.hpp", "include-local")],
        uses("main.cpp", "main", "f", "g"),
    )
    graph, _ = build([header_c, header_cpp, main])
    assert refs_of(graph) == {
        ("main.cpp::main", "impl.hpp::f", D),
        ("main.cpp::main", "api.h::g", X),
    }


def test_equally_ranked_candidates_all_stay_ordered_by_path():
    records = [
        rec("z.py", [sym("f")]),
        rec("b.py", [sym("f")]),
        rec(
            "a.py",
            [sym("main")],
            [imp("z", "from", star=True), imp("b", "from", 2, star=True)],
            uses("a.py", "main", "f"),
        ),
    ]
    graph, _ = build(records)
    assert refs_of(graph) == {("a.py::main", "b.py::f", D), ("a.py::main", "z.py::f", D)}
    index = ProjectIndex.build(records, Config(), {r.path for r in records})
    imports = {r.path: resolve_imports(r, index)[0] for r in records}
    table = NameTable(graph, imports, {r.path: r.references for r in records}, index)
    found = table.resolve("a.py", "f", "call", "main")
    assert [(table.path_of(c.symbol), c.confidence) for c in found] == [("b.py", D), ("z.py", D)]


def test_a_reference_outside_any_symbol_makes_no_edge():
    graph, _ = build([rec("a.py", [sym("f", lines=(1, 2))], refs=[ref("f", None, 5)])])
    assert refs_of(graph) == set()


def test_reference_edges_carry_the_line_of_the_use():
    graph, _ = build(
        [
            rec(
                "a.py",
                [sym("f", lines=(1, 9)), sym("g", lines=(10, 11))],
                refs=[ref("g", "f", 7), ref("g", "f", 4)],
            )
        ]
    )
    assert [(e.src, e.dst, e.line) for e in graph.edges(EdgeKind.REFERENCE)] == [
        ("python:a.py::f", "python:a.py::g", 4)
    ]


def test_recursion_is_a_self_reference():
    graph, _ = build([rec("a.py", [sym("fact", lines=(1, 3))], refs=[ref("fact", "fact", 2)])])
    assert refs_of(graph) == {("a.py::fact", "a.py::fact", S)}


# ---------------------------------------------------------------- bindings


def test_from_import_exposes_exactly_its_names_and_aliases_resolve_to_the_original():
    graph, _ = build(
        [
            rec("m.py", [sym("a"), sym("b"), sym("c")]),
            rec(
                "app.py",
                [sym("main")],
                [imp("m", "from", names=("a", "c as z"))],
                uses("app.py", "main", "a", "b", "z", "c"),
            ),
        ]
    )
    assert refs_of(graph) == {("app.py::main", "m.py::a", D), ("app.py::main", "m.py::c", D)}


def test_import_module_exposes_dotted_names_only():
    graph, _ = build(
        [
            rec(
                "m.py",
                [sym("x"), sym("Engine", "class", (2, 5)), sym("Engine.run", "method", (3, 4))],
            ),
            rec("a/__init__.py"),
            rec("a/b/__init__.py"),
            rec("a/b/c.py", [sym("deep")]),
            rec("pkg/mod.py", [sym("y")]),
            rec(
                "app.py",
                [sym("main")],
                [imp("m"), imp("a.b.c", line=2), imp("pkg.mod", line=3, alias="pm")],
                uses(
                    "app.py",
                    "main",
                    "m.x",
                    "x",
                    "a.b.c.deep",
                    "pm.y",
                    "pkg.mod.y",
                    "m.Engine.run",
                    "m.Engine.missing",
                ),
            ),
        ]
    )
    assert refs_of(graph) == {
        ("app.py::main", "m.py::x", D),
        ("app.py::main", "a/b/c.py::deep", D),
        ("app.py::main", "pkg/mod.py::y", D),
        ("app.py::main", "m.py::Engine.run", D),
        ("app.py::main", "m.py::Engine", D),
    }


def test_from_package_import_of_a_submodule_binds_the_module():
    graph, _ = build(
        [
            rec("pkg/__init__.py"),
            rec("pkg/tools.py", [sym("go")]),
            rec(
                "app.py",
                [sym("main")],
                [imp("pkg", "from", names=("tools",))],
                uses("app.py", "main", "tools.go", "go"),
            ),
        ]
    )
    assert refs_of(graph) == {("app.py::main", "pkg/tools.py::go", D)}


def test_star_import_exposes_public_names_and_explicit_bindings_private_ones_too():
    graph, _ = build(
        [
            rec("m.py", [sym("pub"), sym("_priv", visibility="private")]),
            rec(
                "star.py",
                [sym("main")],
                [imp("m", "from", star=True)],
                uses("star.py", "main", "pub", "_priv"),
            ),
            rec(
                "named.py",
                [sym("main")],
                [imp("m", "from", names=("_priv",))],
                uses("named.py", "main", "_priv"),
            ),
        ]
    )
    assert refs_of(graph) == {
        ("star.py::main", "m.py::pub", D),
        ("named.py::main", "m.py::_priv", D),
    }


def test_transitive_resolution_follows_a_re_export():
    graph, _ = build(
        [
            rec("n.py", [sym("f"), sym("g")]),
            rec("m.py", imports=[imp("n", "from", names=("f",)), imp("n", line=2)]),
            rec(
                "app.py",
                [sym("main")],
                [imp("m", "from", names=("f",)), imp("m", line=2)],
                uses("app.py", "main", "f", "m.g"),
            ),
        ]
    )
    assert refs_of(graph) == {("app.py::main", "n.py::f", T), ("app.py::main", "n.py::g", T)}


def test_type_and_base_references_find_only_class_like_symbols():
    graph, _ = build(
        [
            rec("b.py", [sym("Base", "class")]),
            rec(
                "a.py",
                [
                    sym("Base", lines=(1, 1)),
                    sym("Child", "class", (3, 6)),
                    sym("Child.m", "method", (4, 6)),
                ],
                [imp("b", "from", names=("Base",))],
                [ref("Base", "Child", 3, "base"), ref("Base", "Child.m", 5, "call")],
            ),
        ]
    )
    assert refs_of(graph) == {("a.py::Child", "b.py::Base", D), ("a.py::Child.m", "a.py::Base", S)}


# ---------------------------------------------------------------- scopes and receivers


def _engine(*references) -> list:
    return [
        rec(
            "a.py",
            [
                sym("Engine", "class", (1, 20)),
                sym("Engine.run", "method", (2, 9)),
                sym("Engine.helper", "method", (10, 14)),
                sym("Engine.helper.inner", lines=(11, 12)),
                sym("helper", lines=(21, 22)),
                sym("run", lines=(23, 24)),
            ],
            refs=list(references),
        )
    ]


def test_self_member_resolves_to_the_enclosing_class_first():
    graph, _ = build(_engine(ref("self.helper", "Engine.run", 3), ref("helper", "Engine.run", 4)))
    assert refs_of(graph) == {
        ("a.py::Engine.run", "a.py::Engine.helper", S),
        ("a.py::Engine.run", "a.py::helper", S),
    }


def test_python_class_body_is_not_a_scope_but_enclosing_functions_are():
    graph, _ = build(_engine(ref("run", "Engine.helper", 13), ref("inner", "Engine.helper", 13)))
    assert refs_of(graph) == {
        ("a.py::Engine.helper", "a.py::run", S),
        ("a.py::Engine.helper", "a.py::Engine.helper.inner", S),
    }


def test_unknown_receivers_make_no_edge():
    graph, _ = build(
        _engine(
            ref("obj.helper", "Engine.run", 3),
            ref("self.x.helper", "Engine.run", 3),
            ref("super().run", "Engine.run", 3),
        )
    )
    assert refs_of(graph) == set()


def test_self_member_inherited_from_an_imported_base_class():
    graph, _ = build(
        [
            rec("base.py", [sym("Base", "class", (1, 5)), sym("Base.go", "method", (2, 3))]),
            rec(
                "a.py",
                [sym("Sub", "class", (1, 9)), sym("Sub.m", "method", (3, 5))],
                [imp("base", "from", names=("Base",))],
                [ref("Base", "Sub", 1, "base"), ref("self.go", "Sub.m", 4)],
            ),
        ]
    )
    assert refs_of(graph) == {
        ("a.py::Sub", "base.py::Base", D),
        ("a.py::Sub.m", "base.py::Base.go", D),
    }


def test_class_member_through_the_class_name_and_the_class_itself_as_fallback():
    graph, _ = build(
        _engine()
        + [
            rec(
                "b.py",
                [sym("main")],
                [imp("a", "from", names=("Engine",))],
                uses("b.py", "main", "Engine.run", "Engine.nothing"),
            )
        ]
    )
    assert refs_of(graph) == {
        ("b.py::main", "a.py::Engine.run", D),
        ("b.py::main", "a.py::Engine", D),
    }


def test_ruby_methods_call_their_siblings_without_a_receiver():
    graph, _ = build(
        [
            rec(
                "a.rb",
                [
                    sym("M", "object", (1, 9)),
                    sym("M.C", "class", (2, 8)),
                    sym("M.C.run", "method", (3, 4)),
                    sym("M.C.other", "method", (5, 6), "private"),
                ],
                refs=[ref("other", "M.C.run", 3), ref("self.other", "M.C.run", 4)],
            )
        ]
    )
    assert refs_of(graph) == {("a.rb::M.C.run", "a.rb::M.C.other", S)}


# ---------------------------------------------------------------- other languages


def test_js_named_aliased_and_namespace_imports():
    graph, _ = build(
        [
            rec("m.ts", [sym("a"), sym("b")]),
            rec("ns.js", [sym("go")]),
            rec(
                "app.ts",
                [sym("main")],
                [imp("./m", names=("a as x",)), imp("./ns.js", line=2, alias="ns")],
                uses("app.ts", "main", "x", "a", "ns.go", "this.b"),
            ),
        ]
    )
    assert refs_of(graph) == {("app.ts::main", "m.ts::a", D), ("app.ts::main", "ns.js::go", X)}


def test_rust_use_mod_and_paths_through_types():
    graph, _ = build(
        [
            rec(
                "src/lib.rs",
                [
                    sym("Foo", "struct", (1, 1)),
                    sym("Foo.new", "method", (3, 5)),
                    sym("Foo.other", "method", (6, 6), "private"),
                ],
                [imp("util", "mod", 1), imp("crate::util", "use", 2, names=("helper",))],
                uses(
                    "src/lib.rs",
                    "Foo.new",
                    "helper",
                    "util::go",
                    "Self::other",
                    "Foo::new",
                    "std::mem::swap",
                ),
            ),
            rec("src/util.rs", [sym("helper"), sym("go")]),
        ]
    )
    assert refs_of(graph) == {
        ("src/lib.rs::Foo.new", "src/util.rs::helper", D),
        ("src/lib.rs::Foo.new", "src/util.rs::go", D),
        ("src/lib.rs::Foo.new", "src/lib.rs::Foo.other", S),
        ("src/lib.rs::Foo.new", "src/lib.rs::Foo.new", S),
    }


def test_go_package_qualified_names_and_package_siblings():
    graph, _ = build(
        [
            rec("util/a.go", [sym("Go")]),
            rec("util/b.go", [sym("Other")]),
            rec(
                "cmd/main.go",
                [sym("main")],
                [imp("example.com/m/util", "go", alias="u")],
                uses("cmd/main.go", "main", "u.Go", "u.Other", "fmt.Println", "helper"),
            ),
            rec("cmd/helpers.go", [sym("helper", visibility="private")]),
        ],
        extra_paths=("go.mod",),
        read_text={"go.mod": "module example.com/m\n"},
    )
    assert refs_of(graph) == {
        ("cmd/main.go::main", "util/a.go::Go", D),
        ("cmd/main.go::main", "util/b.go::Other", D),
        ("cmd/main.go::main", "cmd/helpers.go::helper", D),
    }


def test_c_include_shows_every_name_textually_and_transitively():
    graph, _ = build(
        [
            rec("a.h", [sym("inl", visibility="private")], [imp("b.h", "include-local")]),
            rec("b.h", [sym("deep")]),
            rec(
                "main.c",
                [sym("main")],
                [imp("a.h", "include-local")],
                uses("main.c", "main", "inl", "deep"),
            ),
        ]
    )
    assert refs_of(graph) == {("main.c::main", "a.h::inl", D), ("main.c::main", "b.h::deep", T)}


# ---------------------------------------------------------------- metacall


def test_metacall_resolves_among_loaded_files_with_both_projections():
    graph, diags = build(
        [
            rec(
                "client.py",
                [sym("main", lines=(3, 6))],
                metacalls=[MetacallCall("sum", 4, "main"), MetacallCall("mul", 8, None)],
                loads=[MetacallLoad("node", ("sum.js",), 1)],
            ),
            rec("sum.js", [sym("sum"), sym("mul")]),
            rec("other.rb", [sym("sum")]),
        ]
    )
    assert refs_of(graph) == {
        ("client.py", "sum.js::sum", X),
        ("client.py::main", "sum.js::sum", X),
        ("client.py", "sum.js::mul", X),
    }
    assert diags == []


def test_metacall_falls_back_to_public_functions_of_other_languages():
    graph, diags = build(
        [
            rec(
                "client.rb",
                [sym("run", "method", (1, 5))],
                metacalls=[MetacallCall("sum", 2, "run"), MetacallCall("nothing", 3, "run")],
            ),
            rec("a.js", [sym("sum")]),
            rec("b.py", [sym("sum"), sym("_sum", visibility="private")]),
            rec("c.rb", [sym("sum")]),
            rec("d.ts", [sym("sum", visibility="private")]),
        ]
    )
    assert refs_of(graph) == {
        ("client.rb", "a.js::sum", X),
        ("client.rb::run", "a.js::sum", X),
        ("client.rb", "b.py::sum", X),
        ("client.rb::run", "b.py::sum", X),
    }
    assert [d.format() for d in diags] == ["client.rb:3:1: info: cannot resolve metacall 'nothing'"]


def test_metacall_of_a_same_language_loaded_file_is_a_direct_import():
    graph, _ = build(
        [
            rec(
                "client.py",
                [sym("main", lines=(1, 4))],
                metacalls=[MetacallCall("f", 2, "main")],
                loads=[MetacallLoad("py", ("lib.py",), 1)],
            ),
            rec("lib.py", [sym("f")]),
        ]
    )
    assert refs_of(graph) == {("client.py", "lib.py::f", D), ("client.py::main", "lib.py::f", D)}


def test_bases_are_resolved_in_the_scope_around_the_class():
    graph, _ = build(
        [
            rec(
                "t.py",
                [
                    sym("Tester", "class", (1, 20)),
                    sym("Tester.Graph", "class", (2, 3)),
                    sym("Tester.test", "method", (4, 10)),
                    sym("Tester.test.MyGraph", "class", (5, 9)),
                    sym("Tester.test.MyGraph.m", "method", (6, 9)),
                    sym("Tester.test.MyGraph.run", "method", (8, 9)),
                ],
                refs=[
                    ref("self.Graph", "Tester.test.MyGraph", 5, "base"),
                    ref("self.run", "Tester.test.MyGraph.m", 7),
                    ref("self.missing", "Tester.test.MyGraph.m", 7),
                ],
            )
        ]
    )
    assert refs_of(graph) == {
        ("t.py::Tester.test.MyGraph", "t.py::Tester.Graph", S),
        ("t.py::Tester.test.MyGraph.m", "t.py::Tester.test.MyGraph.run", S),
    }


def test_a_class_deriving_from_itself_by_name_does_not_recurse():
    graph, _ = build(
        [
            rec(
                "a.py",
                [sym("A", "class", (1, 5)), sym("A.m", "method", (2, 3))],
                refs=[ref("A", "A", 1, "base"), ref("self.nothing", "A.m", 2)],
            )
        ]
    )
    assert refs_of(graph) == {("a.py::A", "a.py::A", S)}
