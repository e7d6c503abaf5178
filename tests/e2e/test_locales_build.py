"""Locales built end to end (content/guides/locales.md): each page's ``<html lang>``, the
language switcher, the page tree and related pages within a locale, and an incremental
build after an edit equal to a clean one."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from sitegen.build import BuildOptions, build
from sitegen.config import load_config
from tests.e2e.conftest import write_project

QUIET = BuildOptions(jobs=1, quiet=True)

TEXT_EN = "Caching stores rendered fragments so repeated builds reuse cached fragments.\n"
TEXT_ES = "La configuración del almacenamiento guarda fragmentos renderizados en caché.\n"

SITE: dict[str, str | bytes] = {
    "sitegen.toml": 'title = "Loc"\nlocales = ["es"]\n',
    "docs/index.md": "# Home\n\n" + TEXT_EN,
    "docs/guide/cache.md": "# Cache\n\n" + TEXT_EN + "See [home](../index.md).\n",
    "docs/guide/store.md": "# Store\n\n" + TEXT_EN,
    "docs/es/index.md": "# Inicio\n\n" + TEXT_ES,
    "docs/es/guide/cache.md": "# Caché\n\n" + TEXT_ES,
    "docs/es/guide/store.md": "---\nlang: es-MX\n---\n# Almacén\n\n" + TEXT_ES,
}


def _links(html: str, cls: str) -> list[str]:
    found = re.search(rf'<(?:nav|aside) class="{cls}".*?</(?:nav|aside)>', html, re.S)
    return re.findall(r">([^<>]+)</(?:a|span)>", found.group(0)) if found else []


def _site(root: Path) -> dict[str, bytes]:
    site = root / "site"
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def test_a_site_in_two_languages(tmp_path: Path) -> None:
    root = write_project(tmp_path / "loc", SITE)
    result = build(load_config(root), QUIET)
    es = (root / "site/es/guide/cache.html").read_text()
    en = (root / "site/guide/cache.html").read_text()
    assert '<html lang="es">' in es and '<html lang="en">' in en
    assert '<html lang="es-MX">' in (root / "site/es/guide/store.html").read_text()
    assert _links(en, "site-links languages") == ["English", "Español"]
    assert 'href="../es/guide/cache.html" hreflang="es"' in en
    assert 'href="../../guide/cache.html" hreflang="en"' in es
    # Search keeps to the reader's locale: its number on the form, each page's in the index.
    assert 'data-locale="0"' in es and 'data-locale="1"' in en
    assert '"locales":[' in (root / "site/search-index.js").read_text()
    # The tree of each page is its own locale's.
    assert _links(es, "sidebar") == ["Inicio", "Guide", "Caché", "Almacén"]
    assert "Inicio" not in _links(en, "sidebar") and "Cache" in _links(en, "sidebar")
    # Related pages stay in a page's locale, and their words are whole.
    related = result.insight.relatedness.related
    for node, found in related.items():
        if node.startswith("/es/"):
            assert all(r.node.startswith("/es/") for r in found), (node, found)
        elif not node.startswith("/code/"):
            assert not any(r.node.startswith("/es/") for r in found), (node, found)
    reasons = " ".join(r.reason for f in related.values() for r in f)
    assert "configuraci'" not in reasons and "configuraci " not in reasons


def test_an_edit_rebuilds_to_the_clean_bytes(tmp_path: Path) -> None:
    root = write_project(tmp_path / "inc", SITE)
    build(load_config(root), QUIET)
    (root / "docs/es/guide/store.md").unlink()  # the switcher of /guide/store loses Español
    build(load_config(root), QUIET)
    assert "Español" not in (root / "site/guide/store.html").read_text()
    clean = tmp_path / "clean"
    shutil.copytree(root / "docs", clean / "docs")
    shutil.copy(root / "sitegen.toml", clean / "sitegen.toml")
    build(load_config(clean), QUIET)
    assert _site(root) == _site(clean)
