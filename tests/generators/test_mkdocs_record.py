"""What sitegen/generators/mkdocs.py reads of an ``mkdocs.yml``, once, into the record the
rest of the build asks (issue 29, point 1): the nav spec, static-i18n's locales, the URL
style, mkdocs-redirects' maps with their lines, mkdocstrings' Python handler, the folder it
runs from, and the output folder it names."""

from __future__ import annotations

from sitegen.generators import MkDocsNavSpec, OutputFolder, mkdocs_generator
from sitegen.generators.mkdocs import mkdocs_outputs

MKDOCS = """\
site_name: X
docs_dir: docs
use_directory_urls: false
nav:
  - Home: index.md
plugins:
  - search
  - i18n:
      languages:
        - locale: en
          default: true
          name: English
        - locale: fr
  - redirects:
      redirect_maps:
        old.md: index.md
        b.md: https://example.com/
  - mkdocstrings:
      handlers:
        python:
          paths: [src]
          options:
            show_source: false
markdown_extensions:
  - toc:
      slugify: !!python/name:pymdownx.slugs.uslugify
"""


def test_the_record_holds_what_the_file_says() -> None:
    found = mkdocs_generator(MKDOCS, "site/docs", "site/mkdocs.yml")
    assert found is not None
    assert (found.docs_dir, found.project_folder, found.include_base) == (
        "site/docs",
        "site",
        "site",
    )
    assert found.decides_slugs and found.slugs == "pymdownx"
    assert found.locales == (("en", "en", "English"), ("fr", "fr", ""))
    assert (found.directory_urls, found.urls_option) == (False, "use_directory_urls of mkdocs.yml")
    assert found.redirect_maps == (("b.md", "https://example.com/", 17), ("old.md", "index.md", 16))
    assert found.api_handler == {"paths": ["src"], "options": {"show_source": False}}
    assert found.route_root is None and found.permalinks is None
    spec = found.nav
    assert isinstance(spec, MkDocsNavSpec) and spec.problem is None
    assert (spec.config_file, spec.docs_dir, spec.text) == ("site/mkdocs.yml", "site/docs", MKDOCS)
    assert spec.data["nav"] == [{"Home": "index.md"}]


def test_defaults_when_the_file_says_nothing() -> None:
    found = mkdocs_generator("site_name: X\n", "docs")
    assert found is not None
    assert (found.directory_urls, found.locales, found.redirect_maps) == (True, (), ())
    assert found.api_handler == {} and found.include_base == "" and found.project_folder == ""


def test_a_file_that_is_not_yaml_is_mkdocs_defaults_and_its_problem_kept() -> None:
    found = mkdocs_generator("site_name: X\nnav: [\n", "docs")
    assert found is not None and found.directory_urls is True
    spec = found.nav
    assert isinstance(spec, MkDocsNavSpec) and spec.data is None
    assert spec.problem is not None and "not valid YAML" in spec.problem[2]


def test_the_output_folder_it_names() -> None:
    files = {"mkdocs.yml": "site_dir: public/site\n"}
    said = mkdocs_outputs("docs", files.__contains__, files.get)
    assert said == [OutputFolder("public/site", "MkDocs", "output", "site_dir")]
    plain = {"mkdocs.yml": "site_name: X\n"}
    assert mkdocs_outputs("", plain.__contains__, plain.get)[0].written == "site"
    assert mkdocs_outputs("", {}.__contains__, {}.get) == []
