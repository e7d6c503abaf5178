"""A Docusaurus project built (issue 29, point 2): its docs at their routes, as folders, and
its links as Docusaurus reads them, with no false broken link
(content/guides/urls.md#docusaurus-addresses-and-links)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from sitegen.build import build
from sitegen.config import Config, load_config
from sitegen.records.result import BuildOptions
from sitegen.state.ownership import files_below

PROJECT = {
    "sitegen.toml": 'content = "docs"\n',
    "website/docusaurus.config.js": (
        "module.exports = { presets: [['classic', { docs: { path: '../docs',"
        " routeBasePath: '/' } }]] }\n"
    ),
    "docs/faq/OrganizingState.md": "---\nid: organizing-state\n---\n# Organizing state\n",
    "docs/faq/General.md": (
        "---\nid: general\n---\n# General\n\n"
        "[store](api/Store.md) [state](./OrganizingState.md) [url](organizing-state) "
        "![flow](/img/flow.png) ![flow](@site/static/img/flow.png)\n"
    ),
    "docs/api/Store.md": "---\nid: store\n---\n# Store\n",
    "docs/01-start.md": "# Start\n",
    "docs/plan.md": "---\ndraft: true\n---\n# Plan\n",
    "website/static/img/flow.png": "png\n",
}


def _config(root: Path) -> Config:
    for name, text in PROJECT.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    config = load_config(root)
    assert config.generator is not None
    # the routes of the docs folder, whatever the finder sets (sitegen/generators/docusaurus.py)
    generator = dataclasses.replace(config.generator, doc_routes=True)
    return dataclasses.replace(config, generator=generator)


@pytest.mark.slow
def test_a_docusaurus_project_keeps_its_addresses_and_links(tmp_path: Path) -> None:
    result = build(_config(tmp_path), BuildOptions(jobs=1, quiet=True))
    site = set(files_below(tmp_path / "site"))
    assert {
        "faq/organizing-state/index.html",
        "faq/general/index.html",
        "api/store/index.html",
        "start/index.html",
        "img/flow.png",
    } <= site
    assert not any("plan" in path for path in site)  # a draft
    assert result.linked.broken == []
    page = (tmp_path / "site/faq/general/index.html").read_text()
    assert 'href="../../api/store/index.html"' in page
    assert 'href="../organizing-state/index.html"' in page
    assert 'src="../../img/flow.png"' in page
    drafts = [d for d in result.diagnostics if d.code == "draft"]
    assert [(d.path, d.line) for d in drafts] == [("docs/plan.md", 2)]
