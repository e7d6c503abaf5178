"""What a build remembers, in ``.sitegen/`` and in the output folder's marker.

Its modules sit in layers of their own (ARCHITECTURE.md#layers): ``caches`` (every file of
``.sitegen/`` with its version, below everything), ``files`` (reading those files back and
setting aside one that cannot be read), ``folder`` (the cache folder made safe, the build
lock), ``ownership`` (whether the output folder is sitegen's, its marker) and ``remembered``
(the page cache and the site's fingerprint; content/guides/builds.md).
"""
