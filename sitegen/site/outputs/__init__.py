"""Every output of the site, each declared once as an Emitter, in the one order the build
claims and writes them (content/guides/outputs.md says how to add one).

The order is the rule for clashes: the first claim of a path wins. Never write files here.
"""

from __future__ import annotations

from sitegen.site.emitter import Emitter
from sitegen.site.outputs.all_pages import AllPages
from sitegen.site.outputs.assets import Assets
from sitegen.site.outputs.blog import BlogPages
from sitegen.site.outputs.broken_links import BrokenLinks
from sitegen.site.outputs.code_index import CodeIndex
from sitegen.site.outputs.cycles import CyclesMd, CyclesPage
from sitegen.site.outputs.exports import CodeGraphJson, GraphJson, GraphMd
from sitegen.site.outputs.feed import BlogFeeds
from sitegen.site.outputs.graph_page import GraphPage
from sitegen.site.outputs.missing_links import MissingLinks
from sitegen.site.outputs.not_found import NotFound
from sitegen.site.outputs.pages import Pages
from sitegen.site.outputs.peers import PeersPage
from sitegen.site.outputs.redirects import Redirects
from sitegen.site.outputs.search_index import SearchIndex
from sitegen.site.outputs.sitemap import Sitemap
from sitegen.site.outputs.source_pages import SourcePages
from sitegen.site.outputs.stale_docs import StaleDocs
from sitegen.site.outputs.tags import TagPages
from sitegen.site.outputs.theme_files import ThemeFiles

#: sitegen's own files first, so no content file takes their paths; then the theme's static
#: files; then the content's pages, assets and source pages; last the redirect pages at old
#: addresses, which never take a file anything else publishes.
OUTPUTS: tuple[Emitter, ...] = (
    SearchIndex(),
    NotFound(),
    TagPages(),
    BlogPages(),  # the blog's index and tag pages (sitegen/site/blog.py)
    BlogFeeds(),  # its RSS feeds (the rss plugin's files)
    # The graph-wide reports and exports: written in one forked process beside the pages.
    AllPages(),
    BrokenLinks(),
    MissingLinks(),
    GraphMd(),
    GraphJson(),
    GraphPage(),
    CodeGraphJson(),
    CyclesMd(),
    CyclesPage(),
    # Back in the build's own process.
    CodeIndex(),
    PeersPage(),
    StaleDocs(),
    Sitemap(),
    ThemeFiles(),
    Pages(),
    Assets(),
    SourcePages(),
    Redirects(),
)
