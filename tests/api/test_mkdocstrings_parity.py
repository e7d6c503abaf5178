"""Where sitegen's API blocks differed from mkdocs + mkdocstrings-python on FastAPI's and
pydantic's reference pages (bench/README.md, "API pages vs mkdocstrings"), each rule on a small
package written here and read by the real loader: griffe's public rule for imported names,
bases written as dotted names, explicit member lists, classes bound by an import, parameters
described by ``deprecated("…")``, the first parameter of a merged ``__init__``, a class
docstring that documents ``__init__``'s parameters, and overloads."""

from __future__ import annotations

import re
from pathlib import Path

from sitegen.api.blocks import merged_options
from sitegen.api.cache import PackageEntry, read_cache, write_cache
from sitegen.api.render import render_block
from sitegen.records.api import ApiModel
from tests.api.test_render_options import PAGE, model_of


def rendered(model: ApiModel, target: str, **options: object) -> tuple[str, list[str]]:
    merged, problems = merged_options({}, options)
    assert problems == []
    return render_block(model, target, merged, PAGE)


def ids(model: ApiModel, target: str, **options: object) -> list[str]:
    return re.findall(r'\{id="([^"]+)"\}', rendered(model, target, **options)[0])


# --- 1. an imported name is public only when __all__ lists it ---------------------------------

IMPORTED = {
    "pkg/__init__.py": '"""A package."""\n',
    "pkg/errors.py": '''
        class Failure(Exception):
            """A failure."""
    ''',
    "pkg/plain.py": '''
        """No __all__: what it imports is not its API."""

        from pkg.errors import Failure


        def run() -> None:
            """Run."""
    ''',
    "pkg/listed.py": '''
        """An __all__ that names the import."""

        from pkg.errors import Failure

        __all__ = ["Failure", "run"]


        def run() -> None:
            """Run."""
    ''',
}


def test_an_imported_name_without_all_is_not_shown() -> None:
    model = model_of(IMPORTED)
    assert ids(model, "pkg.plain") == ["pkg.plain", "pkg.plain.run"]
    assert ids(model, "pkg.listed") == ["pkg.listed", "pkg.listed.Failure", "pkg.listed.run"]


# --- 2. a base written as a dotted name -----------------------------------------------------

DOTTED_BASE = {
    "net/__init__.py": '''
        class Client:
            """A client."""

            def get(self, url: str) -> None:
                """Get ``url``."""
    ''',
    "pkg/__init__.py": '''
        from typing import Generic, TypeVar

        import net

        T = TypeVar("T")


        class TestClient(net.Client, Generic[T]):
            """A client for tests."""
    ''',
}


def test_members_are_inherited_from_a_base_written_module_dot_class() -> None:
    model = model_of(DOTTED_BASE)
    found = model.get("pkg.TestClient")
    assert found is not None
    assert [base.canonical for base in model.bases_of(found)] == ["net.Client"]
    assert ids(model, "pkg.TestClient", inherited_members=True) == [
        "pkg.TestClient",
        "pkg.TestClient.get",
    ]


# --- 3. an explicit members list, or members: true ------------------------------------------

LISTED = {
    "pkg/__init__.py": '''
        """A package."""

        from typing import Literal

        __version__ = "1.0"

        ExtraValues = Literal["allow", "ignore"]


        def run() -> None:
            """Run."""


        def _hidden() -> None:
            pass


        class Tool:
            """A tool."""

            def use(self) -> None:
                """Use it."""

            def _inner(self) -> None:
                """Filtered below the root."""
    ''',
}


def test_a_members_list_keeps_what_it_names_without_filters_or_docstrings() -> None:
    model = model_of(LISTED)
    assert ids(model, "pkg", members=["run", "__version__", "ExtraValues", "_hidden"]) == [
        "pkg",
        "pkg.__version__",
        "pkg.ExtraValues",
        "pkg.run",
        "pkg._hidden",
    ]  # attributes, then functions, each in the list's order
    # the filters and the docstring test, without a list
    assert ids(model, "pkg") == ["pkg", "pkg.Tool", "pkg.Tool.use", "pkg.run"]


