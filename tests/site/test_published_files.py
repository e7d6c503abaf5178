"""Only pages and the files a page links to are published from the content folder (never a
``package.json`` or ``config.ts`` kept beside the docs), VitePress' ``public/`` whole, and the
header's report links follow ``header_reports``, off by default (content/guides/site.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.build import build
from sitegen.config import ConfigError, load_config
from sitegen.records.result import BuildOptions
from sitegen.state.ownership import files_below

pytestmark = pytest.mark.slow  # whole builds, in process

PROJECT = {
    "docs/.vitepress/config.ts": "export default { title: 'x' }\n",
    "docs/index.md": (
        "# Home\n\n![Logo](img/logo.svg) and [the manual](files/manual.pdf).\n\n"
        '<img src="img/raw.png" alt="raw">\n\nSee [the guide](guide/start.md).\n'
    ),
    "docs/guide/start.md": "# Start\n\n[Example config](../examples/site.config.js)\n",
    "docs/examples/site.config.js": "export default {}\n",
    "docs/img/logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>\n",
    "docs/img/raw.png": "png\n",
    "docs/img/unused.png": "png\n",
    "docs/files/manual.pdf": "pdf\n",
    "docs/package.json": '{"name": "docs"}\n',
    "docs/tsconfig.json": "{}\n",
    "docs/config.ts": "export const x = 1\n",
    "docs/CNAME": "docs.example.com\n",
    "docs/public/search.png": "png\n",
    "docs/public/deep/any.txt": "kept\n",
}


def _project(root: Path, extra: str = "") -> Path:
    for name, text in {**PROJECT, "sitegen.toml": 'content = "docs"\n' + extra}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_only_linked_files_are_published_from_the_content_folder(tmp_path: Path) -> None:
    root = _project(tmp_path)
    build(load_config(root), BuildOptions(jobs=1, quiet=True))
    site = set(files_below(root / "site"))
    for published in (
        "img/logo.svg",
        "img/raw.png",  # linked from the page's own HTML
        "files/manual.pdf",
        "examples/site.config.js",  # a script, but a page links to it
        "CNAME",
        "search.png",  # public/ is published whole, at the site root
        "deep/any.txt",
    ):
        assert published in site, published
    for private in ("package.json", "tsconfig.json", "config.ts", "img/unused.png"):
        assert private not in site, private


def test_the_header_links_to_the_reports_when_turned_on(tmp_path: Path) -> None:
    on = _project(tmp_path / "on", "header_reports = true\n")
    build(load_config(on), BuildOptions(jobs=1, quiet=True))
    header = (on / "site/index.html").read_text().split('class="site-links"', 1)[1]
    header = header.split("</nav>", 1)[0]
    assert "Broken links" in header and "Graph" in header
    off = _project(tmp_path / "off")  # off by default: the public header
    build(load_config(off), BuildOptions(jobs=1, quiet=True))
    header = (off / "site/index.html").read_text().split('class="site-links"', 1)[1]
    header = header.split("</nav>", 1)[0]
    assert "All pages" in header
    for report in ("Broken links", "Cycles", "Missing links", "Graph"):
        assert report not in header, report
    assert (off / "site/broken-links.html").is_file()  # still written


def test_header_reports_must_be_a_boolean(tmp_path: Path) -> None:
    root = _project(tmp_path, 'header_reports = "no"\n')
    with pytest.raises(ConfigError, match="'header_reports' must be true or false"):
        load_config(root)
