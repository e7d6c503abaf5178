"""The options and docstring forms of a ``:::`` block that real projects use beyond the basics
(FastAPI's and pydantic's reference pages), read by the real loader from sources written here:
the code of a block's warnings, the hidden root's ToC entry, section styles, symbol types,
``Annotated[T, Doc("…")]``, the collapsible source, imports in source order, and docstrings
written to break the page."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.api.load import ModuleSource, PackageSource, read_package
from sitegen.base.paths import RepoPath
from sitegen.base.progress import Progress
from sitegen.docs.pipeline import extract_pages
from sitegen.docs.sanitize import RawHtml
from sitegen.records.api import ApiKind, ApiModel, ApiObject, Docstring
from sitegen.records.crawl import SourceFile
from sitegen.records.pages import PageRecord
from tests.safety.linear import grows_linearly

PAGE = "docs/api.md"


def model_of(files: dict[str, str], root: str = "src") -> ApiModel:
    """The model of the packages ``files`` (paths below ``root``: ``pkg/mod.py``) hold, read
    by the loader from these bytes."""
    model = ApiModel()
    tops = sorted({rel.partition("/")[0].removesuffix(".py") for rel in files})
    for top in tops:
        modules = []
        for rel in sorted(files):
            if rel.partition("/")[0].removesuffix(".py") != top:
                continue
            stem = rel.removesuffix(".py").removesuffix("/__init__")
            data = textwrap.dedent(files[rel]).encode()
            modules.append(ModuleSource(stem.replace("/", "."), f"{root}/{rel}", Path(rel), data))
        modules.sort(key=lambda m: m.module.split("."))
        entry = read_package(PackageSource(top, modules))
        model.objects.update(entry.objects)
        model.aliases.update((p, site.target) for p, site in entry.aliases.items())
        model.alias_lines.update((p, site.line) for p, site in entry.aliases.items())
    return model


def extracted(
    model: ApiModel, page: str, raw_html: RawHtml = RawHtml.SANITIZE, **options: object
) -> PageRecord:
    """The page (its text dedented) through the docs step, its blocks expanded."""
    (rec,) = extract_pages(
        [SourceFile(RepoPath(PAGE), textwrap.dedent(page).encode())],
        1,
        Progress(enabled=False),
        raw_html=raw_html,
        api=model,
        api_options=options,
    )
    return rec


# --- 1. the code of a block's warnings ------------------------------------------------------

SIMPLE = {
    "pkg/__init__.py": '''
        """A package."""

        def run(x: int) -> int:
            """Run.

            Args:
                nothing: Not a parameter.
            """
            return x
    ''',
    "inc.md": "included\n",
}


def test_a_block_warns_with_the_code_api_and_a_snippet_with_snippet() -> None:
    model = model_of({k: v for k, v in SIMPLE.items() if k.endswith(".py")})
    rec = extracted(
        model,
        """\
        # API

        --8<-- "missing.md"

        ::: pkg.run

        ::: pkg.nothing_here
        """,
    )
    said = sorted((d.line, d.code, d.message) for d in rec.diagnostics)
    assert [(line, code) for line, code, _ in said] == [(3, "snippet"), (5, "api"), (7, "api")]
    assert said[0][2].startswith("snippet 'missing.md': ")
    assert said[1][2].startswith("::: pkg.run: docstring of pkg.run")
    assert said[2][2].startswith("::: pkg.nothing_here: no such object")


# --- 2. the hidden root ---------------------------------------------------------------------

MODULE = {
    "pkg/__init__.py": '"""A package."""\n',
    "pkg/core.py": '''
        """The core.

        # Usage

        Call it.
        """

        LIMIT: int = 3
        """The limit."""


        def run() -> None:
            """Run."""
    ''',
}


def test_the_hidden_root_is_a_toc_entry_beside_its_members_in_every_raw_html_mode() -> None:
    model = model_of(MODULE)
    for mode in RawHtml:
        rec = extracted(model, "# Core\n\n::: pkg.core\n", mode)
        headings = [(h.level, h.id, h.text) for h in rec.headings]
        assert headings == [
            (1, "core", "Core"),
            (2, "pkg.core", "core"),  # mkdocstrings' ToC entry: the name, at heading_level
            (3, "pkg.core--usage", "Usage"),
            (2, "pkg.core.LIMIT", "LIMIT"),
            (2, "pkg.core.run", "run"),
        ], mode
        assert "pkg.core" in rec.anchors and "&lt;a" not in rec.html, mode


def test_without_a_toc_entry_the_hidden_root_has_no_anchor() -> None:
    rec = extracted(
        model_of(MODULE), "::: pkg.core\n    options:\n      show_root_toc_entry: false\n"
    )
    assert [h.id for h in rec.headings] == ["pkg.core--usage", "pkg.core.LIMIT", "pkg.core.run"]
    assert "pkg.core" not in rec.anchors


# --- 3. section styles, symbols, Annotated, parameter anchors, yields, quotes ---------------

FUNCTIONS = {
    "pkg/__init__.py": '''
        """A package."""

        from collections.abc import Iterator
        from typing import Annotated


        class Tool:
            """A tool."""

            def use(
                self,
                speed: Annotated[int, "fast"],
                mode: str = 'quick',
                label: Annotated[str | None, "shown"] = None,
            ) -> Annotated[bool, "ok"]:
                """Use it.

                Args:
                    speed: How fast.
                    mode: Which | way.
                    label: What it says.

                Raises:
                    ValueError: When it fails.
                """

            def count(self) -> Iterator[int]:
                """Count.

                Yields:
                    The next number.
                """
    ''',
}


def rendered(files: dict[str, str], target: str, **options: object) -> str:
    from sitegen.api.blocks import merged_options
    from sitegen.api.render import render_block

    merged, problems = merged_options({}, options)
    assert problems == []
    text, _ = render_block(model_of(files), target, merged, PAGE)
    return text


def test_sections_as_lists() -> None:
    text = rendered(FUNCTIONS, "pkg.Tool.use", docstring_section_style="list")
    assert "- **`speed`** (`Annotated[int, fast]`) \N{EN DASH} How fast." in text
    assert "- **`mode`** (`str`, default: `'quick'`) \N{EN DASH} Which | way." in text
    assert "- `ValueError` \N{EN DASH} When it fails." in text
    assert "| Name |" not in text


def test_sections_in_spacy_style() -> None:
    text = rendered(FUNCTIONS, "pkg.Tool.use", docstring_section_style="spacy")
    assert "| PARAMETER | DESCRIPTION |" in text
    assert "| `mode` | Which \\| way. **TYPE:** `str` **DEFAULT:** `'quick'` |" in text
    assert "| RAISES | DESCRIPTION |" in text and "| `ValueError` | When it fails. |" in text


def test_symbol_types_prefix_headings_and_so_the_toc() -> None:
    rec = extracted(
        model_of(FUNCTIONS),
        "::: pkg.Tool\n    options:\n      show_root_heading: true\n"
        "      show_symbol_type_heading: true\n      show_symbol_type_toc: true\n",
    )
    assert [h.text for h in rec.headings] == ["class pkg.Tool", "meth count", "meth use"]


def test_unwrap_annotated_in_signatures_and_tables() -> None:
    text = rendered(
        FUNCTIONS,
        "pkg.Tool.use",
        unwrap_annotated=True,
        show_signature_annotations=True,
        separate_signature=True,
    )
    assert "Annotated" not in text
    assert '    mode: str = "quick",\n    label: str | None = None,\n) -> bool' in text
    assert "| `label` | `str \\| None` | What it says. | `None` |" in text


def test_wrapped_signatures_are_double_quoted_as_ruff_writes_them() -> None:
    wrapped = rendered(FUNCTIONS, "pkg.Tool.use", separate_signature=True, line_length=20)
    short = rendered(FUNCTIONS, "pkg.Tool.use", separate_signature=True, line_length=200)
    assert '    mode="quick",' in wrapped
    assert "mode='quick'" in short  # one line: as written, as mkdocstrings leaves it


def test_parameter_headings_are_anchors_of_mkdocstrings_ids() -> None:
    rec = extracted(
        model_of(FUNCTIONS), "::: pkg.Tool.use\n    options:\n      parameter_headings: true\n"
    )
    assert {"pkg.Tool.use(speed)", "pkg.Tool.use(mode)", "pkg.Tool.use(label)"} <= set(rec.anchors)


def test_a_yields_type_is_the_iterator_s_item_type() -> None:
    text = rendered(FUNCTIONS, "pkg.Tool.count")
    assert "| `int` | The next number. |" in text


# --- 4. Annotated[T, Doc("…")] ---------------------------------------------------------------

DOCUMENTED = {
    "app/__init__.py": '''
        """FastAPI's way."""

        from typing import Annotated

        from annotated_doc import Doc
        from typing_extensions import Doc as OtherDoc


        class App:
            """An app."""

            def __init__(
                self,
                debug: Annotated[
                    bool,
                    Doc(
                        """
                        Whether tracebacks are shown.

                        Read more in the docs.
                        """
                    ),
                ] = False,
                title: Annotated[str, OtherDoc("The title.")] = "API",
                plain: int = 0,
            ) -> None:
                pass

            def route(self, path: Annotated[str, Doc("The path.")]) -> None:
                """Add a route.

                Args:
                    path: Said by the docstring.
                """

        def bare(*names: Annotated[str, Doc("Names.")]) -> None:
            pass
    ''',
}


def test_doc_in_annotated_describes_a_parameter_the_docstring_does_not() -> None:
    text = rendered(
        DOCUMENTED,
        "app.App",
        merge_init_into_class=True,
        unwrap_annotated=True,
        docstring_section_style="spacy",
        show_signature_annotations=True,
        separate_signature=True,
    )
    assert (
        "| `debug` | Whether tracebacks are shown. Read more in the docs. **TYPE:** `bool` "
        "**DEFAULT:** `False` |" in text
    )
    assert "| `title` | The title. **TYPE:** `str` **DEFAULT:** `'API'` |" in text
    assert "`plain`" not in text.partition("| PARAMETER |")[2].partition("\n\n")[0]
    assert "| `path` | Said by the docstring. **TYPE:** `str` |" in text  # the docstring wins
    assert "Doc(" not in text  # unwrapped in the signature too


def test_a_function_documented_by_doc_alone_is_shown() -> None:
    text = rendered(DOCUMENTED, "app", unwrap_annotated=True)
    assert "| `*names` | `str` | Names. |   |" in text


# --- 5. show_source: the object's lines ------------------------------------------------------

SOURCE = '''"""A module."""


