"""What a ``:::`` block renders, against what mkdocs + mkdocstrings-python render for the same
fixture (tests/api/fixtures): the object ids per page, then each option, each docstring style,
griffe's warnings and the escaping of what a docstring says."""

from __future__ import annotations

import re

import pytest

from sitegen.api.render import RenderOptions, render_block
from sitegen.docs.markdown import extract_page
from sitegen.records.api import ApiModel
from tests.api.gizmo import fixture_model

PAGE = "tests/api/fixtures/docs/page.md"

#: The object ids (visible headings and hidden root anchors, in page order) mkdocstrings
#: gave each page of tests/api/fixtures/docs. Produced by running, in a scratch venv with
#: mkdocs 1.6.1, mkdocs-material 9.8.2, mkdocstrings 1.0.8, mkdocstrings-python 2.0.11 and
#: griffe 2.4.1 (never installed into sitegen's own environment), ``mkdocs build`` in a copy
#: of tests/api/fixtures (its mkdocs.yml: ``paths: [src]``, ``allow_inspection: false``),
#: then listing the site's ``doc-heading`` ids and the bare ``<a id>`` anchors directly
#: inside a ``doc-object`` div of each page.
MKDOCSTRINGS_IDS: dict[str, tuple[str, ...]] = {
    "alias": (
        "gizmo.Gadget",
        "gizmo.Gadget.volume",
        "gizmo.Gadget.spin",
        "gizmo.tools.faulty",
    ),
    "defaults": (
        "gizmo.parts",
        "gizmo.parts.LIMIT",
        "gizmo.parts.Frame",
        "gizmo.parts.Frame.frame_method",
        "gizmo.parts.Frame.replaced",
        "gizmo.parts.Gadget",
        "gizmo.parts.Gadget.volume",
        "gizmo.parts.Gadget.weight",
        "gizmo.parts.Gadget.Part",
        "gizmo.parts.Gadget.__init__",
        "gizmo.parts.Gadget.assemble",
        "gizmo.parts.Gadget.download",
        "gizmo.parts.Gadget.measure",
        "gizmo.parts.Gadget.replaced",
        "gizmo.parts.Gadget.spin",
        "gizmo.parts.build_gadget",
    ),
    "numpy": (
        "gizmo.numpydoc",
        "gizmo.numpydoc.combine",
    ),
    "options": (
        "gizmo",
        "gizmo.Gadget",
        "gizmo.Gadget.tint",
        "gizmo.Gadget.frame_method",
        "gizmo.Gadget.weight",
        "gizmo.Gadget.catalog",
        "gizmo.Gadget.label",
        "gizmo.Gadget.volume",
        "gizmo.Gadget.assemble",
        "gizmo.Gadget.measure",
        "gizmo.Gadget.download",
        "gizmo.Gadget.spin",
        "gizmo.Gadget.replaced",
        "gizmo.Gadget.plain",
        "gizmo.Gadget.Part",
        "gizmo.build_gadget",
        "gizmo.public_helper",
        "gizmo.RELEASE",
        "gizmo.numpydoc",
        "gizmo.numpydoc.combine",
        "gizmo.parts",
        "gizmo.parts.T",
        "gizmo.parts.LIMIT",
        "gizmo.parts.Frame",
        "gizmo.parts.Frame.tint",
        "gizmo.parts.Frame.frame_method",
        "gizmo.parts.Frame.replaced",
        "gizmo.parts.Gadget",
        "gizmo.parts.Gadget.catalog",
        "gizmo.parts.Gadget.weight",
        "gizmo.parts.Gadget.label",
        "gizmo.parts.Gadget.volume",
        "gizmo.parts.Gadget.assemble",
        "gizmo.parts.Gadget.measure",
        "gizmo.parts.Gadget.download",
        "gizmo.parts.Gadget.spin",
        "gizmo.parts.Gadget.replaced",
        "gizmo.parts.Gadget.plain",
        "gizmo.parts.Gadget.Part",
        "gizmo.parts.Gadget.tint",
        "gizmo.parts.Gadget.frame_method",
        "gizmo.parts.build_gadget",
        "gizmo.sphinxdoc",
        "gizmo.sphinxdoc.scale",
        "gizmo.tools",
        "gizmo.tools.helper",
        "gizmo.tools.faulty",
        "gizmo.tools.hostile",
        "gizmo.nested",
        "gizmo.nested.deep",
        "gizmo.nested.deep.deep",
    ),
    "rootheading": (
        "gizmo.parts.Gadget",
        "gizmo.parts.Gadget.volume",
        "gizmo.parts.Gadget.weight",
        "gizmo.parts.Gadget.Part",
        "gizmo.parts.Gadget.__init__",
        "gizmo.parts.Gadget.assemble",
        "gizmo.parts.Gadget.download",
        "gizmo.parts.Gadget.measure",
        "gizmo.parts.Gadget.replaced",
        "gizmo.parts.Gadget.spin",
    ),
    "sphinx": ("gizmo.sphinxdoc.scale",),
}

