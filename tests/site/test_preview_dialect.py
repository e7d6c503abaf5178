"""`sitegen serve`'s preview reads a saved page in the generator record's dialect, as the build
does (issue 29, point 2): a Docusaurus page previewed as MDX hides its import lines, and one
that uses a partial is left to the build, which reads the partial (content/syntax/docusaurus.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.build import build
from sitegen.config import load_config
from sitegen.records.result import BuildOptions
from sitegen.site.preview import Preview

CONFIG = "module.exports = { presets: [['classic', { docs: { path: '../docs' } }]] }\n"
SAVED = b"import Tabs from '@theme/Tabs';\n\n# Intro\n\nEdited {/* hidden words */} text.\n"


def _preview(root: Path) -> Preview:
    for name, text in {
        "sitegen.toml": 'content = "docs"\n',
        "website/docusaurus.config.js": CONFIG,
        "docs/intro.md": "# Intro\n\nFirst text.\n",
        "docs/_part.mdx": "Partial words.\n",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    preview = Preview.of(build(load_config(root), BuildOptions(jobs=1, quiet=True)))
    assert preview is not None
    return preview


@pytest.mark.slow
def test_a_docusaurus_page_is_previewed_as_mdx(tmp_path: Path) -> None:
    shown = _preview(tmp_path).render("docs/intro.md", SAVED)
    assert shown is not None
    html = shown[1].decode()
    assert "Edited" in html
    assert "@theme/Tabs" not in html and "hidden words" not in html


@pytest.mark.slow
def test_a_page_with_a_partial_is_left_to_the_build(tmp_path: Path) -> None:
    saved = b"import Part from './_part.mdx';\n\n# Intro\n\n<Part />\n"
    assert _preview(tmp_path).render("docs/intro.md", saved) is None
