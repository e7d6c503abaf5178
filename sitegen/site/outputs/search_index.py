"""``search-index.js``: the pages' sections and the code's symbols, the data of the header's
search box (content/guides/site.md, "Search"; the format is sitegen.site.search's).

Written from the page and code records; never emits markup.
"""

from __future__ import annotations

from sitegen.paths import OutPath
from sitegen.site.emitter import EmitRun, OneFile
from sitegen.site.search import INDEX_FILE, search_index_script


class SearchIndex(OneFile):
    name = "search index"
    file = OutPath(INDEX_FILE)

    def render(self, run: EmitRun, out: OutPath) -> str:
        return search_index_script(run.site.pages_by_node, run.site.result.code_records)