#: The blocks of each page of tests/api/fixtures/docs, with their options as written there.
PAGES: dict[str, list[tuple[str, dict[str, object]]]] = {
    "alias": [
        (
            "gizmo.Gadget",
            {
                "members": ["spin", "volume"],
                "show_root_heading": True,
                "show_bases": False,
                "show_source": False,
            },
        ),
        ("gizmo.tools.faulty", {}),
    ],
    "defaults": [("gizmo.parts", {})],
    "numpy": [("gizmo.numpydoc", {"docstring_style": "numpy"})],
    "options": [
        (
            "gizmo",
            {
                "show_root_heading": True,
                "show_submodules": True,
                "members_order": "source",
                "group_by_category": False,
                "inherited_members": True,
                "show_if_no_docstring": True,
                "merge_init_into_class": True,
                "separate_signature": True,
                "show_signature_annotations": True,
                "signature_crossrefs": True,
                "filters": ["!^_"],
                "docstring_options": {"ignore_init_summary": True},
                "show_root_toc_entry": False,
            },
        )
    ],
    "rootheading": [("gizmo.parts.Gadget", {"show_root_heading": True, "heading_level": 3})],
    "sphinx": [("gizmo.sphinxdoc", {"docstring_style": "sphinx", "show_root_toc_entry": False})],
}


@pytest.fixture(scope="module")
def model() -> ApiModel:
    return fixture_model()


def rendered(model: ApiModel, target: str, **options: object) -> str:
    text, _ = render_block(model, target, RenderOptions(**options), PAGE)  # type: ignore[arg-type]
    return text


def ids_in_order(html: str) -> list[str]:
    """Object ids: a docstring's own headings (``path--slug``) are not objects."""
    return [i for i in re.findall(r'<(?:h[1-6]|a) id="([^"]+)"', html) if "--" not in i]


def test_a_docstrings_own_headings_get_mkdocstrings_ids_below_the_object(
    model: ApiModel,
) -> None:
    """numpy sections read as Google are setext headings, as mkdocstrings shows them."""
    rec = extract_page(PAGE, rendered(model, "gizmo.numpydoc").encode())
    assert [(h.level, h.id) for h in rec.headings if "--" in h.id][:2] == [
        (4, "gizmo.numpydoc.combine--parameters"),
        (4, "gizmo.numpydoc.combine--returns"),
    ]


@pytest.mark.parametrize("page", sorted(PAGES))
def test_object_ids_per_page_are_mkdocstrings_ids(model: ApiModel, page: str) -> None:
    text = "\n".join(rendered(model, target, **opts) for target, opts in PAGES[page])
    rec = extract_page(PAGE, text.encode())
    assert set(ids_in_order(rec.html)) == set(MKDOCSTRINGS_IDS[page])
    assert len(ids_in_order(rec.html)) == len(MKDOCSTRINGS_IDS[page])


@pytest.mark.parametrize("page", ["alias", "defaults", "rootheading", "sphinx", "numpy"])
def test_object_order_per_page_is_mkdocstrings_order(model: ApiModel, page: str) -> None:
    text = "\n".join(rendered(model, target, **opts) for target, opts in PAGES[page])
    assert ids_in_order(extract_page(PAGE, text.encode()).html) == list(MKDOCSTRINGS_IDS[page])


def test_options_page_order_follows_source_with_inherited_members_last(model: ApiModel) -> None:
    target, opts = PAGES["options"][0]
    html = extract_page(PAGE, rendered(model, target, **opts).encode()).html
    found = ids_in_order(html)
    gadget = [i for i in found if i.startswith("gizmo.parts.Gadget.")]
    expected = [i for i in MKDOCSTRINGS_IDS["options"] if i.startswith("gizmo.parts.Gadget.")]
    assert gadget == expected  # catalog (class level) first, tint/frame_method inherited last


