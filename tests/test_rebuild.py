"""What a change of each option rebuilds (sitegen/config.py: ``Rebuild``, ``OPTION_REBUILD``),
and the build's two keys derived from those declarations: the page cache's (options declared
PAGES) and the site's fingerprint (PAGES and SITE), content/guides/builds.md#what-an-option-rebuilds."""

from __future__ import annotations

import dataclasses

import pytest

from sitegen.config import OPTION_REBUILD, Config, Rebuild, declared_options
from sitegen.generators import Dialect


def test_every_field_of_the_configuration_declares_what_it_rebuilds() -> None:
    # A new option must say whether a change of it reads the pages again, makes the site
    # again, or changes nothing: left out, this fails (and so does every fingerprint).
    assert list(OPTION_REBUILD) == [f.name for f in dataclasses.fields(Config)]
    assert all(isinstance(r, Rebuild) for r in OPTION_REBUILD.values())


def test_a_field_without_a_declaration_stops_the_fingerprints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(OPTION_REBUILD, "title")
    with pytest.raises(KeyError, match="title"):
        declared_options(Config(), Rebuild.SITE)


def test_the_options_the_page_records_depend_on_are_declared_pages() -> None:
    # The extraction's arguments (sitegen/build.py: _extract_pages_step) and what makes or
    # expands pages: a change of any of them must not reuse a page record.
    for name in (
        "raw_html",
        "slugs",
        "markdown_extensions",
        "generator",
        "plugins",
        "content",
        "api",
        "api_options",
        "api_folder",
    ):
        assert OPTION_REBUILD[name] is Rebuild.PAGES, name
    assert OPTION_REBUILD["jobs"] is Rebuild.NOTHING


def test_pages_take_the_pages_options_and_the_site_all_but_nothing() -> None:
    config = Config()
    pages = dict(declared_options(config, Rebuild.PAGES))
    site = dict(declared_options(config, Rebuild.SITE))
    assert set(pages) == {n for n, r in OPTION_REBUILD.items() if r is Rebuild.PAGES}
    assert set(site) == {n for n, r in OPTION_REBUILD.items() if r is not Rebuild.NOTHING}
    assert declared_options(config, Rebuild.NOTHING) == ()
    assert pages["generator"] == Dialect.NONE  # of the generator, what the pages read
    assert "jobs" not in site and "root" not in site and "set_by" not in site
