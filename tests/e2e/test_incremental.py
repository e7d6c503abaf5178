"""Incremental builds (issue 5): unchanged work is skipped, and the result is byte-identical
to a clean build of the same input, over random sequences of edits."""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.build import BuildOptions, build
from sitegen.config import load_config
from sitegen.graph.store.json import ANCHORS_FILE
from tests.e2e.conftest import write_project

QUIET = BuildOptions(jobs=1, quiet=True)


def _site_bytes(root: Path) -> dict[str, bytes]:
    site = root / "site"
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


def _inode(path: Path) -> int:
    return path.stat().st_ino


def test_no_change_rebuild_does_nothing_and_rewrites_nothing(project: Path) -> None:
    first = build(load_config(project), QUIET)
    page = project / "site/guides/install.html"
    before = _inode(page)
    again = build(load_config(project), QUIET)
    assert again.unchanged and "(nothing changed)" in again.summary()
    assert again.pages == []  # nothing was parsed
    assert again.counts() == first.counts()
    assert [d.format() for d in again.diagnostics] == [d.format() for d in first.diagnostics]
    assert _inode(page) == before


def test_one_page_edit_rerenders_only_what_shows_it(project: Path) -> None:
    build(load_config(project), QUIET)
    unrelated = project / "site/adr/0001-old.html"
    edited = project / "site/adr/index.html"
    before_unrelated, before_edited = _inode(unrelated), _inode(edited)
    src = project / "content/adr/index.md"
    src.write_text(src.read_text() + "\nOne more sentence.\n")
    result = build(load_config(project), QUIET)
    assert not result.unchanged
    assert _inode(unrelated) == before_unrelated  # linked from the previous site
    assert _inode(edited) != before_edited
    assert "One more sentence." in edited.read_text()


def test_clean_ignores_the_cache(project: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    build(load_config(project), QUIET)
    before = _site_bytes(project)
    parsed: list[str] = []
    from sitegen.docs import pipeline

    real = pipeline.extract_page
    monkeypatch.setattr(
        pipeline,
        "extract_page",
        lambda p, d, *mode, **named: parsed.append(p) or real(p, d, *mode, **named),
    )
    build(load_config(project), QUIET)
    assert parsed == []  # everything came from the cache
    page = project / "site/guides/install.html"
    inode = _inode(page)
    result = build(load_config(project), BuildOptions(jobs=1, quiet=True, clean=True))
    assert not result.unchanged
    assert sorted(parsed) == sorted(p.path for p in result.pages)  # --clean parsed every page
    assert _inode(page) != inode  # and wrote every file anew, trusting nothing from before
    assert _site_bytes(project) == before


NAMES = ["a", "b", "c", "d"]
edit = st.one_of(
    st.tuples(
        st.just("write"),
        st.sampled_from(NAMES),
        st.lists(st.sampled_from(NAMES + ["zz"]), max_size=3),
        st.sampled_from(["", "Intro", "Other"]),
    ),
    st.tuples(st.just("delete"), st.sampled_from(NAMES)),
    st.tuples(st.just("rename"), st.sampled_from(NAMES), st.sampled_from(NAMES)),
)


def _apply(root: Path, op: tuple) -> None:  # type: ignore[type-arg]
    content = root / "content"
    if op[0] == "write":
        _, name, targets, heading = op
        links = " ".join(f"[to {t}]({t}.md#intro)" for t in targets)
        head = f"## {heading}\n\n" if heading else ""
        (content / f"{name}.md").write_text(f"# Page {name}\n\n{head}{links}\n")
    elif op[0] == "delete":
        (content / f"{op[1]}.md").unlink(missing_ok=True)
    elif (content / f"{op[1]}.md").exists() and op[1] != op[2]:
        (content / f"{op[1]}.md").rename(content / f"{op[2]}.md")


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(edit, min_size=1, max_size=5))
def test_incremental_equals_clean_over_random_edits(tmp_path_factory, ops) -> None:  # type: ignore[no-untyped-def]
    base = tmp_path_factory.mktemp("inc")
    files = {
        "sitegen.toml": 'title = "Inc"\n',
        "content/index.md": "# Home\n\n[a](a.md)\n",
        "content/a.md": "# Page a\n\n## Intro\n\n[b](b.md)\n",
        "content/b.md": "# Page b\n",
    }
    inc = write_project(base / "inc", files)
    build(load_config(inc), QUIET)
    for op in ops:
        _apply(inc, op)
        _assert_equals_clean(inc, base / "clean", op)