def test_headings_with_dotted_and_dunder_ids_reach_the_toc(model: ApiModel) -> None:
    rec = extract_page(PAGE, rendered(model, "gizmo.parts.Gadget").encode())
    by_id = {h.id: h for h in rec.headings}
    assert by_id["gizmo.parts.Gadget.__init__"].text == "__init__"
    # the hidden root is a heading of its name at heading_level, its members beside it, as
    # mkdocstrings' ToC lists them (sitegen's ToC lists headings)
    assert (by_id["gizmo.parts.Gadget"].level, by_id["gizmo.parts.Gadget"].text) == (2, "Gadget")
    assert by_id["gizmo.parts.Gadget.__init__"].level == 2
    assert "gizmo.parts.Gadget" in rec.anchors
    assert '<h2 id="gizmo.parts.Gadget">' in rec.html


def test_root_heading_shows_the_full_path_at_heading_level(model: ApiModel) -> None:
    rec = extract_page(
        PAGE, rendered(model, "gizmo.parts.Frame", show_root_heading=True, heading_level=3).encode()
    )
    assert [(h.level, h.id, h.text) for h in rec.headings][:2] == [
        (3, "gizmo.parts.Frame", "gizmo.parts.Frame"),
        (4, "gizmo.parts.Frame.frame_method", "frame_method"),
    ]


def test_no_root_toc_entry_writes_no_anchor(model: ApiModel) -> None:
    text = rendered(model, "gizmo.tools", show_root_toc_entry=False)
    assert 'id="gizmo.tools"' not in text
    assert '{id="gizmo.tools.helper"}' in text


def test_members_list_keeps_only_those_in_its_order_within_categories(model: ApiModel) -> None:
    text = rendered(model, "gizmo.parts.Gadget", members=["spin", "measure", "volume"])
    ids = re.findall(r'\{id="([^"]+)"\}', text)
    # the root, then the attribute (property), then the functions in the list's order
    assert ids == [
        "gizmo.parts.Gadget",
        "gizmo.parts.Gadget.volume",
        "gizmo.parts.Gadget.spin",
        "gizmo.parts.Gadget.measure",
    ]


def test_members_false_shows_the_object_alone(model: ApiModel) -> None:
    assert re.findall(
        r'\{id="([^"]+)"\}', rendered(model, "gizmo.parts.Gadget", members=False)
    ) == ["gizmo.parts.Gadget"]


def test_filters_last_match_wins_and_search_is_on_the_name(model: ApiModel) -> None:
    ids = re.findall(
        r'\{id="([^"]+)"\}',
        rendered(
            model, "gizmo.parts.Gadget", filters=["!^_", "^_inner$"], show_if_no_docstring=True
        ),
    )
    assert "gizmo.parts.Gadget._inner" in ids
    assert "gizmo.parts.Gadget.__repr__" not in ids
    assert "gizmo.parts.Gadget.__init__" not in ids


def test_default_filter_keeps_dunders_with_docstrings(model: ApiModel) -> None:
    ids = re.findall(r'\{id="([^"]+)"\}', rendered(model, "gizmo.parts"))
    assert "gizmo.parts._secret" not in ids
    assert "gizmo.parts.__marker__" not in ids  # no docstring
    assert "gizmo.parts.Gadget.__init__" in ids
    ids = re.findall(r'\{id="([^"]+)"\}', rendered(model, "gizmo.parts", show_if_no_docstring=True))
    assert "gizmo.parts.__marker__" in ids and "gizmo.parts.T" in ids


def test_inherited_members_are_reached_under_the_subclass(model: ApiModel) -> None:
    ids = re.findall(
        r'\{id="([^"]+)"\}', rendered(model, "gizmo.parts.Gadget", inherited_members=True)
    )
    assert "gizmo.parts.Gadget.frame_method" in ids
    assert "gizmo.parts.Frame.frame_method" not in ids
    only = re.findall(
        r'\{id="([^"]+)"\}',
        rendered(model, "gizmo.parts.Gadget", inherited_members=["replaced", "frame_method"]),
    )
    assert "gizmo.parts.Gadget.frame_method" in only and "gizmo.parts.Gadget.tint" not in only


