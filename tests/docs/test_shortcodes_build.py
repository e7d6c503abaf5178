"""A project's shortcodes through a build (issue 31, point 3; content/syntax/shortcodes.md):
the crawl reads the templates of the ``shortcodes`` folder (inside the root only, never a
hidden file, never published as a page or an asset), and a changed template renders again
the pages that call it, and only those, on an incremental rebuild."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sitegen.build import BuildOptions, build
from sitegen.config import ConfigError, load_config
from sitegen.crawl import Reads, build_reads, crawl
from sitegen.records.pages import PageRecord


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


PROJECT = {
    "content/index.md": "# Home\n\nRead the [guide](guide.md).\n",
    "content/guide.md": "# Guide\n\nSince {{< since v=2.0 >}}.\n\n<!-- md:flag beta -->\n",
    "content/plain.md": "# Plain\n\nNo shortcode here, {{ not one }}.\n",
    "shortcodes/since.html": '<span class="since">since {{ v }}</span>',
    "shortcodes/flag.html": '<a class="flag" href="index.md">{{ args[0] }}</a>',
    "shortcodes/README.md": "# Not a page\n",
    "shortcodes/.hidden.html": "secret",
    "sitegen.toml": 'shortcode_comments = { "md:*" = "*" }\n',
}


def test_the_crawl_reads_the_templates_and_publishes_none(tmp_path: Path) -> None:
    _write(tmp_path, PROJECT)
    outside = tmp_path.parent / f"{tmp_path.name}-outside.html"
    outside.write_text("outside", encoding="utf-8")
    os.symlink(outside, tmp_path / "shortcodes/leak.html")
    config = load_config(tmp_path)
    found = crawl(config)
    assert found.shortcodes == {
        "since": PROJECT["shortcodes/since.html"].encode(),
        "flag": PROJECT["shortcodes/flag.html"].encode(),
    }
    assert [f.path for f in found.pages] == [
        "content/guide.md",
        "content/index.md",
        "content/plain.md",
    ]
    assert not any(a.startswith("shortcodes/") for a in found.assets)
    assert [d.code for d in found.diagnostics] == ["symlink"]
    assert build_reads(config, tmp_path / "shortcodes/since.html") is Reads.BYTES
    assert build_reads(config, tmp_path / "shortcodes/.hidden.html") is Reads.NOTHING


def test_templates_inside_the_content_folder_are_no_pages(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "docs/index.md": "# Home {{< x >}}\n",
            "docs/_shortcodes/x.html": "<b>x</b>",
            "docs/_shortcodes/y/z.html": "<b>z</b>",
            "sitegen.toml": 'content = "docs"\nshortcodes = "docs/_shortcodes"\n',
        },
    )
    found = crawl(load_config(tmp_path))
    assert sorted(found.shortcodes) == ["x", "y/z"]
    assert found.assets == [] and [f.path for f in found.pages] == ["docs/index.md"]


def test_a_shortcodes_folder_that_is_named_must_exist_inside_the_root(tmp_path: Path) -> None:
    _write(tmp_path, {"content/index.md": "# A\n", "sitegen.toml": 'shortcodes = "nope"\n'})
    with pytest.raises(ConfigError, match="shortcodes = 'nope' is not a folder"):
        load_config(tmp_path)
    for bad in ("../x", "/abs", ".hidden", ""):
        (tmp_path / "sitegen.toml").write_text(f'shortcodes = "{bad}"\n', encoding="utf-8")
        with pytest.raises(ConfigError, match="option 'shortcodes' must be a folder"):
            load_config(tmp_path)


@pytest.mark.parametrize(
    "comments",
    [
        '{ "md" = "x" }',
        '{ "md:x" = "a*" }',
        '{ "md:*" = "../x" }',
        '["md:*"]',
        '{ "md:x" = 1 }',
        # a name the page key's byte pattern would not see (its templates left out of the key)
        '{ "mé:*" = "*" }',
        '{ "md:né" = "x" }',
    ],
)
def test_a_bad_comment_mapping_is_a_configuration_error(tmp_path: Path, comments: str) -> None:
    _write(
        tmp_path,
        {"content/index.md": "# A\n", "sitegen.toml": f"shortcode_comments = {comments}\n"},
    )
    with pytest.raises(ConfigError, match="shortcode_comments"):
        load_config(tmp_path)


def _pages(tmp_path: Path) -> dict[str, PageRecord]:
    result = build(load_config(tmp_path), BuildOptions(jobs=1, quiet=True))
    return {p.path: p for p in result.pages}


def test_a_changed_template_renders_again_the_pages_that_call_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(tmp_path, PROJECT)
    first = _pages(tmp_path)
    html = (tmp_path / "site/guide.html").read_text(encoding="utf-8")
    assert '<span class="since">since 2.0</span>' in html
    assert '<a class="flag" href="index.html">beta</a>' in html
    assert first["content/guide.md"].diagnostics == []

    from sitegen.docs import pipeline
    from sitegen.docs.markdown import extract_page as real

    extracted: list[str] = []

    def counting(path: str, *args: object, **kwargs: object) -> PageRecord:
        extracted.append(path)
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "extract_page", counting)
    _write(tmp_path, {"shortcodes/since.html": '<em class="since">new in {{ v }}</em>'})
    second = _pages(tmp_path)
    assert extracted == ["content/guide.md"]
    assert second["content/plain.md"] == first["content/plain.md"]
    html = (tmp_path / "site/guide.html").read_text(encoding="utf-8")
    assert '<em class="since">new in 2.0</em>' in html and "since 2.0" not in html

    extracted.clear()
    (tmp_path / "shortcodes/since.html").unlink()
    third = _pages(tmp_path)
    assert extracted == ["content/guide.md"]
    (warning,) = third["content/guide.md"].diagnostics
    assert (warning.line, warning.col, warning.code) == (3, 7, "shortcode")
    html = (tmp_path / "site/guide.html").read_text(encoding="utf-8")
    assert '<code class="shortcode">{{&lt; since v=2.0 &gt;}}</code>' in html
