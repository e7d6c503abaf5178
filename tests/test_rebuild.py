"""What a change of each option rebuilds (sitegen/config.py: ``Rebuild``, ``OPTION_REBUILD``),
and the build's two keys derived from those declarations: the page cache's (options declared
PAGES) and the site's fingerprint (PAGES and SITE), content/guides/builds.md#what-an-option-rebuilds."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.build import build, build_fingerprint
from sitegen.config import OPTION_REBUILD, Config, Rebuild, declared_options, load_config
from sitegen.crawl import crawl
from sitegen.generators import Dialect, Generator, SlugStyle
from sitegen.records.pages import PageRecord
from sitegen.records.result import BuildOptions
from sitegen.state.ownership import OUTPUT_MARKER
from sitegen.state.remembered import SiteRecord, pages_key, site_fingerprint


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


def project(root: Path) -> Path:
    for path, text in PAGES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root


PAGES = {
    "content/index.md": "# Home\n\nSee [a](a.md) and <b>bold</b>.\n",
    "content/a.md": "# A\n\n## Part One\n\nBack [home](index.md).\n",
}


def rebuild(
    root: Path, monkeypatch: pytest.MonkeyPatch, **options: Any
) -> tuple[list[str], str, str]:
    """Build with ``options`` after a first build with none: the pages whose records were
    extracted again (encoded for the page cache), and the site's fingerprint before and after."""
    build(load_config(root), BuildOptions(jobs=1, quiet=True))
    before = SiteRecord.read(root / "site" / OUTPUT_MARKER).fingerprint
    encoded: list[str] = []
    to_dict = PageRecord.to_dict

    def counting(rec: PageRecord) -> dict[str, object]:
        encoded.append(rec.path)
        return to_dict(rec)

    monkeypatch.setattr(PageRecord, "to_dict", counting)
    build(load_config(root, **options), BuildOptions(jobs=1, quiet=True))
    after = SiteRecord.read(root / "site" / OUTPUT_MARKER).fingerprint
    return sorted(encoded), before, after


@pytest.mark.parametrize(
    "options", [{"raw_html": "escape"}, {"slugs": "mkdocs"}, {"markdown_extensions": ["material"]}]
)
def test_a_change_of_an_option_declared_pages_reads_every_page_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: dict[str, Any]
) -> None:
    encoded, before, after = rebuild(project(tmp_path), monkeypatch, **options)
    assert encoded == sorted(PAGES) and before != after


def test_a_change_of_an_option_declared_site_reuses_every_page_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    encoded, before, after = rebuild(project(tmp_path), monkeypatch, title="Another title")
    assert encoded == [] and before != after
    assert "Another title" in (tmp_path / "site/a.html").read_text(encoding="utf-8")


def test_a_change_of_an_option_declared_nothing_changes_neither_key(tmp_path: Path) -> None:
    config = load_config(project(tmp_path))
    found = crawl(config)
    for other in (dataclasses.replace(config, jobs=3), dataclasses.replace(config, jobs=1)):
        assert build_fingerprint(other, found) == build_fingerprint(config, found)
        assert pages_key(other) == pages_key(config)


def test_the_loaded_plugins_enter_both_keys(tmp_path: Path) -> None:
    config = load_config(project(tmp_path))
    found = crawl(config)
    assert pages_key(config, "example\x001.0") != pages_key(config)
    plain = site_fingerprint(config, found, (), "", "")
    assert site_fingerprint(config, found, (), "", "", "example\x001.0") != plain


def test_editing_mkdocs_yml_keeps_the_page_key_unless_its_dialect_changes() -> None:
    mkdocs = Generator("MkDocs", "mkdocs.yml", SlugStyle.MKDOCS, sources=(("mkdocs.yml", "a"),))
    edited = dataclasses.replace(mkdocs, sources=(("mkdocs.yml", "nav: [b]"),))
    config = Config(generator=mkdocs)
    assert pages_key(dataclasses.replace(config, generator=edited)) == pages_key(config)
    material = dataclasses.replace(mkdocs, dialect=Dialect.PYTHON_MARKDOWN)
    assert pages_key(dataclasses.replace(config, generator=material)) != pages_key(config)
    site = declared_options(dataclasses.replace(config, generator=edited), Rebuild.SITE)
    assert site != declared_options(config, Rebuild.SITE)


def _other_value(name: str, value: object) -> object:
    """A value of field ``name`` other than its default ``value``, by its type."""
    if name == "generator":
        return Generator("MkDocs", "mkdocs.yml", SlugStyle.MKDOCS, dialect=Dialect.MDX)
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 3
    if isinstance(value, Path):
        return Path("elsewhere")
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, tuple):
        return (*value, "x")[-1:] if value else ("x",)
    if isinstance(value, dict):
        return {"x": "y"}
    raise AssertionError(f"no other value for option {name}: add one here")


@settings(max_examples=60, deadline=None)
@given(st.sets(st.sampled_from([f.name for f in dataclasses.fields(Config)]), max_size=4))
def test_a_key_changes_exactly_when_an_option_it_declares_changes(changed: set[str]) -> None:
    config = Config()
    values: dict[str, Any] = {n: _other_value(n, getattr(config, n)) for n in changed}
    other = dataclasses.replace(config, **values)
    kinds = {OPTION_REBUILD[n] for n in changed}
    pages = declared_options(other, Rebuild.PAGES) != declared_options(config, Rebuild.PAGES)
    site = declared_options(other, Rebuild.SITE) != declared_options(config, Rebuild.SITE)
    assert pages == (Rebuild.PAGES in kinds)
    assert site == bool(kinds - {Rebuild.NOTHING})
    assert (pages_key(other) != pages_key(config)) == pages


_ORDER = {Rebuild.NOTHING: 0, Rebuild.SITE: 1, Rebuild.PAGES: 2}


def test_an_option_rebuilds_at_least_what_each_syntax_output_and_check_reading_it_declares() -> (
    None
):
    # Each registered part declares the options it reads and what a change of them redoes
    # (a check, the site); the option's own declaration, from which the keys are derived,
    # must cover it, or a change of the option would reuse what that part made.
    from sitegen.analyse.checks import CHECKS
    from sitegen.docs.registry import SYNTAXES
    from sitegen.site.outputs import OUTPUTS

    parts: list[tuple[str, tuple[str, ...], Rebuild]] = [
        *((f"syntax {s.name}", s.options, Rebuild(s.rebuild)) for s in SYNTAXES),
        *((f"output {o.name}", o.options, Rebuild(o.rebuild)) for o in OUTPUTS),
        *((f"check {c.name}", c.options, Rebuild.SITE) for c in CHECKS),
    ]
    for part, options, rebuild in parts:
        for option in options:
            assert option in OPTION_REBUILD, f"{part} reads '{option}', not an option"
            assert _ORDER[OPTION_REBUILD[option]] >= _ORDER[rebuild], f"{part}: {option}"