def test_members_through_an_alias_get_the_alias_path(model: ApiModel) -> None:
    ids = re.findall(r'\{id="([^"]+)"\}', rendered(model, "gizmo.Gadget"))
    assert "gizmo.Gadget.assemble" in ids
    assert not any(i.startswith("gizmo.parts.") for i in ids)


def test_members_order_alphabetical_is_ascii_and_grouped(model: ApiModel) -> None:
    ids = re.findall(
        r'\{id="gizmo\.parts\.Gadget\.([^"]+)"\}', rendered(model, "gizmo.parts.Gadget")
    )
    assert ids == [
        "volume",
        "weight",
        "Part",
        "__init__",
        "assemble",
        "download",
        "measure",
        "replaced",
        "spin",
    ]
    ungrouped = re.findall(
        r'\{id="gizmo\.parts\.Gadget\.([^"]+)"\}',
        rendered(model, "gizmo.parts.Gadget", group_by_category=False),
    )
    assert ungrouped == sorted(ids)


def test_imported_non_public_members_are_dropped(model: ApiModel) -> None:
    ids = re.findall(r'\{id="([^"]+)"\}', rendered(model, "gizmo.parts"))
    # ``Path``, ``Iterator``, ``Generic`` are imported into parts and not public there
    assert not any(i.endswith((".Path", ".Iterator", ".Generic")) for i in ids)


def test_show_submodules(model: ApiModel) -> None:
    assert 'id="gizmo.tools"' not in rendered(model, "gizmo")
    text = rendered(model, "gizmo", show_submodules=True)
    assert '{id="gizmo.tools"}' in text and '{id="gizmo.nested.deep.deep"}' in text


def test_merge_init_into_class_gives_the_class_its_signature_and_parameters(
    model: ApiModel,
) -> None:
    text = rendered(model, "gizmo.parts.Gadget", merge_init_into_class=True)
    assert 'id="gizmo.parts.Gadget.__init__"' not in text
    assert "`Gadget(weight=LIMIT, *, label=None, home=Path('.'))`" in text
    assert "| `label` | `str \\| None` | An optional label. | `None` |" in text
    assert "Make a gadget." in text


def test_ignore_init_summary_drops_the_first_paragraph_of_init(model: ApiModel) -> None:
    text = rendered(
        model,
        "gizmo.parts.Gadget",
        merge_init_into_class=True,
        docstring_options={"ignore_init_summary": True},
    )
    assert "Make a gadget." not in text
    assert "| `weight` | `int` | Its weight. | `LIMIT` |" in text


def test_labels_bases_and_source(model: ApiModel) -> None:
    text = rendered(model, "gizmo.parts.Gadget")
    assert "Bases: [`Frame`][gizmo.parts.Frame], `Generic[`[`T`][gizmo.parts.T]`]`" in text
    assert "`classmethod`" in text and "`property`" in text
    assert (
        "Defined in [`tests/api/fixtures/src/gizmo/parts.py`, lines " in text
        and "](../src/gizmo/parts.py#L" in text
    )
    bare = rendered(
        model, "gizmo.parts.Gadget", show_labels=False, show_bases=False, show_source=False
    )
    assert "`classmethod`" not in bare and "Bases:" not in bare and "Source code" not in bare


def test_source_link_resolves_to_the_lines_on_the_source_page(model: ApiModel) -> None:
    text = rendered(model, "gizmo.parts.build_gadget")
    rec = extract_page(PAGE, text.encode())
    hrefs = [x.href for x in rec.links if ".py#L" in x.href]
    obj = model.get("gizmo.parts.build_gadget")
    assert obj is not None
    assert hrefs == [f"../src/gizmo/parts.py#L{obj.lineno}-L{obj.endlineno}"]


def test_signature_inline_separate_wrapped_and_annotated(model: ApiModel) -> None:
    assert "`measure(a, /, b=2)`" in rendered(model, "gizmo.parts.Gadget.measure")
    text = rendered(
        model,
        "gizmo.parts.Gadget",
        merge_init_into_class=True,
        separate_signature=True,
        show_signature_annotations=True,
    )
    assert (
        "```python\nGadget(\n    weight: int = LIMIT,\n    *,\n    label: str | None = None,\n"
        '    home: Path = Path("."),\n)\n```'  # wrapped as ruff writes it: double quotes
    ) in text
    short = rendered(
        model,
        "gizmo.parts.Gadget.measure",
        separate_signature=True,
        show_signature_annotations=True,
    )
    assert "```python\nmeasure(a: int, /, b: int = 2) -> int\n```" in short


