"""sitegen: one provenance-bearing graph of a repository's docs and code, published as a site."""

__version__ = "0.1.0"
