"""API reference from the code: Python objects read statically (griffe) into plain records,
and mkdocstrings' ``:::`` blocks written out from them (content/guides/api-reference.md)."""