def test_members_true_keeps_every_member_of_the_root_only() -> None:
    model = model_of(LISTED)
    shown = ids(model, "pkg", members=True)
    assert shown == [
        "pkg",
        "pkg.ExtraValues",
        "pkg.__version__",
        "pkg.Tool",
        "pkg.Tool.use",
        "pkg._hidden",
        "pkg.run",
    ]


# --- 4. a class whose name an import binds too ----------------------------------------------

FALLBACK = {
    "pkg/__init__.py": '''
        """Models."""

        try:
            from email_validator import EmailStr
        except ImportError:

            class EmailStr(str):
                """Stands in for email_validator's."""


        class Contact:
            """A contact."""
    ''',
}


def test_a_fallback_class_under_except_importerror_is_imported_and_not_shown() -> None:
    model = model_of(FALLBACK)
    assert model.objects["pkg.EmailStr"].is_imported
    assert not model.objects["pkg.Contact"].is_imported
    assert ids(model, "pkg") == ["pkg", "pkg.Contact"]
    assert ids(model, "pkg", filters=[]) == ["pkg", "pkg.Contact"]


def test_is_imported_survives_the_cache(tmp_path: Path) -> None:
    entry = PackageEntry("key", {"pkg.EmailStr": model_of(FALLBACK).objects["pkg.EmailStr"]})
    write_cache(tmp_path / "api.json", "v", {"pkg": entry})
    cached, problems = read_cache(tmp_path / "api.json", "v")
    assert problems == [] and cached["pkg"].objects["pkg.EmailStr"].is_imported


# --- 5. a parameter described by deprecated("…") in Annotated ---------------------------------

DEPRECATED = {
    "pkg/__init__.py": '''
        from typing import Annotated, Any

        from annotated_doc import Doc
        from typing_extensions import deprecated


        def query(
            examples: Annotated[list[Any] | None, Doc("Example values.")] = None,
            example: Annotated[
                Any | None,
                deprecated(
                    "Deprecated in OpenAPI 3.1.0, "
                    "although still supported. Use examples instead."
                ),
            ] = None,
            old: Annotated[int, deprecated("Gone in 2.0."), Doc("A number.")] = 0,
            plain: Annotated[int, "not a description"] = 1,
        ) -> None:
            """Declare a query parameter."""
    ''',
}


def test_deprecated_in_annotated_describes_a_parameter_as_griffe_typingdoc_does() -> None:
    text, _ = rendered(model_of(DEPRECATED), "pkg.query")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert [row.split(" | ")[0] for row in rows] == ["| `examples`", "| `example`", "| `old`"]
    assert (
        "| Deprecated in OpenAPI 3.1.0, although still supported. Use examples instead. |"
        in (rows[1])
    )
    assert "| Gone in 2.0. A number. |" in rows[2]


# --- 6. the first parameter of a merged __init__ --------------------------------------------

INITS = {
    "pkg/__init__.py": '''
        class Settings:
            """Settings."""

            def __init__(__pydantic_self__, _case_sensitive: bool | None = None) -> None:
                """Make them."""


        class Plain:
            """Plain."""

            def __init__(self, size: int) -> None:
                """Make it."""


        class Bare(Exception):
            """No __init__ of its own, and its base is not loaded."""
    ''',
}
MERGED: dict[str, object] = {"merge_init_into_class": True, "show_root_heading": True}


def test_a_merged_init_loses_its_first_parameter_only_when_it_is_self_or_cls() -> None:
    model = model_of(INITS)
    signatures = {
        name: re.findall(rf"^`({name}\(.*\))`$", rendered(model, f"pkg.{name}", **MERGED)[0], re.M)
        for name in ("Settings", "Plain", "Bare")
    }
    assert signatures == {
        "Settings": ["Settings(__pydantic_self__, _case_sensitive=None)"],
        "Plain": ["Plain(size)"],
        "Bare": [],  # mkdocstrings shows a class's signature only from an __init__ it loaded
    }


