"""The build reads a Docusaurus project's pages in the record's dialect (issue 29, point 2):
sitegen/build.py passes ``config.generator.dialect`` to the docs step, and a project without
a generator is read as before (content/syntax/docusaurus.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.build import build
from sitegen.config import load_config
from sitegen.generators import Dialect
from sitegen.records.result import BuildOptions
from sitegen.state.ownership import files_below

PAGE = (
    "import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\n# Intro\n\n"
    "Shown {/* hidden words */} text.\n\n"
    '<Tabs>\n<TabItem value="npm">\n\nnpm words\n\n</TabItem>\n</Tabs>\n'
)


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def _page_html(root: Path) -> str:
    (path,) = [p for p in files_below(root / "site") if "intro" in p and p.endswith(".html")]
    return (root / "site" / path).read_text()


@pytest.mark.slow
def test_a_docusaurus_project_is_read_as_mdx(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "sitegen.toml": 'content = "docs"\n',
            "website/docusaurus.config.js": (
                "module.exports = { presets: [['classic', { docs: { path: '../docs' } }]] }\n"
            ),
            "docs/intro.md": PAGE,
        },
    )
    config = load_config(tmp_path)
    assert config.generator is not None and config.generator.dialect & Dialect.MDX
    build(config, BuildOptions(jobs=1, quiet=True))
    html = _page_html(tmp_path)
    assert "@theme/Tabs" not in html and "hidden words" not in html
    assert 'class="tabbed-set"' in html and "npm words" in html


@pytest.mark.slow
def test_a_project_without_a_generator_reads_the_same_page_as_markdown(tmp_path: Path) -> None:
    _write(tmp_path, {"sitegen.toml": 'content = "docs"\n', "docs/intro.md": PAGE})
    config = load_config(tmp_path)
    assert config.generator is None
    build(config, BuildOptions(jobs=1, quiet=True))
    html = _page_html(tmp_path)
    assert "@theme/Tabs" in html and "hidden words" in html
