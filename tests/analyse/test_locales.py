"""Locales (content/guides/locales.md): from the ``locales`` option, VitePress' ``locales`` and
mkdocs-static-i18n; related pages stay within a page's locale."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import scipy.sparse as sp

from sitegen.analyse.locale_folders import Locale, site_locales
from sitegen.analyse.related import _within_groups
from sitegen.base.paths import NodeId
from sitegen.config import load_config

NODES = ["/index.md", "/guide/a.md", "/es/index.md", "/es/guide/a.md", "/fr/guide/b.md"]


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_locales_option(tmp_path: Path) -> None:
    _write(tmp_path, {"sitegen.toml": 'locales = ["es", "fr", "de"]\n', "docs/index.md": "# H\n"})
    locales = site_locales(load_config(tmp_path), NODES)
    # de holds no page: left out; the root is English, the lang option's.
    assert [(x.folder, x.lang) for x in locales.locales] == [("es", "es"), ("fr", "fr"), ("", "en")]
    assert locales.of("/es/guide/a.md") == Locale("es", "es", "Español")
    assert locales.of("/guide/a.md") == Locale("", "en", "English")
    assert locales.counterpart(NodeId("/es/guide/a.md"), locales.locales[2]) == "/guide/a.md"
    assert locales.counterpart(NodeId("/guide/a.md"), locales.locales[1]) == "/fr/guide/a.md"


def test_no_locales_is_falsy(tmp_path: Path) -> None:
    _write(tmp_path, {"docs/index.md": "# H\n"})
    locales = site_locales(load_config(tmp_path), NODES)
    assert not locales and locales.of("/es/index.md") is None


def test_vitepress_locales_with_the_root_rewritten(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "docs/.vitepress/config.ts": "export default { rewrites: { 'en/:rest*': ':rest*' },"
            " locales: { root: { label: 'English', lang: 'en-US' },"
            " es: { label: 'Español (es)', lang: 'es-ES', markdown: esMarkdown } } }\n",
            "docs/en/index.md": "# H\n",
        },
    )
    nodes = ["/en/index.md", "/es/index.md", "/other.md"]
    locales = site_locales(load_config(tmp_path), nodes)
    assert [(x.folder, x.lang, x.label) for x in locales.locales] == [
        ("en", "en-US", "English"),
        ("es", "es-ES", "Español (es)"),
        ("", "en", "English"),
    ]


def test_mkdocs_static_i18n_languages(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "mkdocs.yml": "plugins:\n  - search\n  - i18n:\n      languages:\n"
            "        - locale: en\n          default: true\n          name: English\n"
            "        - locale: fr\n          name: Français\n",
            "docs/en/index.md": "# H\n",
        },
    )
    locales = site_locales(load_config(tmp_path), ["/en/index.md", "/fr/index.md"])
    assert [(x.folder, x.label) for x in locales.locales] == [
        ("en", "English"),
        ("fr", "Français"),
        ("", "English"),
    ]


def test_related_pairs_stay_within_a_locale() -> None:
    scores = sp.csr_matrix(np.ones((4, 4)))
    kept = _within_groups(scores, [0, 0, 1, -1]).toarray()
    assert kept.tolist() == [
        [1, 1, 0, 1],
        [1, 1, 0, 1],
        [0, 0, 1, 1],
        [1, 1, 1, 1],  # a node of no locale (a source file) pairs with all
    ]