class Shown:
    """Shown with its source."""

    def method(self) -> str:
        """A method."""
        return "```"
'''


def test_show_source_lists_the_object_s_lines_numbered_from_its_first() -> None:
    files = {"pkg/__init__.py": SOURCE}
    model = model_of(files)
    (rec,) = extract_pages(
        [SourceFile(RepoPath(PAGE), b"::: pkg.Shown\n")],
        1,
        Progress(enabled=False),
        api=model,
        api_sources={"src/pkg/__init__.py": SOURCE.encode()},
    )
    html = rec.html
    assert html.count("<details") == 2 and "Source code in <code>src/pkg/__init__.py</code>" in html
    numbers = re.findall(r'<span class="linenos">\s*(\d+)</span>', html)
    assert numbers == ["4", "5", "6", "7", "8", "9", "7", "8", "9"]  # the class, then its method
    assert "linenos" not in extracted(model, "::: pkg.Shown\n").html  # no bytes: the link alone
    text = rendered(files, "pkg.Shown", show_source=False)
    assert "Source code" not in text


# --- 6. imported members in source order -----------------------------------------------------

IMPORTS = {
    "pkg/__init__.py": '''
        from pkg.other import Zed

        LIMIT = 1
        """The limit (assigned again below, so griffe's line is the last assignment's)."""


        def first() -> None:
            """First."""


        LIMIT = 2

        __all__ = ["Zed", "first", "LIMIT"]  # an imported name is shown when __all__ lists it
    ''',
    "pkg/other.py": '''
        class Zed:
            """Imported."""
    ''',
}


def test_an_imported_member_sorts_at_its_import_line() -> None:
    rec = extracted(
        model_of(IMPORTS),
        "::: pkg\n    options:\n      members_order: source\n      group_by_category: false\n",
    )
    # mkdocstrings: Zed's alias_lineno 1, first() 8, LIMIT's last assignment 12
    assert [h.id for h in rec.headings] == ["pkg", "pkg.Zed", "pkg.first", "pkg.LIMIT"]


# --- docstrings written to break the page ----------------------------------------------------

HOSTILE = [
    "<!--",
    "-->",
    "```",
    "~~~",
    ":::",
    "::: warning",
    "---",
    "===",
    '{id="x"}',
    "{#pkg.b}",
    "{: .note}",
    "# Heading",
    "Title\n---",
    "<script>",
    "<pre>",
    "<?php",
    "<![CDATA[",
    "<!DOCTYPE",
    "Args:",
    "    a: b",
    "Returns:",
    "Examples:",
    ">>> 1",
    "!!! note",
    "[x][pkg.a]",
    ":class:`~pkg.b`",
    "|",
    "`",
    "\\",
    "    ",
    "\t",
    "\r",
    "\n",
    "\n\n",
]
OBJECTS = ("pkg", "pkg.a", "pkg.b", "pkg.c")


def hostile_model(docstring: str) -> ApiModel:
    """A module of three functions, the middle one with ``docstring``, each documented."""
    model = ApiModel()
    names = [(name.rpartition(".")[2], name) for name in OBJECTS[1:]]
    model.objects["pkg"] = ApiObject(
        "pkg", "pkg", ApiKind.MODULE, "src/pkg/__init__.py", 1, 9, members=tuple(names)
    )
    for i, (name, path) in enumerate(names):
        text = f"B.\n\n{docstring}" if name == "b" else f"{name.upper()}."
        model.objects[path] = ApiObject(
            path, name, ApiKind.FUNCTION, "src/pkg/__init__.py", i + 2, i + 2,
            docstring=Docstring(text, i + 2),
        )  # fmt: skip
    return model


def expanded_page(docstring: str, raw_html: RawHtml = RawHtml.SANITIZE) -> PageRecord:
    return extracted(hostile_model(docstring), "::: pkg\n", raw_html)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=8)), max_size=30),
    st.sampled_from(list(RawHtml)),
)
def test_no_docstring_breaks_the_page(parts: list[str], raw_html: RawHtml) -> None:
    rec = expanded_page("\n".join(parts), raw_html)
    assert set(OBJECTS) <= set(rec.anchors)
    ids = [h.id for h in rec.headings]
    assert [i for i in ids if i in OBJECTS] == list(OBJECTS)  # each object's heading, in order


def test_each_hostile_line_leaves_the_next_object_its_heading() -> None:
    for line in HOSTILE:
        rec = expanded_page(f"{line}\n")
        assert [h.id for h in rec.headings if h.id in OBJECTS] == list(OBJECTS), line


def test_a_huge_docstring_line_costs_linear_time() -> None:
    ok, said = grows_linearly(
        expanded_page, lambda n: "word <!-- `x` :class:`y` " * (n // 24), 5_000
    )
    assert ok, said
    rec = expanded_page("x" * 100_000)
    assert set(OBJECTS) <= set(rec.anchors)


def test_hostile_lines_in_a_docstring_cost_linear_time() -> None:
    ok, said = grows_linearly(expanded_page, lambda n: "\n".join(HOSTILE * max(n // 200, 1)), 2_000)
    assert ok, said


def test_a_fence_line_before_a_rule_is_not_a_heading() -> None:
    """A docstring's closing fence followed by ``---`` is a code block and a rule (as
    CommonMark reads it), not a setext heading whose text is the fence: that heading took the
    next object's place on the page (found by test_no_docstring_breaks_the_page)."""
    rec = expanded_page("```\n```\n---")
    assert [h.id for h in rec.headings if h.id in OBJECTS] == list(OBJECTS)
