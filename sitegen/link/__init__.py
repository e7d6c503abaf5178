"""The link step: every link of every page and source file resolved to a node of the graph.

The rule reads top to bottom in ``rules.py`` (an href to a node and a fragment), with the
name rules of wikilinks (``wiki.py``) and code cross-references (``symbols.py``) beside it;
``step.py`` applies them to every record and makes the graph's edges (ARCHITECTURE.md#link).
"""
