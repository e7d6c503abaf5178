"""Issue 29, point 1: another generator's built site or cache inside the project (MkDocs'
``site/``, Jekyll's ``_site/``, VitePress' ``outDir``, Docusaurus' ``build/``, Quartz's
``public/``) is never crawled as pages, assets or code, never starts a ``serve`` rebuild, and
one info line says what was left out; a folder of the same name in a project of no such
generator is read as before (content/guides/safety.md#nothing-outside-the-project)."""

from __future__ import annotations

from pathlib import Path

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.build import BuildOptions, build
from sitegen.config import load_config
from sitegen.crawl import Reads, build_reads, crawl
from sitegen.layout import layout_diagnostics
from sitegen.records.crawl import Crawl


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _built(folder: str) -> dict[str, str]:
    """What a generator leaves in its output: pages, HTML and a minified bundle."""
    return {
        f"{folder}/index.md": "# Built copy\n",
        f"{folder}/guide/index.html": "<h1>Guide</h1>\n",
        f"{folder}/assets/app.min.js": "function a(b){return b+1}export{a};\n",
    }


def _read(found: Crawl) -> set[str]:
    """Every path the crawl read or listed."""
    listed = found.all_paths | found.all_dirs
    return listed | {p.path for p in found.pages} | {c.path for c in found.code}


def _left_out(root: Path, found: Crawl) -> list[Diagnostic]:
    said = layout_diagnostics(load_config(root), found)
    return [d for d in said if d.level is Level.INFO and "not read" in d.message]


def _assert_not_read(root: Path, folder: str, found: Crawl, line: str) -> None:
    assert not any(p == folder or p.startswith(folder + "/") for p in _read(found)), folder
    (info,) = _left_out(root, found)
    assert line in info.message, info.message
    assert info.path == folder
    config = load_config(root)
    for rel in (folder, f"{folder}/assets/app.min.js", f"{folder}/new.md", f"{folder}/x/new.js"):
        assert build_reads(config, root / rel) is Reads.NOTHING, rel


def _assert_read(root: Path, folder: str, found: Crawl) -> None:
    assert f"{folder}/assets/app.min.js" in {c.path for c in found.code}
    assert not any(f" {folder}/ is " in d.message for d in _left_out(root, found))
    config = load_config(root)
    assert build_reads(config, root / f"{folder}/assets/app.min.js") is Reads.BYTES


def test_mkdocs_site_dir_is_not_read_and_one_info_line_says_why(tmp_path: Path) -> None:
    root = _write(tmp_path, {"mkdocs.yml": "site_name: x\n", "docs/index.md": "# Home\n"})
    _write(root, _built("site") | {"pkg/mod.py": "x = 1\n"})
    config = load_config(root, out=str(tmp_path / "elsewhere"))
    found = crawl(config)
    assert [c.path for c in found.code] == ["pkg/mod.py"]
    _assert_not_read(root, "site", found, "site/ is MkDocs' output (site_dir)")
    result = build(config, BuildOptions(jobs=1, quiet=True))
    lines = [d.format() for d in result.diagnostics if "not read" in d.message]
    assert lines == [
        "site:1:1: info: site/ is MkDocs' output (site_dir): not read (name it as content "
        "or in source to read it all the same)"
    ]


def test_mkdocs_site_dir_option_names_the_output_and_site_is_then_read(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {"mkdocs.yml": "site_name: x\nsite_dir: html/out\n", "docs/index.md": "# Home\n"},
    )
    _write(root, _built("html/out") | _built("site"))
    found = crawl(load_config(root, out="public"))
    _assert_not_read(root, "html/out", found, "html/out/ is MkDocs' output (site_dir)")
    assert "site/assets/app.min.js" in {c.path for c in found.code}


def test_mkdocs_site_dir_above_the_config_folder(tmp_path: Path) -> None:
    """``docs/en/mkdocs.yml`` building into the root's ``site/``: named from the generator
    found beside the content, though the walk reaches ``site/`` before ``docs/en``."""
    root = _write(
        tmp_path,
        {
            "docs/en/mkdocs.yml": "site_name: x\ndocs_dir: docs\nsite_dir: ../../built\n",
            "docs/en/docs/index.md": "# Home\n",
            "sitegen.toml": 'content = "docs/en/docs"\nout = "public"\n',
        },
    )
    _write(root, _built("built"))
    found = crawl(load_config(root))
    _assert_not_read(root, "built", found, "built/ is MkDocs' output (site_dir)")


def test_jekyll_destination_inside_the_source_folder_is_not_read(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "docs/_config.yml": "title: x\n",
            "docs/index.md": "# Home\n",
            "docs/.jekyll-cache/Jekyll/Cache/x.md": "# cache\n",
        },
    )
    _write(root, _built("docs/_site"))
    found = crawl(load_config(root))
    assert [p.path for p in found.pages] == ["docs/index.md"]  # not docs/_site/index.md
    assert not any(p.startswith("docs/_site/") for p in found.assets)
    _assert_not_read(root, "docs/_site", found, "docs/_site/ is Jekyll's output (destination)")