def _assert_equals_clean(inc: Path, clean: Path, op: object) -> None:
    """Build ``inc`` incrementally and a copy of its input from scratch: the same bytes.

    The copy gets the store's anchors as the incremental build left them (no page cache, no
    site): a page's old anchors come from the store, and a build with the store it made
    publishes the same aliases again (content/syntax/anchors.md#anchors-that-last)."""
    build(load_config(inc), QUIET)
    shutil.rmtree(clean, ignore_errors=True)
    clean.mkdir()
    shutil.copytree(inc / "content", clean / "content")
    shutil.copy(inc / "sitegen.toml", clean / "sitegen.toml")
    (clean / ".sitegen").mkdir()
    shutil.copy(inc / ".sitegen" / ANCHORS_FILE, clean / ".sitegen" / ANCHORS_FILE)
    build(load_config(clean), QUIET)
    assert _site_bytes(inc) == _site_bytes(clean), op


def test_a_page_that_becomes_unreadable_keeps_its_stored_links(tmp_path: Path) -> None:
    """content/reference/store.md: a source the crawl could not read (now binary) keeps its stored
    edges; one that is gone loses them."""
    root = write_project(
        tmp_path / "p",
        {
            "sitegen.toml": 'title = "E"\n',
            "content/a.md": "# A\n",
            "content/b.md": "# B\n\n[to a](a.md)\n",
            "content/c.md": "# C\n\n[also a](a.md)\n",
        },
    )
    build(load_config(root), QUIET)
    (root / "content/b.md").write_bytes(b"# B\x00\x01 binary now")
    (root / "content/c.md").unlink()
    result = build(load_config(root), QUIET)
    assert any(d.path == "content/b.md" and d.code == "binary" for d in result.diagnostics)
    assert [e.src for e in result.graph.backlinks_of("/a.md")] == ["/b.md"]
    assert "to a" in (root / "site/a.html").read_text()


# A tree large enough to be pruned (the limits made small): a page's key holds the tree as
# that page shows it, so a title change re-renders only the pages that show the title.
TREE_NAMES = ["f1/a", "f1/b", "f1/c", "f2/d", "f2/e", "g"]
tree_edit = st.one_of(
    st.tuples(
        st.just("write"),
        st.sampled_from(TREE_NAMES),
        st.lists(st.sampled_from(TREE_NAMES), max_size=2),
        st.sampled_from(["T1", "T2", "T3"]),
    ),
    st.tuples(st.just("delete"), st.sampled_from(TREE_NAMES)),
)


def _apply_tree(root: Path, op: tuple) -> None:  # type: ignore[type-arg]
    path = root / "content" / f"{op[1]}.md"
    if op[0] == "delete":
        path.unlink(missing_ok=True)
        return
    _, name, targets, title = op
    depth = name.count("/")
    links = " ".join(f"[to {t}]({'../' * depth}{t}.md)" for t in targets)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# {title} {name}\n\n{links}\n")


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(tree_edit, min_size=1, max_size=4))
def test_incremental_equals_clean_with_a_pruned_tree(tmp_path_factory, ops) -> None:  # type: ignore[no-untyped-def]
    from sitegen.site import render

    old = render.NAV_FULL_LIMIT, render.NAV_CHUNK
    render.NAV_FULL_LIMIT, render.NAV_CHUNK = 3, 2
    try:
        base = tmp_path_factory.mktemp("tree")
        files = {"sitegen.toml": 'title = "Tree"\n', "content/index.md": "# Home\n"}
        files |= {f"content/{n}.md": f"# T0 {n}\n" for n in TREE_NAMES}
        inc = write_project(base / "inc", files)
        build(load_config(inc), QUIET)
        for op in ops:
            _apply_tree(inc, op)
            _assert_equals_clean(inc, base / "clean", op)
    finally:
        render.NAV_FULL_LIMIT, render.NAV_CHUNK = old


def test_a_new_title_rerenders_only_the_pages_that_show_it(tmp_path: Path) -> None:
    """In a pruned tree, the pages of another folder show the renamed page's folder as one
    link: their HTML is linked from the previous site, not rendered again."""
    from sitegen.site import render

    old = render.NAV_FULL_LIMIT, render.NAV_CHUNK
    render.NAV_FULL_LIMIT, render.NAV_CHUNK = 3, 50
    try:
        files = {"sitegen.toml": 'title = "Tree"\n', "content/index.md": "# Home\n"}
        files |= {f"content/{n}.md": f"# T0 {n}\n" for n in TREE_NAMES}
        project = write_project(tmp_path / "proj", files)
        build(load_config(project), QUIET)
        site = project / "site"
        inodes = {p: _inode(site / f"{p}.html") for p in TREE_NAMES}
        (project / "content" / "f1" / "b.md").write_text("# Renamed b\n")
        build(load_config(project), QUIET)
        again = {p for p in TREE_NAMES if _inode(site / f"{p}.html") != inodes[p]}
        # f1's pages show the new title in their tree; f2's and g show f1 as one link
        assert again == {"f1/a", "f1/b", "f1/c"}
        assert "Renamed b" in (site / "f1" / "a.html").read_text()
    finally:
        render.NAV_FULL_LIMIT, render.NAV_CHUNK = old
