"""Links in comments and docstrings are real or ignored: code that only looks like a link is
not one, and MkDocs-autorefs cross-references are kept for the linker."""

from __future__ import annotations

from sitegen.base.diagnostics import Level
from sitegen.base.languages import LangId
from sitegen.code.extract import extract_source
from sitegen.docs.markdown import extract_page
from sitegen.link.rules import SiteIndex
from sitegen.link.step import link_all

SOURCE = b'''"""The model. See [the guide](../docs/guide.md) and [Model][pkg.models.Model].

    >>> MyGeneric[Any](x=1)
    Also `[quoted](not-a-link.md)` and [pkg.models.helper][].
"""


class Base[T](BaseModel):  # not [a link](x=1) after a name either: Thing[T](x)
    pass


def helper():
    """[Base][pkg.models.Base] and [outside][other_project.Thing]."""


class Model:
    pass
'''


def _record():  # type: ignore[no-untyped-def]
    return extract_source("pkg/models.py", LangId.PYTHON, SOURCE)


def test_code_that_looks_like_a_link_is_not_one() -> None:
    hrefs = [link.href for link in _record().links]
    assert hrefs == [
        "../docs/guide.md",
        "autoref:pkg.models.Model",
        "autoref:pkg.models.helper",
        "x=1",
        "autoref:pkg.models.Base",
        "autoref:other_project.Thing",
    ]


def test_autorefs_resolve_to_the_symbols_line() -> None:
    code = _record()
    page = extract_page(
        "docs/guide.md",
        b"# Guide\n\nUse [the model][pkg.models.Model], "
        b"[`pkg.Model`][] (re-exported), [pkg.nothing.X][] "
        b"and [str][builtins.str].\n",
    )
    index = SiteIndex(
        content="docs",
        pages={"docs/guide.md"},
        assets=set(),
        sources={"pkg/models.py"},
        dirs={"docs", "pkg"},
    )
    linked = link_all(index, [page], [code], {"pkg/models.py": SOURCE.count(b"\n")})
    model_line = SOURCE.split(b"\n").index(b"class Model:") + 1
    occurrences = [
        (e.dst, o.fragment) for e in linked.graph.edges_from("/guide.md") for o in e.occurrences
    ]
    # both forms, the re-exported name too, land on the class's line
    assert occurrences == [("/code/pkg/models.py", f"L{model_line}")] * 2
    from_code = {e.dst for e in linked.graph.edges_from("/code/pkg/models.py")}
    assert from_code == {"/guide.md", "/code/pkg/x=1"}  # its own symbols are not edges
    problems = sorted((d.path, d.code) for d in linked.diagnostics)
    assert ("docs/guide.md", "broken-autoref") in problems  # pkg.nothing.X: pkg is ours
    # another project's name (builtins.str) is no warning: its text, said once as an info line
    about_str = [(d.level, d.code) for d in linked.diagnostics if "builtins" in d.message]
    assert about_str == [(Level.INFO, "unresolved-autoref")]
    assert ("pkg/models.py", "broken-link") in problems  # x=1 in a comment, after a space