def test_jekyll_destination_option(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {"docs/_config.yml": "destination: ./out\n", "docs/index.md": "# Home\n"},
    )
    _write(root, _built("docs/out") | _built("docs/_site"))
    found = crawl(load_config(root))
    _assert_not_read(root, "docs/out", found, "docs/out/ is Jekyll's output (destination)")
    assert "docs/_site/index.md" in {p.path for p in found.pages}


def test_vitepress_out_dir_is_not_read_but_its_public_folder_is(tmp_path: Path) -> None:
    """``outDir`` and ``cacheDir`` of the config (relative to the folder holding .vitepress);
    the default ``.vitepress/dist`` and ``cache`` are hidden, so never read either."""
    root = _write(
        tmp_path,
        {
            "docs/.vitepress/config.ts": (
                "export default { outDir: '../dist', cacheDir: 'vp-cache', title: 'x' }\n"
            ),
            "docs/index.md": "# Home\n",
            "docs/public/logo.svg": "<svg/>",
            "docs/public/notes.md": "# A static file of VitePress\n",
            "docs/.vitepress/dist/index.md": "# default output\n",
            "docs/vp-cache/deps/x.js": "x()\n",
        },
    )
    _write(root, _built("dist"))
    found = crawl(load_config(root))
    _assert_not_read(root, "dist", found, "dist/ is VitePress' output (outDir)")
    assert "docs/public/logo.svg" in found.assets
    assert "docs/public/notes.md" in {p.path for p in found.pages}
    assert not any(p.startswith(("docs/vp-cache", "docs/.vitepress/")) for p in _read(found))
    (info,) = _left_out(root, found)
    assert "docs/vp-cache/ is VitePress' cache (cacheDir)" in info.message


def test_docusaurus_build_beside_its_config_is_not_read(tmp_path: Path) -> None:
    """redux's layout: the docs at the root, Docusaurus in website/ (its build/ is no
    folder of the content's generator, found on the way by the config beside it)."""
    root = _write(
        tmp_path,
        {
            "docs/index.md": "# Home\n",
            "website/docusaurus.config.ts": "export default { title: 'x' };\n",
            "website/src/theme.js": "export const t = 1;\n",
            "website/.docusaurus/registry.js": "export default {};\n",
        },
    )
    _write(root, _built("website/build"))
    found = crawl(load_config(root))
    assert [c.path for c in found.code] == [
        "website/docusaurus.config.ts",
        "website/src/theme.js",
    ]
    _assert_not_read(
        root,
        "website/build",
        found,
        "website/build/ is Docusaurus' output (beside website/docusaurus.config.ts)",
    )
    assert build_reads(load_config(root), root / "website/.docusaurus/registry.js") is (
        Reads.NOTHING
    )


def test_quartz_public_beside_its_config_is_not_read(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "quartz.config.ts": "const config = { configuration: { pageTitle: 'x' } }\n",
            # A Quartz site reads its content alone unless source is set (issue 29, point 3).
            "sitegen.toml": 'source = ["."]\n',
            "content/index.md": "# Home\n",
            "quartz/build.ts": "export const b = 1;\n",
            ".quartz-cache/transpiled-build.mjs": "x()\n",
        },
    )
    _write(root, _built("public"))
    found = crawl(load_config(root))
    assert [c.path for c in found.code] == ["quartz.config.ts", "quartz/build.ts"]
    _assert_not_read(root, "public", found, "public/ is Quartz's output (beside quartz.config.ts)")


def test_the_same_folders_without_their_generator_are_read(tmp_path: Path) -> None:
    """No docusaurus.config, quartz.config, mkdocs.yml or _config.yml beside them: build/,
    public/, site/ and _site/ are the project's own folders; the mkdocs.yml of another folder
    names only the site/ beside it."""
    root = _write(
        tmp_path,
        {
            "content/index.md": "# Home\n",
            "sitegen.toml": 'out = "out"\n',
            "tools/mkdocs.yml": "site_name: tools\n",
        },
    )
    for folder in ("build", "public", "site", "_site", "tools/site"):
        _write(root, _built(folder))
    found = crawl(load_config(root))
    for folder in ("build", "public", "site", "_site"):
        _assert_read(root, folder, found)
    _assert_not_read(root, "tools/site", found, "tools/site/ is MkDocs' output (site_dir)")


def test_a_docusaurus_config_elsewhere_leaves_another_build_folder_read(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {"content/index.md": "# Home\n", "website/docusaurus.config.js": "module.exports = {}\n"},
    )
    _write(root, _built("build") | _built("website/build"))
    found = crawl(load_config(root))
    _assert_not_read(root, "website/build", found, "website/build/ is Docusaurus' output")
    assert "build/assets/app.min.js" in {c.path for c in found.code}


def test_an_output_named_as_content_or_source_is_read_all_the_same(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "docusaurus.config.js": "module.exports = {}\n",
            "quartz.config.ts": "export default {}\n",
            "docs/index.md": "# Home\n",
            "sitegen.toml": 'source = ["build/assets", "."]\n',
        },
    )
    _write(root, _built("build") | _built("public"))
    found = crawl(load_config(root))
    _assert_read(root, "build", found)
    _assert_not_read(root, "public", found, "public/ is Quartz's output")
