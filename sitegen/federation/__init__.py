"""Federation: backlinks from other sites, read from the ``graph.md`` each one publishes.

Reads only the peers the configuration names (a URL, a file or a site folder) and writes
only below ``.sitegen/peers/``; nothing read is ever executed (content/guides/federation.md).
"""
