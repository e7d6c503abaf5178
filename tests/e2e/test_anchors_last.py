"""Anchors that last, built end to end (issue 20, point 5): after headings are renamed or
removed between builds, every fragment the site ever published lands on an element; aliases
are the same bytes in a clean build with the same store, and a build without a store makes none."""

from __future__ import annotations

import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.build import BuildOptions, build
from sitegen.config import load_config
from sitegen.graph.store.json import ANCHORS_FILE
from tests.e2e.conftest import write_project

QUIET = BuildOptions(jobs=1, quiet=True)
CLEAN = BuildOptions(jobs=1, quiet=True, clean=True)

GUIDE_V1 = "# Guide\n\n## Install it\n\ntext\n\n## Usage\n\nmore\n\n## Old stuff\n\nx\n\n## FAQ\n"
B_PAGE = "# B\n\n[install](index.md#install-it) and [old](index.md#old-stuff)\n"
GUIDE_V2 = "# Guide\n\n## Installing\n\ntext\n\n## Usage\n\nmore\n\n## FAQ\n"


_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_VOID = {"br", "img", "meta", "link", "input", "hr", "source", "wbr", "area", "base", "col"}


class _Ids(HTMLParser):
    """Every element id of a page, with the ids of the headings it lies in and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: dict[str, tuple[str, ...]] = {}
        self.text: dict[str, str] = {}
        self._open: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        ident = dict(attrs).get("id") or ""
        if ident:
            self.ids[ident] = tuple(i for t, i in self._open if t in _HEADINGS and i)
            self.text[ident] = ""
        if tag not in _VOID:
            self._open.append((tag, ident))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        for _, ident in self._open:
            if ident in self.text:
                self.text[ident] += data


def page_ids(path: Path) -> _Ids:
    parser = _Ids()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def site_bytes(root: Path) -> dict[str, bytes]:
    site = root / "site"
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


def two_builds(tmp_path: Path) -> Path:
    root = write_project(
        tmp_path / "proj",
        {
            "sitegen.toml": 'title = "Anchors"\n',
            "content/index.md": GUIDE_V1,
            "content/b.md": B_PAGE,
        },
    )
    build(load_config(root), QUIET)
    (root / "content/index.md").write_text(GUIDE_V2, encoding="utf-8")
    return root


def test_a_renamed_heading_holds_its_old_id_and_a_removed_one_leaves_a_notice(
    tmp_path: Path,
) -> None:
    root = two_builds(tmp_path)
    result = build(load_config(root), QUIET)
    ids = page_ids(root / "site/index.html")
    assert ids.ids["install-it"] == ("installing",)  # inside the heading that replaced it
    assert ids.text["old-stuff"] == "The section “Old stuff” was removed from this page."
    moved = [
        d.format() for d in result.diagnostics if d.code == "anchor-moved" and "index" in d.path
    ]
    assert moved == [
        "content/index.md:1:1: info: the section '#old-stuff' (\"Old stuff\") was removed; a "
        "notice on the page keeps its anchor, so old links land there",
        "content/index.md:3:1: info: anchor '#install-it' (\"Install it\") is now "
        "'#installing'; an alias on the heading keeps old links working",
    ]


def test_links_to_an_old_anchor_land_on_it_with_an_info_line_not_a_warning(
    tmp_path: Path,
) -> None:
    root = two_builds(tmp_path)
    result = build(load_config(root), QUIET)
    assert not result.linked.broken and result.warnings == 0
    lines = [d.format() for d in result.diagnostics if d.path == "content/b.md"]
    assert lines == [
        "content/b.md:3:1: info: link 'index.md#install-it' names '#install-it', the old anchor "
        "of '#installing' (\"Install it\"); it lands there through an alias; write '#installing'",
        "content/b.md:3:36: info: link 'index.md#old-stuff' names '#old-stuff', the section "
        '"Old stuff" that was removed from its page; it lands on the notice that says so',
    ]
    b = (root / "site/b.html").read_text(encoding="utf-8")
    assert 'href="index.html#install-it"' in b and 'href="index.html#old-stuff"' in b


def test_check_gates_on_anchor_moved_when_asked(tmp_path: Path) -> None:
    root = two_builds(tmp_path)

    def check(extra: str) -> subprocess.CompletedProcess[str]:
        (root / "sitegen.toml").write_text(f'title = "Anchors"\n{extra}', encoding="utf-8")
        command = [sys.executable, "-m", "sitegen.commands.cli", "check", "--root", str(root)]
        return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)

    default = check("")
    assert default.returncode == 0
    moved = [line for line in default.stdout.splitlines() if line.endswith("[anchor-moved]")]
    assert len(moved) == 4 and all(": info: " in line for line in moved)
    gated = check('[checks]\nanchor-moved = "error"\n')
    assert gated.returncode == 1
    assert "content/index.md:3:1: error: anchor '#install-it'" in gated.stdout
    quiet = check('[checks]\nanchor-moved = "ignore"\n')
    assert quiet.returncode == 0 and "[anchor-moved]" not in quiet.stdout


def test_aliases_last_over_rebuilds_and_are_the_same_bytes_in_a_clean_build(
    tmp_path: Path,
) -> None:
    root = two_builds(tmp_path)
    before = tmp_path / "store-before"
    shutil.copytree(root / ".sitegen", before)
    build(load_config(root), QUIET)
    first = site_bytes(root)
    # a third build of the same pages, then one with --clean: nothing changes
    (root / "content/b.md").write_text("# B\n\nEdited.\n", encoding="utf-8")
    build(load_config(root), QUIET)
    (root / "content/b.md").write_text(B_PAGE, encoding="utf-8")
    build(load_config(root), CLEAN)
    assert site_bytes(root) == first
    # another folder, the same pages and the store as the second build found it: same bytes
    other = tmp_path / "other"
    shutil.copytree(root / "content", other / "content")
    shutil.copy(root / "sitegen.toml", other / "sitegen.toml")
    (other / ".sitegen").mkdir()
    shutil.copy(before / ANCHORS_FILE, other / ".sitegen" / ANCHORS_FILE)
    build(load_config(other), CLEAN)
    assert site_bytes(other) == first


def test_a_clean_build_without_a_store_makes_no_alias(tmp_path: Path) -> None:
    root = two_builds(tmp_path)
    shutil.rmtree(root / ".sitegen")
    result = build(load_config(root), CLEAN)
    html = (root / "site/index.html").read_text(encoding="utf-8")
    assert "anchor-alias" not in html and "anchor-removed" not in html
    assert not [d for d in result.diagnostics if d.code == "anchor-moved"]


# --- property: random renames and removals over several builds ----------------------------

TEXTS = ["Intro", "Install", "Install it", "Usage", "Setup", "FAQ", "API", "Notes", "Usage"]


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.lists(st.sampled_from(TEXTS), max_size=6), min_size=2, max_size=4))
def test_every_fragment_ever_published_lands_on_an_element(tmp_path_factory, versions) -> None:  # type: ignore[no-untyped-def]
    root = write_project(tmp_path_factory.mktemp("anchors"), {"sitegen.toml": 'title = "A"\n'})
    published: set[str] = set()
    for texts in versions:
        body = "# Page\n\n" + "".join(f"## {t}\n\nText.\n\n" for t in texts)
        write_project(root, {"content/index.md": body})
        build(load_config(root), QUIET)
        ids = page_ids(root / "site/index.html")
        headings = _heading_ids(body)
        for fragment in sorted(published):
            assert fragment in ids.ids, (fragment, versions)
            # a heading of the page, an alias inside the heading that replaced it, or a notice
            assert (
                fragment in headings
                or set(ids.ids[fragment]) & headings
                or ids.text[fragment].endswith("was removed from this page.")
            ), (fragment, versions)
        published |= headings


def _heading_ids(body: str) -> set[str]:
    from sitegen.docs.markdown import extract_page

    return {h.id for h in extract_page("content/index.md", body.encode()).headings}