# --- 7. a class docstring that documents __init__'s parameters ------------------------------

CLASS_ARGS = {
    "pkg/__init__.py": '''
        class Client:
            """A client.

            Args:
                base_url: Where requests go.
                timeout: Seconds to wait.
            """

            def __init__(self, base_url: str, timeout: float = 5.0) -> None:
                self.base_url = base_url


        class TestClient(Client):
            """A client for tests.

            Args:
                base_url: Where requests go.
            """
    ''',
}


def test_a_class_docstring_documents_its_init_parameters_without_warnings() -> None:
    model = model_of(CLASS_ARGS)
    for target in ("pkg.Client", "pkg.TestClient"):
        text, problems = rendered(model, target, members=False)
        assert problems == [], target
        assert "| `base_url` | `str` | Where requests go. | *required* |" in text
    text, _ = rendered(model, "pkg.Client", members=False)
    assert "| `timeout` | `float` | Seconds to wait. | `5.0` |" in text


# --- 8. @overload signatures ----------------------------------------------------------------

OVERLOADS = {
    "pkg/__init__.py": '''
        from typing import Any, overload


        @overload
        def field(default: int) -> int: ...
        @overload
        def field(*, factory: Any) -> Any: ...
        def field(default=None, *, factory=None):
            """A field."""


        class Adapter:
            """An adapter."""

            @overload
            def __init__(self, kind: type[int]) -> None: ...
            @overload
            def __init__(self, kind: Any, *, strict: bool) -> None: ...
            def __init__(self, kind, *, strict=False):
                """Adapt."""
    ''',
}


def signature_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)\n```", text, re.S)


def test_each_overload_is_shown_annotated_before_the_implementation() -> None:
    model = model_of(OVERLOADS)
    text, _ = rendered(model, "pkg.field", separate_signature=True)
    assert signature_blocks(text) == [
        "field(default: int) -> int",
        "field(*, factory: Any) -> Any",
        "field(default=None, *, factory=None)",
    ]
    text, _ = rendered(model, "pkg.field", separate_signature=True, overloads_only=True)
    assert signature_blocks(text) == ["field(default: int) -> int", "field(*, factory: Any) -> Any"]
    text, _ = rendered(model, "pkg.field", separate_signature=True, show_overloads=False)
    assert signature_blocks(text) == ["field(default=None, *, factory=None)"]
    text, _ = rendered(model, "pkg.Adapter", separate_signature=True, **MERGED)
    assert signature_blocks(text) == [
        "Adapter(kind: type[int])",
        "Adapter(kind: Any, *, strict: bool)",
        "Adapter(kind, *, strict=False)",
    ]


def test_overloads_survive_the_cache(tmp_path: Path) -> None:
    field = model_of(OVERLOADS).objects["pkg.field"]
    write_cache(tmp_path / "api.json", "v", {"pkg": PackageEntry("key", {"pkg.field": field})})
    cached, problems = read_cache(tmp_path / "api.json", "v")
    assert problems == [] and cached["pkg"].objects["pkg.field"] == field
    assert len(field.overloads) == 2


# --- an admonition section is an open <details>, as mkdocstrings writes it -------------------

ADMONITION = {
    "pkg/__init__.py": '''
        class Strict:
            """Validate strictly.

            Example:
                ```python
                Strict()
                ```
            """
    ''',
}


def test_an_admonition_section_is_an_open_foldable_callout() -> None:
    text, _ = rendered(model_of(ADMONITION), "pkg.Strict", show_root_heading=True)
    assert '???+ example "Example"\n\n    ```python\n    Strict()\n    ```' in text
