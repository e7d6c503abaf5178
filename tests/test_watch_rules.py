"""Issue 18, rows 3 and 5, in process: `sitegen serve` rebuilds only on a change of what a
build reads (``sitegen.crawl.build_reads``, checked against what ``crawl`` reads), tells the
open pages to reload only when the site changed, and refuses a bad query parameter of its
own endpoints. The served loop itself is tests/e2e/test_serve_watch.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sitegen.config import load_config
from sitegen.crawl import Reads, build_reads, crawl, snippet_candidates
from sitegen.docs.includes import include_names
from sitegen.serve.http import BadRequest, query_fields, since_generation
from sitegen.serve.reload import BuildStatus
from sitegen.serve.schedule import Builder, included_names, site_signature
from sitegen.serve.watch import config_files

FILES: dict[str, str] = {
    "sitegen.toml": (
        'title = "T"\nsource = ["pkg"]\ntheme_dir = "theme"\nexclude = ["content/drafts/*"]\n'
    ),
    "pyproject.toml": '[project]\nname = "t"\n',
    ".gitignore": "ignored.md\nbuild/\n*.tmp\n",
    "content/index.md": '# Home\n\n--8<-- "snippets/part.txt"\n\n--8<-- "missing.txt"\n',
    "content/img/logo.png": "png",
    "content/notes.log": "an asset: the content folder publishes every file",
    "content/drafts/wip.md": "# excluded\n",
    "content/.hidden/a.md": "# hidden\n",
    "content/ignored.md": "# gitignored\n",
    "content/x.tmp": "gitignored",
    "content/sub/.gitignore": "local.md\n",
    "content/sub/local.md": "# ignored by the nested .gitignore\n",
    "content/sub/page.md": "# Sub\n",
    "pkg/core.py": "def run():\n    return 1\n",
    "pkg/data.bin": "data",
    "pkg/README.md": "# pkg\n",
    "pkg/Cargo.toml": "[package]\nname = 'p'\n",
    "other/tool.py": "print(1)\n",
    "go.mod": "module example.com/m\n",
    "package.json": "{}\n",
    "tsconfig.base.json": "{}\n",
    "compile_commands.json": "[]\n",
    "mkdocs.yml": "nav: []\n",
    "theme/page.html": "{{ page.title }}\n",
    "theme/.cache/x.html": "hidden in the theme\n",
    "snippets/part.txt": "included\n",
    "snippets/other.txt": "not included\n",
    "serve.log": "sitegen: 1 page ...\n",
    "build/out.md": "# gitignored folder\n",
    "site/index.html": "<p>the output</p>\n",
    "site/.sitegen-output": "{}\n",
    ".sitegen/state.json": "{}\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    "venv/pyvenv.cfg": "home = /usr\n",
    "venv/lib/x.py": "x = 1\n",
    "old-site/.sitegen-output": "{}\n",
    "old-site/index.md": "# another sitegen output\n",
}

#: What a build does with each path, by the rules the crawl walks by.
TABLE: list[tuple[str, Reads]] = [
    ("content/index.md", Reads.BYTES),  # a page
    ("content/img/logo.png", Reads.BYTES),  # an asset
    ("content/notes.log", Reads.BYTES),  # an asset too
    ("content/sub/page.md", Reads.BYTES),
    ("content/gone.md", Reads.BYTES),  # deleted (or not yet made): a page by its name
    ("pkg/core.py", Reads.BYTES),  # source
    ("pkg/README.md", Reads.BYTES),  # a source folder's README is a page
    ("pkg/Cargo.toml", Reads.BYTES),  # manifests
    ("go.mod", Reads.BYTES),
    ("package.json", Reads.BYTES),
    ("tsconfig.base.json", Reads.BYTES),
    ("compile_commands.json", Reads.BYTES),
    ("mkdocs.yml", Reads.BYTES),
    ("sitegen.toml", Reads.BYTES),  # config files
    ("pyproject.toml", Reads.BYTES),
    ("theme/page.html", Reads.BYTES),  # theme_dir
    ("snippets/part.txt", Reads.BYTES),  # included by content/index.md
    ("missing.txt", Reads.BYTES),  # included, not there yet
    ("content/missing.txt", Reads.BYTES),  # ... nor here, the second place looked at
    (".gitignore", Reads.BYTES),  # decides what else is read
    ("content/sub/.gitignore", Reads.BYTES),
    ("serve.log", Reads.NAME),  # the log: listed (a link may name it), never read
    ("pkg/data.bin", Reads.NAME),
    ("other/tool.py", Reads.NAME),  # source, but outside the source roots
    ("snippets/other.txt", Reads.NAME),
    ("content", Reads.NAME),  # a folder
    ("gone-folder", Reads.NAME),  # deleted, file or folder
    ("content/drafts/wip.md", Reads.NOTHING),  # exclude
    ("content/ignored.md", Reads.NOTHING),  # .gitignore
    ("content/x.tmp", Reads.NOTHING),
    ("content/sub/local.md", Reads.NOTHING),  # a nested .gitignore
    ("build/out.md", Reads.NOTHING),  # a gitignored folder
    ("build", Reads.NOTHING),
    ("content/.hidden/a.md", Reads.NOTHING),  # hidden
    ("theme/.cache/x.html", Reads.NOTHING),
    ("site/index.html", Reads.NOTHING),  # the output
    ("site", Reads.NOTHING),
    (".site.tmp-123/index.html", Reads.NOTHING),  # the site being written
    (".sitegen/state.json", Reads.NOTHING),  # the cache
    (".git/HEAD", Reads.NOTHING),
    ("venv/lib/x.py", Reads.NOTHING),  # a virtual environment
    ("venv/pyvenv.cfg", Reads.NOTHING),
    ("old-site/index.md", Reads.NOTHING),  # another sitegen output
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _reads(root: Path, rel: str) -> Reads:
    config = load_config(root)
    found = crawl(config, includes=include_names)
    return build_reads(config, root / rel, included_names(found), config_files(config, None))


@pytest.mark.parametrize(("rel", "expected"), TABLE)
def test_what_a_build_reads(project: Path, rel: str, expected: Reads) -> None:
    assert _reads(project, rel) is expected


def test_outside_the_root_nothing_is_read(project: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere.md").write_text("# not ours\n")
    assert _reads(project, str(tmp_path / "elsewhere.md")) is Reads.NOTHING
    assert _reads(project, "") is Reads.NOTHING  # the root itself


def test_a_config_file_given_with_config_is_read(project: Path, tmp_path: Path) -> None:
    given = tmp_path / "site.toml"
    given.write_text('title = "T"\n')
    config = load_config(project, given)
    assert build_reads(config, given, (), config_files(config, given)) is Reads.BYTES
    assert build_reads(config, given) is Reads.NOTHING  # outside the root, not a config file


def test_the_predicate_agrees_with_the_crawl(project: Path) -> None:
    """Every file on disk: read by the crawl -> BYTES, listed only -> NAME, else NOTHING (but
    the files read outside the walk: config, theme, .gitignore, snippets)."""
    config = load_config(project)
    found = crawl(config, includes=include_names)
    names = included_names(found)
    read: set[str] = {f.path for f in found.pages} | {f.path for f in found.code}
    read |= set(found.assets) | set(found.manifests)
    snippets = {rel for n in names for rel in snippet_candidates(config.content_rel, n)}
    assert "snippets/part.txt" in snippets and found.snippets
    besides = {"sitegen.toml", "pyproject.toml", ".gitignore", "content/sub/.gitignore"}
    besides |= {"theme/page.html"} | snippets
    files = config_files(config, None)
    for folder, _, entries in os.walk(project):
        for name in entries:
            rel = Path(folder, name).relative_to(project).as_posix()
            got = build_reads(config, project / rel, names, files)
            if rel in read or rel in besides:
                assert got is Reads.BYTES, rel
            elif rel in found.all_paths:
                assert got is Reads.NAME, rel
            else:
                assert got is Reads.NOTHING, rel


def test_a_symlink_is_judged_by_where_it_points(project: Path, tmp_path: Path) -> None:
    (tmp_path / "outside.md").write_text("# outside\n")
    (project / "content" / "out.md").symlink_to(tmp_path / "outside.md")
    (project / "content" / "in.md").symlink_to(project / "content" / "sub" / "page.md")
    assert _reads(project, "content/out.md") is Reads.NOTHING
    assert _reads(project, "content/in.md") is Reads.BYTES


# ---------------------------------------------------------------------------- reloads


def test_the_same_site_again_sends_no_reload() -> None:
    status = BuildStatus()
    assert status.publish(False, [], "site-1")  # the first build
    assert not status.publish(False, ["sitegen: 1 page"], "site-1")  # nothing new to show
    assert status.generation == 1
    assert status.publish(False, [], "site-2")
    assert status.publish(True, ["error: x"], "")  # a failure is shown
    assert not status.publish(True, ["error: x"], "")  # the same failure: nothing new
    assert status.publish(True, ["error: y"], "")
    assert status.publish(False, [], "site-2")  # fixed: the banner goes, whatever the site
    assert status.generation == 5
    assert status.wait_after(5, 0.01) == (5, "")  # an open stream hears nothing


def test_the_site_signature_follows_the_writer(tmp_path: Path) -> None:
    """Unchanged outputs are hard links of the previous site (same inode): the same
    signature; a file written anew, added or removed changes it."""
    old, new = tmp_path / "old", tmp_path / "new"
    (old / "a").mkdir(parents=True)
    (old / "index.html").write_text("<p>1</p>")
    (old / "a" / "b.html").write_text("<p>2</p>")
    (old / ".sitegen-output").write_text('{"fingerprint":"1"}')
    before = site_signature(old)
    (new / "a").mkdir(parents=True)
    os.link(old / "index.html", new / "index.html")
    os.link(old / "a" / "b.html", new / "a" / "b.html")
    (new / ".sitegen-output").write_text('{"fingerprint":"2"}')  # every build writes it
    assert site_signature(new) == before
    (new / "a" / "b.html").unlink()
    (new / "a" / "b.html").write_text("<p>2</p>")  # the same bytes, written again
    assert site_signature(new) != before
    (new / "a" / "b.html").unlink()
    assert site_signature(new) != before


@pytest.mark.slow  # three whole builds, in process
def test_a_rebuild_that_changes_no_output_sends_no_reload(tmp_path: Path) -> None:
    project = tmp_path / "small"
    (project / "content" / "sub").mkdir(parents=True)
    (project / "content" / "index.md").write_text("# Home\n\n[Sub](sub/page.md)\n")
    (project / "content" / "sub" / "page.md").write_text("# Sub\n")
    (project / "sitegen.toml").write_text('title = "T"\n')
    config = load_config(project, jobs=1)
    builder = Builder(lambda: load_config(project, jobs=1), config, quiet=True)
    assert builder.rebuild()
    assert builder.status.generation == 1
    # A new input (a file links may name) that changes no output: built, but no reload.
    (project / "notes.txt").write_text("a new file, named by no page\n")
    assert not builder.rebuild()
    assert builder.status.generation == 1
    (project / "content" / "sub" / "page.md").write_text("# Sub\n\nEdited.\n")
    assert builder.rebuild()
    assert builder.status.generation == 2


# ---------------------------------------------------------------------------- row 5


@pytest.mark.parametrize(
    "query",
    [
        "since=",
        "since=" + "9" * 5000,
        "since=%C2%B2",  # '²': str.isdigit() accepts it, int() does not
        "since=\u00b2",
        "since=-1",
        "since=abc",
        "since=+1",
        "since=%201",
        "since=1.0",
        "since=1234567890123456789",  # 19 digits
        "since=\u0661",  # ARABIC-INDIC DIGIT ONE: int() accepts it, ASCII it is not
    ],
)
def test_a_bad_since_is_refused(query: str) -> None:
    with pytest.raises(BadRequest) as err:
        since_generation(query_fields(query))
    assert "\n" not in str(err.value) and len(str(err.value)) < 200


@pytest.mark.parametrize(
    "query", ["since=1&since=1", "since", "since=1&&v=2", "&", "since=%ff", "a=1&" * 9]
)
def test_a_malformed_or_repeated_query_is_refused(query: str) -> None:
    with pytest.raises(BadRequest):
        query_fields(query)


@pytest.mark.parametrize(
    ("query", "since"),
    [
        ("since=0", 0),
        ("since=17", 17),
        ("since=" + "9" * 18, 10**18 - 1),
        ("", None),
        ("v=1", None),
    ],
)
def test_a_good_query_is_taken(query: str, since: int | None) -> None:
    assert since_generation(query_fields(query)) == since


def test_a_generators_config_beside_the_content_rebuilds_everything(tmp_path: Path) -> None:
    """Jekyll's _config.yml is read with the configuration (its permalinks move pages), so
    ``serve`` rebuilds everything when it changes."""
    root = tmp_path / "jk"
    (root / "docs/_docs").mkdir(parents=True)
    (root / "sitegen.toml").write_text('content = "docs"\n')
    (root / "docs/index.md").write_text("# Home\n")
    (root / "docs/_config.yml").write_text("collections: [docs]\n")
    config = load_config(root)
    files = config_files(config, None)
    assert Path(os.path.realpath(root / "docs/_config.yml")) in files
    assert build_reads(config, root / "docs/_config.yml", (), files) is Reads.BYTES
    assert Path(os.path.realpath(root / "docs/index.md")) not in files


def test_a_docusaurus_partial_is_read_and_watched(tmp_path: Path) -> None:
    # An MDX partial (_part.mdx, not a page of Docusaurus) is an include of the page that
    # imports it: serve rebuilds when it is saved (content/syntax/docusaurus.md#partials).
    files = {
        "website/docusaurus.config.js": "module.exports = { presets: [['classic', {"
        " docs: { path: '../docs' } }]] };\n",
        "docs/intro.md": "import Part from './_part.mdx'\n\n# Intro\n\n<Part />\n",
        "docs/_part.mdx": "Shared words.\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    config = load_config(tmp_path)
    assert config.generator is not None
    found = crawl(config, includes=include_names)
    names = included_names(found, config.generator.dialect)
    reads = build_reads(config, tmp_path / "docs/_part.mdx", names, config_files(config, None))
    assert reads is Reads.BYTES
