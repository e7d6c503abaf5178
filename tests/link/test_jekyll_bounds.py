"""Jekyll's ``_config.yml`` as a reader of hostile input (sitegen/link/jekyll.py, through
sitegen/base/yamldata.py): a file too large, too deep or full of aliases is one warning with a
place, and the site keeps Jekyll's defaults (issue 27, defect 17: 500 levels were an
internal error). Where a permalink is written comes from the parser: the file is not
searched from its start once per pattern."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from sitegen.addresses import UrlStyle
from sitegen.base.diagnostics import Level
from sitegen.generators.jekyll import jekyll_generator
from sitegen.link.jekyll import BAD_CONFIG, JekyllSite, read_jekyll
from tests.safety.linear import grows_linearly
from tests.safety.yaml_shapes import GROWING, REFUSED, yaml_texts


def _site(text: str) -> JekyllSite:
    site = read_jekyll(jekyll_generator("_config.yml", text))
    assert site is not None
    return site


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_config_over_a_bound_is_one_warning_at_its_place(name: str) -> None:
    text, said = REFUSED[name]
    site = _site("permalink: pretty\n" + text)
    (diag,) = site.diagnostics
    assert (diag.path, diag.level, diag.code) == ("_config.yml", Level.WARNING, BAD_CONFIG)
    assert said in diag.message and "are not applied" in diag.message
    assert 1 <= diag.line <= 2 + text.count("\n") and diag.col >= 1 and len(diag.message) < 200
    assert site.page_style() is UrlStyle.HTML  # Jekyll's defaults, not the 'pretty' given


def test_a_pattern_is_placed_where_the_parser_read_it() -> None:
    defaults = "".join(
        f"  - scope: {{path: p{i}}}\n    values: {{permalink: '/:lang{i}/:title/'}}\n"
        for i in range(3)
    )
    site = _site("# permalink: /:lang1/:title/ in a comment\ndefaults:\n" + defaults)
    assert [(d.permalink.line, d.permalink.col) for d in site.defaults] == [
        (4, 26),  # inside the quote, not the comment's copy on line 1
        (6, 26),
        (8, 26),
    ]


@settings(deadline=None, max_examples=40)
@given(yaml_texts())
def test_any_hostile_config_is_read_or_one_warning(text: str) -> None:
    site = _site(text)
    assert len(site.diagnostics) <= 1
    assert all(d.line >= 1 and d.col >= 1 and len(d.message) < 300 for d in site.diagnostics)


@pytest.mark.parametrize("name", sorted(GROWING))
def test_a_hostile_config_is_read_in_linear_time(name: str) -> None:
    ok, said = grows_linearly(_site, GROWING[name], 1_000, 60_000)
    assert ok, said
