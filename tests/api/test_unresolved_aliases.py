"""An alias whose target is not loaded (issue 28: "where the package is not installed, the
entry shows the alias with a link to an inventory when one names it"): an entry of its own,
at the block's root and as a module's member, whose target is an autoref; the warning of a
block under such an alias says so and never suggests the name itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.api.blocks import expansions
from sitegen.api.load import load_api
from sitegen.api.render import RenderOptions, render_block
from sitegen.config import Config
from sitegen.crawl import crawl
from sitegen.records.api import ApiModel
from tests.cli.conftest import sitegen, write
from tests.link.test_inventories import inventory

PAGE = "docs/index.md"
#: ``notinstalled`` is installed nowhere; ``pkg.core`` is loaded and lacks ``Ghost``.
SOURCES = {
    "src/pkg/__init__.py": '''"""A package re-exporting classes of a package that is not installed."""

from notinstalled.web import Hidden
from notinstalled.web import Request
from notinstalled.web import Response as Response

from pkg.core import Ghost

__all__ = ["Response", "Request", "Ghost", "local"]


def local() -> None:
    """A local function."""
''',
    "src/pkg/core.py": '"""The core."""\n\nVALUE = 1\n"""A value."""\n',
}
ENTRY = "Imported from [`notinstalled.web.Response`][notinstalled.web.Response]"


@pytest.fixture
def model(tmp_path: Path) -> ApiModel:
    write(tmp_path, {**SOURCES, PAGE: "# Home\n"})
    config = Config(root=tmp_path, source=("src",), content="docs")
    found, problems = load_api(config, crawl(config), {"pkg": (PAGE, 3)}, None, dependency_paths=[])
    assert problems == [], problems
    return found


def test_an_alias_into_a_package_not_installed_is_an_entry_of_its_own(model: ApiModel) -> None:
    text, problems = render_block(
        model, "pkg.Response", RenderOptions(show_root_heading=True), PAGE
    )
    assert problems == []
    assert text == (
        f'{{id="pkg.Response"}}\n## `pkg.Response`\n\n{ENTRY}, which is not installed here.\n'
    )
    assert model.unloaded("pkg.Response") == "notinstalled.web.Response"
    assert model.unloaded("pkg.local") is None  # loaded: an object, no alias


def test_a_modules_unloaded_aliases_are_members_filtered_as_imported_names(
    model: ApiModel,
) -> None:
    text, problems = render_block(model, "pkg", RenderOptions(), PAGE)
    assert problems == []
    ids = [line for line in text.splitlines() if line.startswith('{id="')]
    # Hidden is imported and not in __all__: left out, as any imported name is
    assert ids == [
        '{id="pkg"}',
        '{id="pkg.local"}',
        '{id="pkg.Ghost"}',
        '{id="pkg.Request"}',
        '{id="pkg.Response"}',
    ]
    assert f'{{id="pkg.Response"}}\n## `Response`\n\n{ENTRY}, which is not installed here.' in text
    assert (
        "Imported from [`pkg.core.Ghost`][pkg.core.Ghost], which was not found in the loaded code."
        in text
    )
    # an unloaded name the module does not export is no member, even with members: true
    every, _ = render_block(model, "pkg", RenderOptions(members=True), PAGE)
    assert '{id="pkg.Response"}' in every and "pkg.Hidden" not in every
    filtered, _ = render_block(model, "pkg", RenderOptions(filters=["!^Resp"]), PAGE)
    assert '{id="pkg.Request"}' in filtered and "pkg.Response" not in filtered


def test_a_block_under_an_unloaded_alias_says_so_and_never_suggests_itself(
    model: ApiModel,
) -> None:
    (rendered,) = expansions(PAGE, b"::: pkg.Response\n", model)
    assert rendered.problem is None and ENTRY.encode() in rendered.text
    (found,) = expansions(PAGE, b"::: pkg.Response.json\n", model)
    assert found.text == b""
    assert found.problem == (
        "::: pkg.Response.json: no such object was found in the loaded code: pkg.Response is "
        "imported from notinstalled.web.Response, which is not installed in this environment; "
        "it is shown as a link"
    )
    (missing,) = expansions(PAGE, b"::: pkg.Responses\n", model)
    assert missing.problem is not None and "did you mean pkg.Response?" in missing.problem
    (itself,) = expansions(PAGE, b"::: pkg.core.Missing\n", model)
    assert itself.problem is not None and "pkg.core.Missing?" not in itself.problem


def _project(tmp_path: Path, with_inventory: bool) -> Path:
    config = 'content = "docs"\nsource = ["src"]\n'
    if with_inventory:
        config += '[inventories]\n"https://notinstalled.example/" = "inv/web.inv"\n'
    root = write(tmp_path / "p", {**SOURCES, "sitegen.toml": config, PAGE: "# Home\n\n::: pkg\n"})
    if with_inventory:
        (root / "inv").mkdir()
        lines = ["notinstalled.web.Response py:class 1 api/web.html#$ -"]
        (root / "inv" / "web.inv").write_bytes(inventory(lines))
    return root


def test_the_entry_links_to_the_inventory_that_names_its_target(tmp_path: Path) -> None:
    root = _project(tmp_path, with_inventory=True)
    run = sitegen("build", "-q", root=root)
    assert run.code == 0, run.err
    html = (root / "site/index.html").read_text()
    entry = html.split('id="pkg.Response"', 1)[1].split("</p>", 1)[0]
    assert (
        '<a href="https://notinstalled.example/api/web.html#notinstalled.web.Response" '
        'class="autoref"><code>notinstalled.web.Response</code></a>'
    ) in entry
    assert [line for line in run.err_lines if "notinstalled.web.Response" in line] == []


def test_without_an_inventory_the_target_is_text_with_one_info_line(tmp_path: Path) -> None:
    root = _project(tmp_path, with_inventory=False)
    run = sitegen("build", "--strict", root=root)
    assert run.code == 0, run.err
    said = [line for line in run.err_lines if "notinstalled" in line or "warning:" in line]
    assert said == [
        f"{PAGE}:3:1: info: cross-reference '{name}' names nothing of the code graph or an "
        f"inventory; it is shown as its text, '{name}'"
        for name in ("notinstalled.web.Request", "notinstalled.web.Response")
    ]
    html = (root / "site/index.html").read_text()
    entry = html.split('id="pkg.Response"', 1)[1].split("</p>", 1)[0]
    assert '<a class="autoref"><code>notinstalled.web.Response</code></a>' in entry
    assert "href" not in entry.split("</h2>", 1)[1] and "[" not in entry
    assert "0 broken links, 0 warnings" in run.err
