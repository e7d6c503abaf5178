"""What sitegen/generators/jekyll.py reads of a ``_config.yml``, once, into the record
(issue 29, point 1): Jekyll decides addresses, not heading ids; its YAML document (with the
places of its values) for the address rules, or where it stopped being YAML; its folder is
the site's source; and the output and cache folders it names."""

from __future__ import annotations

from pathlib import Path

from sitegen.generators import OutputFolder, find_generator
from sitegen.generators.jekyll import jekyll_generator, jekyll_outputs


def test_the_record_holds_the_document(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site/_config.yml").write_text("permalink: pretty\ncollections: [recipes]\n")
    found = find_generator(tmp_path, "site")
    assert found is not None
    assert (found.config_file, found.docs_dir, found.project_folder) == (
        "site/_config.yml",
        "site",
        "site",
    )
    assert not found.decides_slugs and found.slugs == "github"
    rules = found.permalinks
    assert rules is not None and rules.problem is None and rules.document is not None
    assert (rules.config_file, rules.folder) == ("site/_config.yml", "site")
    assert rules.document.data == {"permalink": "pretty", "collections": ["recipes"]}
    assert rules.document.places["pretty"] == (0, 11)
    assert found.nav is None and found.directory_urls is None


def test_a_file_that_is_not_yaml_keeps_where_it_stopped() -> None:
    rules = jekyll_generator("_config.yml", "title: x\npermalink: [\n").permalinks
    assert rules is not None and rules.document is None and rules.problem is not None
    line, _, why = rules.problem
    assert line >= 1 and "not valid YAML" in why


def test_the_output_and_cache_folders_it_names() -> None:
    files = {"_config.yml": "destination: out\n"}
    assert jekyll_outputs("", files.__contains__, files.get) == [
        OutputFolder("out", "Jekyll", "output", "destination"),
        OutputFolder(".jekyll-cache", "Jekyll", "cache", "cache_dir"),
    ]
    assert jekyll_outputs("", {}.__contains__, {}.get) == []
