"""Point 2 of issue 28: ``api = ["shop"]`` generates one page per public module of the package
(content/guides/configuration.md#api): where the pages go, what each holds, the index and the
page tree in module order, a block or a page written by hand winning, a bad option value, and
the same bytes twice. A small package of our own, written for these tests."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from sitegen.api.load import load_api
from sitegen.api.pages import api_pages, named_packages, written_blocks
from sitegen.base.paths import NodeId, page_node_of
from sitegen.config import Config, ConfigError, load_config
from sitegen.crawl import crawl
from sitegen.docs.markdown import extract_page
from sitegen.records.crawl import Crawl
from sitegen.records.pages import PageRecord
from sitegen.site.navigation import api_section, build_nav, with_section
from sitegen.site.views import NavItem

SHOP = {
    "src/shop/__init__.py": '''"""The shop."""

from shop.cart import Cart
from shop._util import secret

__all__ = ["Cart", "VERSION"]

VERSION: str = "1.0"
"""The version."""
''',
    "src/shop/cart.py": '''"""Carts."""


class Cart:
    """A cart."""

    def add(self, item: str) -> None:
        """Add an item."""


def total(cart: Cart) -> int:
    """The total."""
    return 0


def _private() -> None:
    """Not shown."""
''',
    "src/shop/index.py": '"""A module named index."""\n\n\ndef find() -> None:\n    """Find."""\n',
    "src/shop/payments/__init__.py": '"""Payments."""\n',
    "src/shop/payments/card.py": '"""Cards."""\n\n\ndef charge() -> None:\n    """Charge."""\n',
    "src/shop/payments/cash.py": '"""Cash."""\n\n\ndef pay() -> None:\n    """Pay."""\n',
    "src/shop/_util.py": '"""Private."""\n\n\ndef secret() -> None:\n    """Secret."""\n',
    "src/shop/_internal/__init__.py": '"""Private package."""\n',
    "src/shop/_internal/deep.py": '"""Inside a private package."""\n',
    "docs/index.md": "# Home\n",
}
FOLDER = "docs/reference/api"
MODULE_PAGES = {
    f"{FOLDER}/index.md": "",
    f"{FOLDER}/shop/index.md": "shop",
    f"{FOLDER}/shop/cart.md": "shop.cart",
    f"{FOLDER}/shop/index-module.md": "shop.index",
    f"{FOLDER}/shop/payments/index.md": "shop.payments",
    f"{FOLDER}/shop/payments/card.md": "shop.payments.card",
    f"{FOLDER}/shop/payments/cash.md": "shop.payments.cash",
}


def _project(tmp_path: Path, more: dict[str, str] | None = None) -> Config:
    for rel, text in {**SHOP, **(more or {})}.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return Config(root=tmp_path, source=("src",), content="docs", api=("shop",))


def _generate(
    config: Config, found: Crawl | None = None
) -> tuple[dict[str, str], dict[str, str], list[str]]:
    """The generated pages' text and module by path, and what was said, as the build makes
    them: the blocks' targets and the option's names loaded, then the pages."""
    found = found or crawl(config)
    written = written_blocks(found.pages)
    model, _ = load_api(config, found, {**named_packages(config), **written}, None)
    made, said = api_pages(config, model, found.pages, written, {})
    texts = {page.path: page.data.decode() for page, _ in made}
    modules = {page.path: module for page, module in made}
    return texts, modules, [f"{d.path}: {d.level.value}: {d.message}" for d in said]


# ---------------------------------------------------------------------------- the pages


def test_every_public_module_gets_a_page_in_a_folder_mirroring_the_package(
    tmp_path: Path,
) -> None:
    _, modules, said = _generate(_project(tmp_path))
    assert modules == MODULE_PAGES
    assert said == []


def test_private_modules_and_what_is_inside_them_get_no_page(tmp_path: Path) -> None:
    texts, _, _ = _generate(_project(tmp_path))
    assert not [path for path in texts if "_util" in path or "_internal" in path]
    assert "shop._util" not in texts[f"{FOLDER}/index.md"]


def test_a_module_page_is_its_block_with_the_module_heading_as_title(tmp_path: Path) -> None:
    texts, _, _ = _generate(_project(tmp_path))
    assert texts[f"{FOLDER}/shop/payments/card.md"] == (
        "::: shop.payments.card\n"
        "    options:\n"
        "      show_root_heading: true\n"
        "      show_root_full_path: true\n"
        "      heading_level: 1\n"
    )


def test_the_index_lists_every_module_in_module_order(tmp_path: Path) -> None:
    texts, _, _ = _generate(_project(tmp_path))
    index = texts[f"{FOLDER}/index.md"]
    assert index.startswith("# API reference\n")
    # a package, then its subpackages, then its modules, each by name; nested by depth
    assert re.findall(r"^( *)- \[`([\w.]+)`\]\(([^)]+)\)$", index, re.MULTILINE) == [
        ("", "shop", "shop/index.md"),
        ("    ", "shop.payments", "shop/payments/index.md"),
        ("        ", "shop.payments.card", "shop/payments/card.md"),
        ("        ", "shop.payments.cash", "shop/payments/cash.md"),
        ("    ", "shop.cart", "shop/cart.md"),
        ("    ", "shop.index", "shop/index-module.md"),
    ]


def test_the_folder_is_an_option(tmp_path: Path) -> None:
    config = dataclasses.replace(_project(tmp_path), api_folder="api")
    _, modules, _ = _generate(config)
    assert sorted(modules) == sorted(p.replace(FOLDER, "docs/api") for p in MODULE_PAGES)


def test_the_same_input_gives_the_same_bytes(tmp_path: Path) -> None:
    config = _project(tmp_path, {"docs/guide.md": "# Guide\n\n::: shop.cart.Cart\n"})
    first = _generate(config)
    second = _generate(config)
    assert first == second
    found = crawl(config)
    found.pages.reverse()  # whatever order the pages come in
    assert _generate(config, found)[0] == first[0]


# ---------------------------------------------------------------------------- by hand


def test_an_object_a_page_shows_by_hand_is_linked_not_shown_again(tmp_path: Path) -> None:
    config = _project(tmp_path, {"docs/guides/carts.md": "# Carts\n\n::: shop.cart.Cart\n"})
    texts, _, _ = _generate(config)
    cart = texts[f"{FOLDER}/shop/cart.md"]
    block, _, tail = cart.partition("\n## Documented on other pages\n")
    assert "      members:\n        - total\n" in block and "Cart" not in block
    assert tail == "\n- `Cart`: documented in [Carts](../../../guides/carts.md#shop.cart.Cart)\n"
    # the package re-exports it (``__all__``): the same object, linked there too
    package = texts[f"{FOLDER}/shop/index.md"]
    assert "        - VERSION\n" in package and "        - Cart\n" not in package
    assert "- `Cart`: documented in [Carts](../../../guides/carts.md#shop.cart.Cart)\n" in package


def test_a_block_naming_the_object_through_a_reexport_wins_too(tmp_path: Path) -> None:
    config = _project(tmp_path, {"docs/cart.md": "---\ntitle: The cart\n---\n\n::: shop.Cart\n"})
    texts, _, _ = _generate(config)
    assert "documented in [The cart](../../../cart.md#shop.Cart)" in texts[f"{FOLDER}/shop/cart.md"]


def test_a_module_shown_by_hand_is_only_a_link_to_it(tmp_path: Path) -> None:
    config = _project(tmp_path, {"docs/pay.md": "# Paying\n\n::: shop.payments.cash\n"})
    texts, _, _ = _generate(config)
    assert texts[f"{FOLDER}/shop/payments/cash.md"] == (
        "# shop.payments.cash\n\nDocumented in [Paying](../../../../pay.md#shop.payments.cash).\n"
    )


def test_a_page_written_at_a_generated_path_wins_with_an_info_line(tmp_path: Path) -> None:
    written = f"{FOLDER}/shop/payments/card.md"
    config = _project(tmp_path, {written: "# Cards, by hand\n"})
    _, modules, said = _generate(config)
    assert written not in modules and len(modules) == len(MODULE_PAGES) - 1
    assert said == [
        f"{written}: info: a page written here wins over the API page of "
        "shop.payments.card, which is not generated"
    ]
    found = crawl(config)
    model, _ = load_api(config, found, named_packages(config), None)
    made, _ = api_pages(config, model, found.pages, {}, {})
    found.add_generated(made)
    assert [f.data for f in found.pages if f.path == written] == [b"# Cards, by hand\n"]
    assert written not in found.generated and f"{FOLDER}/shop/cart.md" in found.generated
    assert [f.path for f in found.pages] == sorted(f.path for f in found.pages)


@pytest.mark.parametrize(
    "name,message",
    [
        ("shop.nothing", "api: no module shop.nothing in the package's code"),
        ("shop.cart.Cart", "api: shop.cart.Cart is a class, not a module or package"),
    ],
)
def test_a_name_that_is_no_module_of_the_project_is_a_warning(
    tmp_path: Path, name: str, message: str
) -> None:
    config = dataclasses.replace(_project(tmp_path), api=(name,), set_by={"api": "sitegen.toml"})
    texts, _, said = _generate(config)
    assert texts == {} and said == [f"sitegen.toml: warning: {message}"]


# ---------------------------------------------------------------------------- the tree


def _records(texts: dict[str, str], content: str = "docs") -> dict[NodeId, PageRecord]:
    return {
        page_node_of(content, path): extract_page(path, text.encode())
        for path, text in sorted(texts.items())
    }


def _titles(items: tuple[NavItem, ...]) -> list[object]:
    return [(i.title, _titles(i.children)) if i.is_folder else i.title for i in items]


def test_the_page_tree_shows_the_section_in_module_order(tmp_path: Path) -> None:
    texts, _, _ = _generate(_project(tmp_path))
    # a module page's title is its heading, which the block makes: stand it in here
    for path, module in MODULE_PAGES.items():
        if module:
            texts[path] = f"# {module}\n"
    section = api_section(_project(tmp_path), _records({**texts, "docs/index.md": "# Home\n"}))
    assert section is not None and section.href == "reference/api/index.html"
    assert _titles((section,)) == [
        (
            "API reference",
            [
                (
                    "shop",
                    [
                        ("shop.payments", ["shop.payments.card", "shop.payments.cash"]),
                        "shop.cart",
                        "shop.index",
                    ],
                )
            ],
        )
    ]
    tree, _ = build_nav(_records(texts))  # the folders' tree holds the same section
    assert _titles(tree)[0] == ("Reference", _titles((section,)))


def test_a_tree_the_project_writes_gets_the_section_at_its_end_once() -> None:
    section = NavItem("API reference", "reference/api/index.html", is_folder=True)
    nav = (NavItem("Home", "index.html"),)
    assert with_section(nav, section) == (*nav, section)
    placed = (*nav, NavItem("Reference", children=(NavItem("API", section.href),), is_folder=True))
    assert with_section(placed, section) == placed
    assert with_section((), section) == ()
    assert with_section(nav, None) == nav


# ---------------------------------------------------------------------------- the option


@pytest.mark.parametrize(
    "text,message",
    [
        ("api = 3\n", "option 'api' must be a list of Python package names"),
        ('api = ["my-shop"]\n', "option 'api': 'my-shop' is not a Python package name"),
        ('api = ["shop."]\n', "option 'api': 'shop.' is not a Python package name"),
        ('api_folder = "../out"\n', "option 'api_folder' must be a folder inside the content"),
        ('api_folder = "/abs"\n', "option 'api_folder' must be a folder inside the content"),
        ('api_folder = ".hidden"\n', "option 'api_folder' must be a folder inside the content"),
        ('api_folder = "."\n', "option 'api_folder' must be a folder inside the content"),
    ],
)
def test_a_bad_value_is_one_sentence(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "sitegen.toml").write_text(text)
    with pytest.raises(ConfigError, match=re.escape(message)) as caught:
        load_config(tmp_path)
    assert "\n" not in str(caught.value)


def test_the_option_reads_a_name_or_a_list_each_once(tmp_path: Path) -> None:
    (tmp_path / "sitegen.toml").write_text('api = ["shop", "b.c", "shop"]\napi_folder = "api/"\n')
    config = load_config(tmp_path)
    assert config.api == ("shop", "b.c") and config.api_folder == "api"
    (tmp_path / "sitegen.toml").write_text('api = "shop"\n')
    assert load_config(tmp_path).api == ("shop",)
    assert load_config(tmp_path).api_folder == "reference/api"


def test_without_the_option_nothing_is_generated(tmp_path: Path) -> None:
    config = dataclasses.replace(_project(tmp_path), api=())
    found = crawl(config)
    model, _ = load_api(config, found, ["shop"], None)
    assert api_pages(config, model, found.pages, {}, {}) == ([], [])
    assert found.generated == {}


# ---------------------------------------------------------------------------- a whole build


@pytest.mark.slow
def test_a_build_publishes_the_pages_in_an_mkdocs_nav_with_the_hand_written_entry_linked(
    tmp_path: Path,
) -> None:
    from sitegen.build import BuildOptions, build

    _project(tmp_path, {"docs/guides/carts.md": "# Carts\n\n::: shop.cart.Cart\n"})
    (tmp_path / "sitegen.toml").write_text(
        'source = ["src"]\ncontent = "docs"\napi = ["shop"]\n'
        'repo_url = "https://github.com/example/shop"\n'
    )
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: Shop\nuse_directory_urls: false\nnav:\n  - Home: index.md\n"
        "  - Carts: guides/carts.md\n"
    )
    result = build(load_config(tmp_path), BuildOptions(jobs=1, quiet=True))
    assert [d for d in result.diagnostics if d.level.value in ("warning", "error")] == []
    assert not result.linked.broken
    site = tmp_path / "site"
    cart = (site / "reference/api/shop/cart.html").read_text()
    # the module's heading is the title, its members the sections; Cart is linked, not shown
    assert '<h1 id="shop.cart">' in cart and 'id="shop.cart.total"' in cart
    assert 'id="shop.cart.Cart"' not in cart
    assert 'href="../../../guides/carts.html#shop.cart.Cart"' in cart
    assert "Edit this page" not in cart  # no file holds it
    assert "Edit this page" in (site / "guides/carts.html").read_text()
    # the mkdocs.yml nav lists its pages, then the section, in module order
    home = (site / "index.html").read_text()
    hrefs = re.findall(r'href="(reference/api/[^"]+)"', home)
    assert list(dict.fromkeys(hrefs)) == [
        "reference/api/index.html",
        "reference/api/shop/index.html",
        "reference/api/shop/payments/index.html",
        "reference/api/shop/payments/card.html",
        "reference/api/shop/payments/cash.html",
        "reference/api/shop/cart.html",
        "reference/api/shop/index-module.html",
    ]
    assert home.index("guides/carts.html") < home.index("reference/api/index.html")
    # a generated page follows the code by itself: never a stale or impacted page
    assert result.stale is not None and result.stale.documented.get("docs/guides/carts.md")
    assert not set(result.stale.documented) & set(result.crawl.generated)
