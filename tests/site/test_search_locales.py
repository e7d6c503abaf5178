"""Search within a page's locale (content/guides/locales.md): the manifest numbers each page's
locale in result order, and search.js keeps to the reader's."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sitegen.base.paths import NodeId
from sitegen.docs.markdown import extract_page
from sitegen.site.search import search_data
from sitegen.site.search_shards import INDEX_FILE, search_index_files

PAGES = {
    NodeId("/b.md"): extract_page("docs/b.md", b"# Beta\n\nCaching.\n"),
    NodeId("/es/a.md"): extract_page("docs/es/a.md", b"# Alfa\n\nCaching.\n"),
    NodeId("/c.md"): extract_page("docs/c.md", b"# Gamma\n\nCaching.\n"),
}


def _manifest(files: dict[str, str]) -> dict[str, object]:
    found = re.search(r"\((\"manifest\"),(.*)\);\s*$", files[INDEX_FILE], re.S)
    assert found is not None
    return json.loads(found.group(2))  # type: ignore[no-any-return]


def test_the_manifest_numbers_each_page_locale_in_result_order() -> None:
    files = search_index_files(
        search_data(PAGES, [], locale_of=lambda n: 1 if n.startswith("/es/") else 0)
    )
    # Results are numbered by title: Alfa (es), Beta, Gamma.
    assert _manifest(files)["locales"] == [1, 0, 0]


def test_a_site_without_locales_keeps_its_manifest() -> None:
    assert "locales" not in _manifest(search_index_files(search_data(PAGES, [])))


def test_search_js_keeps_to_the_readers_locale() -> None:
    script = (Path(__file__).parents[2] / "templates" / "search.js").read_text()
    assert 'form.getAttribute("data-locale")' in script
    assert "if (index.locale && index.locale[p] !== index.mine) continue;" in script