def test_signature_crossrefs_link_documented_types(model: ApiModel) -> None:
    text = rendered(model, "gizmo.parts.Gadget.assemble", signature_crossrefs=True)
    assert "[`Gadget`][gizmo.parts.Gadget]" in text


def test_google_sections(model: ApiModel) -> None:
    text = rendered(model, "gizmo.parts.Gadget")
    assert '???+ note "Note"\n\n    Gadgets are not thread safe.' in text  # open <details>
    assert "```pycon\n>>> g = Gadget(4)\n>>> g.weight\n4\n```\n\nProse after the example." in text
    assert "| `weight` | `int` | How heavy the gadget is. |" in text  # type from the member
    assert "**Raises:**\n\n| Type | Description |\n|---|---|\n| `ValueError` |" in text
    assert "**Yields:**" in text


def test_numpy_style(model: ApiModel) -> None:
    text = rendered(model, "gizmo.numpydoc", docstring_style="numpy")
    assert "| `a` | `int` | The first number. | *required* |" in text
    assert "| `b` | `int` | The second number. | `1` |" in text
    assert "**Returns:**" in text and "**Raises:**" in text and "```pycon" in text
    # read as Google, the same docstring has no sections
    assert "**Parameters:**" not in rendered(model, "gizmo.numpydoc")


def test_sphinx_style_and_roles(model: ApiModel) -> None:
    text, problems = render_block(
        model, "gizmo.sphinxdoc", RenderOptions(docstring_style="sphinx"), PAGE
    )
    assert "| `factor` | `float` | The factor. | `2.0` |" in text
    assert "[`gizmo.numpydoc.combine`][gizmo.numpydoc.combine]" in text
    assert problems == []
    # Google-only options are not handed to the Sphinx parser
    render_block(
        model,
        "gizmo.sphinxdoc",
        RenderOptions(docstring_style="sphinx", docstring_options={"ignore_init_summary": True}),
        PAGE,
    )


def test_tilde_role_shows_the_last_name(model: ApiModel) -> None:
    assert "[`Frame`][gizmo.parts.Frame]" in rendered(model, "gizmo.parts.Gadget", members=False)


def test_griffe_warnings_are_problems(model: ApiModel) -> None:
    _, problems = render_block(model, "gizmo.tools.faulty", RenderOptions(), PAGE)
    assert problems == [
        "docstring of gizmo.tools.faulty (tests/api/fixtures/src/gizmo/tools.py:14): "
        "No type or annotation for parameter 'y'",
        "docstring of gizmo.tools.faulty (tests/api/fixtures/src/gizmo/tools.py:14): "
        "Parameter 'y' does not appear in the function signature",
    ]


def test_missing_object_renders_nothing(model: ApiModel) -> None:
    text, problems = render_block(model, "gizmo.nope", RenderOptions(), PAGE)
    assert text == "" and problems


def test_docstring_html_and_pipes_are_content(model: ApiModel) -> None:
    text = rendered(model, "gizmo.tools.hostile")
    assert (
        "| `x` | `int` | A cell with \\| a pipe and <script>alert(2)</script>. | *required* |"
        in text
    )
    rec = extract_page(PAGE, text.encode())
    assert "<script" not in rec.html
    row = re.search(r"<tr>\s*<td><code>x</code></td>(.*?)</tr>", rec.html, re.S)
    assert row is not None and row.group(1).count("<td") == 3  # the pipe did not split a cell


def test_an_open_fence_in_a_docstring_is_closed() -> None:
    from sitegen.records.api import ApiKind, ApiObject, Docstring

    model = ApiModel()
    model.objects["m"] = ApiObject("m", "m", ApiKind.MODULE, "m.py", 1, 3, members=(("f", "m.f"),))
    model.objects["m.f"] = ApiObject(
        "m.f", "f", ApiKind.FUNCTION, "m.py", 2, 3, docstring=Docstring("Open:\n\n```\ncode", 2)
    )
    model.objects["m.g"] = ApiObject("m.g", "g", ApiKind.FUNCTION, "m.py", 4, 5)
    rec = extract_page(PAGE, rendered(model, "m", members=["f"]).encode() + b"\n## After\n")
    assert [h.text for h in rec.headings] == ["m", "f", "After"]
