"""Issue 27, point 3: what the VitePress page tree does with the literals of a hostile
``config.ts`` (sitegen/site/vitepress.py): rewrites that cannot crash or backtrack, and a
bounded number of warnings, each with its place and a value cut short."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.base.diagnostics import Diagnostic
from sitegen.base.paths import NodeId
from sitegen.docs.markdown import extract_page
from sitegen.generators.vitepress import vitepress_generator
from sitegen.site.views import NavItem
from sitegen.site.vitepress import Routes, VitePressNav, vitepress_nav
from tests.safety.linear import grows_linearly

CONFIG = "docs/.vitepress/config.ts"
PAGES = {
    NodeId("/index.md"): extract_page("docs/index.md", b"# Home\n"),
    NodeId("/guide/intro.md"): extract_page("docs/guide/intro.md", b"# Intro\n"),
}


def _nav(text: str) -> tuple[object, list[Diagnostic]]:
    generator = vitepress_generator(CONFIG, "docs", "docs", ((CONFIG, text),))
    said: list[Diagnostic] = []
    return vitepress_nav(generator, "docs", PAGES, said), said


def test_rewrite_parameters_of_any_name_are_read() -> None:
    # ':1' and ':a/:a' made a bad regular expression group: an internal error.
    trees, said = _nav(
        "export default { rewrites: { 'guide/:1': 'g/:1', 'x/:a/:a': 'y' },\n"
        "  themeConfig: { sidebar: [{ text: 'Intro', link: '/g/intro' }] } }"
    )
    assert said == []
    assert trees is not None and trees.routes.route_of(NodeId("/guide/intro.md")) == "/g/intro"


def test_rewrites_that_would_backtrack_are_not_used_with_one_warning() -> None:
    trees, said = _nav(
        "export default {\n  rewrites: { 'y': ':a*:b*:c*x', ':p*/:q': 'z', 'guide/:n': ':n' },\n"
        "  themeConfig: { sidebar: [{ text: 'Intro', link: '/intro' }] } }"
    )
    assert trees is not None and trees.routes.rewrites == (("guide/:n", ":n"),)
    assert [(d.path, d.line, d.code) for d in said] == [(CONFIG, 2, "vitepress-nav")]
    assert "2 rewrites are not used, e.g. 'y'" in said[0].message


def test_entries_that_name_no_page_are_warned_twenty_times_then_summed_up() -> None:
    links = ", ".join(f"{{ text: 'x', link: '/nope{i}' }}" for i in range(500))
    long = "/" + "g" * 5_000
    _, said = _nav(
        f"export default {{ themeConfig: {{ sidebar: [{{ link: '{long}' }}, {links}] }} }}"
    )
    assert len(said) == 21
    assert all(len(d.message) < 300 for d in said) and "ggg…'" in said[0].message
    assert said[-1].message.startswith("481 more sidebar entries name no page")


def _brute_force(trees: tuple[tuple[str, tuple[NavItem, ...]], ...], route: str) -> object:
    """The rule as VitePress states it: of the prefixes that serve the route, the longest."""
    served = [
        (prefix, tree)
        for prefix, tree in trees
        if "/" + prefix.strip("/") in ("/", route)
        or route.startswith("/" + prefix.strip("/") + "/")
    ]
    return max(served, key=lambda p: len(p[0]))[1] if served else ()


@settings(deadline=None, max_examples=50)
@given(
    prefixes=st.lists(st.sampled_from(["/", "", "/a/", "/a", "a/b", "/a/b/", "/b//", "/ab/"])),
    path=st.sampled_from(["index.md", "a/index.md", "a/b.md", "a/b/c.md", "ab/x.md", "b/y.md"]),
)
def test_the_tree_of_a_page_is_the_longest_prefix_that_serves_it(
    prefixes: list[str], path: str
) -> None:
    trees = tuple((p, (NavItem(title=f"{i}", href=""),)) for i, p in enumerate(prefixes))
    nav = VitePressNav(trees, (), Routes("docs", "docs"))
    route = nav.routes.route_of(NodeId("/" + path))
    assert nav.nav_of(NodeId("/" + path)) == _brute_force(trees, route)


def test_pages_times_sidebars_takes_linear_time() -> None:
    # Each page tried every sidebar prefix: 1,000 pages and 16,000 sidebars took 4 s.
    def run(n: str) -> object:
        count = int(n)
        trees = tuple((f"/s{i}/", ()) for i in range(count))
        nav = VitePressNav(trees, (), Routes("docs", "docs"))
        return [nav.nav_of(NodeId(f"/p{i}/x.md")) for i in range(count)]

    ok, said = grows_linearly(run, str, size=100, max_size=20_000)
    assert ok, said
