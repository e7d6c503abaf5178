"""Cross-references to API entries (issue 28, point 1): an autoref ``[x][pkg.Name]`` /
``[pkg.Name][]`` in a page or a docstring lands on the object's entry on the page whose
``:::`` block shows it (by its id, an alias or its canonical path), else on its source line,
else in an inventory; ``sitegen explain`` shows the step, and says what the build says."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.base.languages import LangId
from sitegen.base.paths import NodeId, RepoPath
from sitegen.base.progress import Progress
from sitegen.code.extract import extract_source
from sitegen.docs.pipeline import extract_pages
from sitegen.graph.model import NodeKind
from sitegen.link.api_entries import api_entries, symbol_node
from sitegen.link.rules import Rule, SiteIndex
from sitegen.link.step import link_all, trace_link
from sitegen.records.api import ApiKind, ApiModel, ApiObject, Docstring, Expression, TypeRef
from sitegen.records.code import CodeRecord
from sitegen.records.crawl import SourceFile
from sitegen.records.linked import Linked, Outcome
from sitegen.records.pages import LinkKind, PageRecord

SOURCES = {
    "src/shop/__init__.py": "from shop.parts import Gadget\n",
    "src/shop/parts.py": (
        "class Base:\n    def spin(self):\n        pass\n\n\n"
        "class Gadget(Base):\n    volume: int = 1\n"
    ),
    "src/shop/tools.py": '"""Tools; see [the gadget][shop.Gadget]."""\n\n\ndef helper():\n    pass\n',
}


def _object(path: str, kind: ApiKind, line: int, **more: object) -> ApiObject:
    file = "src/" + path.split(".")[0] + "/" + (path.split(".") + ["__init__"])[1] + ".py"
    name = path.rpartition(".")[2]
    doc = Docstring(f"The {name}.", line)
    return ApiObject(path, name, kind, file, line, line, docstring=doc, **more)  # type: ignore[arg-type]


def shop_model() -> ApiModel:
    """``shop`` re-exports ``shop.parts.Gadget`` (a subclass of ``Base``) as ``shop.Gadget``."""
    model = ApiModel()
    for obj in (
        _object("shop", ApiKind.MODULE, 1, members=(("Gadget", "shop.Gadget"),)),
        _object(
            "shop.parts",
            ApiKind.MODULE,
            1,
            members=(("Base", "shop.parts.Base"), ("Gadget", "shop.parts.Gadget")),
        ),
        _object("shop.parts.Base", ApiKind.CLASS, 1, members=(("spin", "shop.parts.Base.spin"),)),
        _object("shop.parts.Base.spin", ApiKind.FUNCTION, 2),
        _object(
            "shop.parts.Gadget",
            ApiKind.CLASS,
            6,
            bases=(Expression("Base", (TypeRef("Base", "shop.parts.Base"),)),),
            members=(("volume", "shop.parts.Gadget.volume"),),
        ),
        _object("shop.parts.Gadget.volume", ApiKind.ATTRIBUTE, 7),
        _object("shop.tools", ApiKind.MODULE, 1, members=(("helper", "shop.tools.helper"),)),
        _object("shop.tools.helper", ApiKind.FUNCTION, 4),
    ):
        model.objects[obj.canonical] = obj
    model.aliases["shop.Gadget"] = "shop.parts.Gadget"
    return model


def site(
    pages: dict[str, str], model: ApiModel | None = None
) -> tuple[SiteIndex, list[PageRecord], list[CodeRecord]]:
    model = shop_model() if model is None else model
    files = [SourceFile(RepoPath(p), t.encode()) for p, t in sorted(pages.items())]
    records = extract_pages(files, 1, Progress(enabled=False), api=model)
    code = [extract_source(p, LangId.PYTHON, t.encode()) for p, t in sorted(SOURCES.items())]
    index = SiteIndex(
        content="content",
        pages=set(pages),
        assets=set(),
        sources=set(SOURCES),
        dirs={"content", "content/api", "src", "src/shop"},
        api=model,
    )
    return index, records, code


def linked(pages: dict[str, str], model: ApiModel | None = None) -> Linked:
    index, records, code = site(pages, model)
    return link_all(index, records, code, {p: t.count("\n") for p, t in SOURCES.items()})


def resolved(out: Linked, page: str = "/guide.md") -> list[tuple[str, str, str]]:
    """Each autoref of ``page``: its target, and where it landed (node, fragment)."""
    rec = out.resolutions[NodeId(page)]
    return [(str(r.outcome), r.node or "", r.fragment) for r in rec]


GADGET_PAGE = "# Gadget\n\n::: shop.parts.Gadget\n    options:\n      show_root_heading: true\n"
ALIAS_PAGE = "# Shop\n\n::: shop.Gadget\n    options:\n      show_root_heading: true\n"


def test_an_autoref_lands_on_the_entry_of_the_page_that_shows_it() -> None:
    out = linked(
        {
            "content/api/gadget.md": GADGET_PAGE,
            "content/guide.md": "# Guide\n\n## Use\n\nSee [the gadget][shop.parts.Gadget].\n",
        }
    )
    assert resolved(out) == [("internal", "/api/gadget.md", "shop.parts.Gadget")]
    edge = out.graph.edge("/guide.md", "/api/gadget.md")
    assert edge is not None and (edge.label, edge.anchor) == ("the gadget", "use")
    assert edge.occurrences[0].fragment == "shop.parts.Gadget"
    assert out.broken == []


def test_an_alias_path_and_a_member_through_it_land_on_the_canonical_entry() -> None:
    out = linked(
        {
            "content/api/gadget.md": GADGET_PAGE,
            "content/guide.md": "# Guide\n\n[`shop.Gadget`][] and [v][shop.Gadget.volume]\n",
        }
    )
    assert resolved(out) == [
        ("internal", "/api/gadget.md", "shop.parts.Gadget"),
        ("internal", "/api/gadget.md", "shop.parts.Gadget.volume"),
    ]


def test_the_canonical_path_lands_on_the_entry_shown_under_an_alias() -> None:
    out = linked(
        {
            "content/api/shop.md": ALIAS_PAGE,
            "content/guide.md": "# Guide\n\n[g][shop.parts.Gadget] [v][shop.parts.Gadget.volume]\n",
        }
    )
    assert resolved(out) == [
        ("internal", "/api/shop.md", "shop.Gadget"),
        ("internal", "/api/shop.md", "shop.Gadget.volume"),
    ]


def test_the_id_as_written_wins_then_the_object_at_its_own_path() -> None:
    pages = {
        "content/api/gadget.md": GADGET_PAGE,
        "content/api/shop.md": ALIAS_PAGE,
        "content/guide.md": "# Guide\n\n[a][shop.Gadget] [b][shop.parts.Gadget]\n",
    }
    assert resolved(linked(pages)) == [
        ("internal", "/api/shop.md", "shop.Gadget"),
        ("internal", "/api/gadget.md", "shop.parts.Gadget"),
    ]


def test_an_inherited_member_is_found_by_the_path_it_is_shown_at() -> None:
    page = GADGET_PAGE + "      inherited_members: true\n"
    index, records, _ = site({"content/api/gadget.md": page})
    entries = api_entries({NodeId("/api/gadget.md"): records[0]}, index.api)
    assert entries.by_id["shop.parts.Gadget.spin"].canonical == "shop.parts.Base.spin"
    out = linked({"content/api/gadget.md": page, "content/guide.md": "[s][shop.parts.Base.spin]\n"})
    assert resolved(out) == [("internal", "/api/gadget.md", "shop.parts.Gadget.spin")]


def test_without_an_entry_the_source_line_then_the_text() -> None:
    out = linked(
        {
            "content/api/gadget.md": GADGET_PAGE,
            "content/guide.md": "# Guide\n\n[h][shop.tools.helper] [n][nowhere.Thing]\n",
        }
    )
    assert resolved(out) == [
        ("internal", "/code/src/shop/tools.py", "L4"),
        ("unresolved", "", ""),
    ]


def test_a_prose_heading_named_like_a_module_is_no_entry() -> None:
    index, records, _ = site({"content/shop.md": "# Shop\n\nAbout the shop.\n"})
    assert [h.id for h in records[0].headings] == ["shop"]
    assert not api_entries({NodeId("/shop.md"): records[0]}, index.api)


def test_a_link_to_an_api_page_without_the_id_goes_to_the_page_that_shows_it() -> None:
    out = linked(
        {
            "content/api/shop.md": "# Shop\n\nNothing rendered here.\n",
            "content/api/gadget.md": GADGET_PAGE,
            "content/guide.md": "[g](api/shop.md#shop.parts.Gadget)\n",
        }
    )
    assert resolved(out) == [("internal", "/api/gadget.md", "shop.parts.Gadget")]
    assert out.broken == []


def test_an_autoref_on_the_page_that_shows_the_object_is_a_self_link() -> None:
    page = GADGET_PAGE + "\nSee [`Gadget`][shop.Gadget] above.\n"
    out = linked({"content/api/gadget.md": page})
    mine = [
        r for r in out.resolutions[NodeId("/api/gadget.md")] if r.fragment == "shop.parts.Gadget"
    ]
    assert mine and all(r.outcome is Outcome.SELF for r in mine)
    assert out.graph.edge("/api/gadget.md", "/api/gadget.md") is None


def test_a_docstring_autoref_in_the_code_lands_on_the_entry() -> None:
    out = linked({"content/api/gadget.md": GADGET_PAGE})
    edges = out.edges_by_source[NodeId("/code/src/shop/tools.py")]
    assert [(e.dst, e.occurrences[0].fragment) for e in edges] == [
        ("/api/gadget.md", "shop.parts.Gadget"),
        (GADGET, "shop.parts.Gadget"),
    ]


GADGET = "python:src/shop/parts.py::Gadget"
BASE = "python:src/shop/parts.py::Base"


def test_each_object_shown_is_a_symbol_node_with_the_code_graphs_name() -> None:
    page = GADGET_PAGE + "\n::: shop.parts\n    options:\n      members: [Base]\n"
    out = linked({"content/api/gadget.md": page})
    symbols = {n: x.title for n, x in out.graph.nodes.items() if x.kind is NodeKind.SYMBOL}
    assert symbols == {
        GADGET: "shop.parts.Gadget",
        f"{GADGET}.volume": "shop.parts.Gadget.volume",
        BASE: "shop.parts.Base",
        f"{BASE}.spin": "shop.parts.Base.spin",
        "python:src/shop/parts.py": "shop.parts",
    }
    documents = {e.dst: e.anchor for e in out.edges_by_source[NodeId("/api/gadget.md")]}
    assert documents[GADGET] == "shop.parts.Gadget"
    assert documents["python:src/shop/parts.py"] == "shop.parts"
    assert {(e.src, e.rel) for e in out.graph.backlinks_of(NodeId(GADGET))} == {
        ("/api/gadget.md", "documents"),
        ("/code/src/shop/tools.py", ""),  # the docstring's autoref
    }
    (inherits,) = out.edges_by_source[NodeId(GADGET)]
    assert (inherits.dst, inherits.rel) == (BASE, "inherits")


def test_a_prose_link_to_an_entry_is_a_backlink_of_the_object() -> None:
    out = linked(
        {
            "content/api/shop.md": ALIAS_PAGE,
            "content/guide.md": "# Guide\n\n## Step 1\n\n[g][shop.parts.Gadget] [`shop.Gadget`][]\n",
        }
    )
    edge = out.graph.edge("/guide.md", GADGET)
    assert edge is not None
    assert (edge.label, edge.anchor, edge.count) == ("g", "step-1", 2)
    # the page link stays: the API page's own backlinks and figures see it as before
    assert out.graph.edge("/guide.md", "/api/shop.md") is not None


def test_an_external_object_is_named_as_the_code_graph_names_one() -> None:
    model = shop_model()
    model.objects["shop.parts"] = replace(model.objects["shop.parts"], external=True, file="")
    assert symbol_node(model, "shop.parts.Gadget") == "external:python:shop.parts.Gadget"
    assert symbol_node(model, "nowhere.Thing") == "external:python:nowhere.Thing"
    assert symbol_node(shop_model(), "shop") == "python:src/shop/__init__.py"


NAMES = [
    "shop.Gadget",
    "shop.parts.Gadget",
    "shop.parts.Gadget.volume",
    "shop.Gadget.volume",
    "shop.parts.Base",
    "shop.tools.helper",
    "shop.tools.nothing",
    "elsewhere.Thing",
]


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(NAMES), shown=st.sets(st.sampled_from(["gadget", "alias"])))
def test_explain_shows_the_entry_step_and_says_what_the_build_says(
    name: str, shown: set[str]
) -> None:
    pages = {"content/guide.md": f"# Guide\n\nSee [it][{name}].\n"}
    if "gadget" in shown:
        pages["content/api/gadget.md"] = GADGET_PAGE
    if "alias" in shown:
        pages["content/api/shop.md"] = ALIAS_PAGE
    index, records, code = site(pages)
    lines = {p: t.count("\n") for p, t in SOURCES.items()}
    out = link_all(index, records, code, lines)
    guide = next(r for r in records if r.path == "content/guide.md")
    (link,) = [x for x in guide.links if x.kind is LinkKind.AUTOREF]
    traced = trace_link(index, records, code, lines, None, guide, link)
    said = [d.message for d in out.diagnostics if d.path == "content/guide.md"]
    assert said == [d.message for d in traced.diagnostics]
    (built,) = out.resolutions[NodeId("/guide.md")]
    assert traced.resolved == built
    (step,) = [s for s in traced.steps if s.rule is Rule.API_ENTRY]
    on_entry = built.node is not None and built.node.startswith("/api/")
    assert step.found == (f"{built.node}#{built.fragment}" if on_entry else "")
    # the entry step comes first: a symbol's line only when no page shows the object
    assert traced.steps[0].rule is Rule.API_ENTRY
    assert on_entry == (bool(shown) and name.startswith(("shop.Gadget", "shop.parts.Gadget")))


def test_a_site_without_blocks_has_no_entry_step() -> None:
    index, records, code = site({"content/guide.md": "[h][shop.tools.helper]\n"})
    index.api = None
    (guide,) = records
    traced = trace_link(index, records, code, {}, None, guide, guide.links[0])
    assert [s.rule for s in traced.steps] == [Rule.AUTOREF, Rule.ANCHOR]


def test_what_a_page_documents_follows_its_entries_to_the_objects_lines() -> None:
    from sitegen.link.documented import documented
    from sitegen.records.stale import DocRef

    pages = {
        "content/api/gadget.md": GADGET_PAGE,
        "content/guide.md": "# Guide\n\nSee [the gadget][shop.Gadget].\n",
    }
    index, records, code = site(pages)
    out = link_all(index, records, code, {p: t.count("\n") for p, t in SOURCES.items()})
    by_path = {r.path: out.resolutions[index.node_for(r.path)] for r in records}  # type: ignore[index]
    docs = documented(
        records, by_path, code, {p: t.encode() for p, t in pages.items()}, {}, entries=out.entries
    )
    parts = "src/shop/parts.py"
    assert docs["content/guide.md"] == [
        DocRef("content/guide.md", 3, 5, "autoref", parts, "Gadget", 6, 6)
    ]
    # the block documents its object, once: not again through each Source link it writes
    assert docs["content/api/gadget.md"] == [
        DocRef("content/api/gadget.md", 3, 1, "directive", parts, "Gadget", 6, 6)
    ]
