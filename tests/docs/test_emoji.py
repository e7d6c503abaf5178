"""pymdownx.emoji's shortcodes (sitegen/docs/emoji.py, content/syntax/emoji.md), compared with
what pymdownx.emoji and Material's own emoji extension make of the same text."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator
from pathlib import Path

import markdown as python_markdown
import pytest
from pymdownx import emoji as pymdownx_emoji
from pymdownx import twemoji_db

from sitegen.docs import emoji, markdown
from sitegen.generators import Dialect, SlugStyle

EMOJI = Dialect.PYTHON_MARKDOWN | Dialect.EMOJI
ICONS = EMOJI | Dialect.ICONS
#: ``<img alt="😄" class="twemoji" src="…" title=":smile:" />``: pymdownx's emoji, attributes
#: in its order (alt, class, src, title).
_IMG = re.compile(r'<img alt="([^"]*)" class="([^"]*)" src="[^"]*" title="([^"]*)" />')
_SPAN = re.compile(r'<span class="([^"]*)" title="([^"]*)">([^<]*)</span>')
_ICON = re.compile(r'<span class="twemoji[^"]*">(.*?)</span>', re.DOTALL)


def page(text: str, dialect: Dialect = ICONS) -> markdown.PageRecord:
    return markdown.extract_page("docs/p.md", text.encode(), dialect=dialect)


def html_of(text: str, dialect: Dialect = ICONS) -> str:
    return page(text, dialect).html


def pymdownx_html(text: str) -> str:
    """pymdownx.emoji's rendering with the Twemoji index, as Material's docs configure it
    (the generator ``to_svg``: an image per emoji, whose alt text is the character)."""
    return python_markdown.markdown(
        text,
        extensions=["pymdownx.emoji", "tables"],
        extension_configs={
            "pymdownx.emoji": {
                "emoji_index": pymdownx_emoji.twemoji,
                "emoji_generator": pymdownx_emoji.to_svg,
            }
        },
    )


def material_html(text: str) -> str:
    """Material's own rendering: its index of Twemoji and icons, its ``to_svg``."""
    material_emoji = pytest.importorskip(
        "material.extensions.emoji",
        reason="mkdocs-material (the test extra) has the icon files and Material's renderer",
    )
    return python_markdown.markdown(
        text,
        extensions=["pymdownx.emoji", "attr_list", "toc"],
        extension_configs={
            "pymdownx.emoji": {
                "emoji_index": material_emoji.twemoji,
                "emoji_generator": material_emoji.to_svg,
            }
        },
    )


@pytest.fixture
def no_icon_sets(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """The themes' packages found in an empty folder: no icon set is installed."""
    monkeypatch.setattr(emoji, "_package_folder", lambda distribution, package: tmp_path)
    emoji.icon_roots.cache_clear()
    yield
    emoji.icon_roots.cache_clear()


@pytest.fixture
def icon_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A theme package of our own whose ``templates/.icons`` the test fills."""
    monkeypatch.setattr(emoji, "_package_folder", lambda distribution, package: tmp_path)
    icons = tmp_path / "templates" / ".icons"
    icons.mkdir(parents=True)
    emoji.icon_roots.cache_clear()
    yield icons
    emoji.icon_roots.cache_clear()


# --- emoji ----------------------------------------------------------------------------------


def test_every_emoji_and_alias_of_the_index_is_what_pymdownx_writes() -> None:
    # each shortcode on its own line: pymdownx's image, sitegen's span, compared one by one
    # (a few aliases of the data have no colons: no text can name them)
    codes = [c for c in [*sorted(twemoji_db.emoji), *sorted(twemoji_db.aliases)] if c[0] == ":"]
    text = "\n\n".join(codes)
    theirs = [m.groups() for m in _IMG.finditer(pymdownx_html(text))]
    ours = [(html.unescape(c), cls, t) for cls, t, c in _SPAN.findall(html_of(text, EMOJI))]
    assert len(theirs) == len(codes) > 6000
    # (alt, class, title): the character is the image's alt text, the class and title its own
    assert ours == [(html.unescape(alt), cls, html.unescape(t)) for alt, cls, t in theirs]


@pytest.mark.parametrize(
    "text",
    [
        "Hi :smile: and :+1: :-1: :thumbsup:",
        ":smile::smile: and :a:b:smile:",
        "_a :smile_cat: b_ and **:heart:**",
        "[:rocket: launch](a.md)",
        "| a | b |\n|---|---|\n| :tada: | x |",
        ":foo:smile: stays as written",
        "a:b:c reads :b: as pymdownx does",
        "> :warning: careful",
    ],
)
def test_emoji_in_text_as_pymdownx_places_them(text: str) -> None:
    theirs = pymdownx_html(text)
    ours = html_of(text, EMOJI)
    assert [html.unescape(m.group(1)) for m in _IMG.finditer(theirs)] == [
        html.unescape(m.group(3)) for m in _SPAN.finditer(ours)
    ]
    # the text around them is the same text
    assert _words(_IMG.sub("E", theirs)) == _words(_SPAN.sub("E", ours))


def _words(fragment: str) -> list[str]:
    return html.unescape(re.sub(r"<[^>]*>", " ", fragment)).split()


@pytest.mark.parametrize(
    "text",
    [
        "At 10:30:00 or 12:00 on 2024-01-01T10:30:00Z",
        "x::y and ::: and : and 1:2",
        "http://example.org:8080/path and std::vector",
        ":not-an-emoji: and :also_not: stay",
    ],
)
def test_times_and_colons_stay_text(text: str) -> None:
    assert "<img" not in pymdownx_html(text)
    assert html_of(text, ICONS) == html_of(text, Dialect.PYTHON_MARKDOWN)
    assert page(text, ICONS).diagnostics == []


def test_code_is_never_read_for_shortcodes() -> None:
    text = "`:smile:` and\n\n```\n:smile: :material-file-tree:\n```\n\n    :smile: indented\n"
    assert "twemoji" not in html_of(text)
    assert page(text).diagnostics == []


def test_shortcodes_are_read_only_in_the_emoji_dialect() -> None:
    text = ":smile: :material-file-tree:"
    plain = html_of(text, Dialect.PYTHON_MARKDOWN)
    assert "twemoji" not in plain and ":smile:" in plain
    # Twemoji alone (pymdownx's index, not Material's): icons are no emoji, and say nothing
    record = page(text, EMOJI)
    assert 'title=":smile:"' in record.html and ":material-file-tree:" in record.html
    assert "<svg" not in record.html and record.diagnostics == []


def test_an_escaped_colon_keeps_the_shortcode_as_text() -> None:
    text = r"\:smile:"
    assert "<img" not in pymdownx_html(text)
    assert "twemoji" not in html_of(text, EMOJI)


# --- icons ----------------------------------------------------------------------------------


def _sample_icons() -> list[str]:
    """Named icons of each set, and every 97th icon file of the installed theme."""
    named = [
        ":material-file-tree:",
        ":octicons-tag-24:",
        ":fontawesome-brands-github:",
        ":fontawesome-regular-face-smile:",
        ":simple-python:",
        ":logo:",
    ]
    roots = emoji.icon_roots()
    if not roots:
        return named
    files = sorted(roots[0].rglob("*.svg"))
    sampled = [":" + "-".join(f.relative_to(roots[0]).with_suffix("").parts) + ":" for f in files]
    return named + sampled[::97]


def test_icons_are_the_svg_material_publishes() -> None:
    codes = _sample_icons()
    text = "\n\n".join(codes)
    theirs = [m.strip() for m in _ICON.findall(material_html(text))]
    record = page(text)
    ours = [m.strip() for m in _ICON.findall(record.html)]
    assert len(theirs) == len(codes) > 100
    assert ours == theirs
    assert record.diagnostics == []


def test_an_icon_in_a_heading_leaves_the_id_as_python_markdown_makes_it() -> None:
    text = "## :material-clock-fast: Fast and :smile: small\n"
    theirs = re.search(r'<h2 id="([^"]+)"', material_html(text))
    assert theirs is not None
    record = markdown.extract_page(
        "docs/p.md", text.encode(), slugs=SlugStyle.MKDOCS, dialect=ICONS
    )
    assert record.headings[0].id == theirs.group(1)
    assert "<svg" in record.html


def test_the_emoji_token_carries_the_classes_of_an_attribute_list() -> None:
    # the contract with inline attribute lists: they set the token's attrs, the span shows
    # them after Material's own class, as attr_list adds them to Material's span
    pytest.importorskip("material", reason="mkdocs-material (the test extra) has the icon files")
    parser = markdown._parser(ICONS)
    tokens = parser.parse(":material-clock-fast:", {})
    token = next(t for t in tokens[1].children or () if t.type == "emoji")
    token.attrs.update({"class": "lg middle", "id": "fast"})
    ours = parser.renderer.render(tokens, parser.options, {})
    theirs = material_html(":material-clock-fast:{ .lg .middle #fast }")
    assert (
        _span_attributes(ours)
        == _span_attributes(theirs)
        == [
            ("class", "twemoji lg middle"),
            ("id", "fast"),
        ]
    )


def test_an_attribute_list_after_an_icon_sizes_it_as_material_does() -> None:
    # end to end with sitegen's inline attribute lists (sitegen/docs/attributes.py)
    text = ":material-clock-fast:{ .lg .middle } Set up in 5 minutes"
    ours = html_of(text, ICONS | Dialect.ATTR_LIST)
    assert _span_attributes(ours) == _span_attributes(material_html(text))
    assert "{" not in ours


def _span_attributes(fragment: str) -> list[tuple[str, str]]:
    found = re.search(r"<span[^>]*>", fragment)
    assert found is not None, fragment
    return re.findall(r'(class|id)="([^"]*)"', found.group())


def test_an_unknown_icon_stays_text_with_one_warning_per_page() -> None:
    pytest.importorskip("material", reason="mkdocs-material (the test extra) has the icon files")
    text = (
        "# T\n\nSee `:material-nope:` and :material-nope: and\n:octicons-nope-16: :material-nope:\n"
    )
    record = page(text)
    assert [d.code for d in record.diagnostics] == ["unknown-icon"]
    found = record.diagnostics[0]
    assert (found.line, found.col) == (3, 27)  # not the one in code before it
    assert ":material-nope:, :octicons-nope-16:" in found.message
    assert record.html.count(":material-nope:") == 3 and "<svg" not in record.html


def test_without_an_installed_icon_set_icons_stay_text_and_say_why(no_icon_sets: None) -> None:
    assert emoji.icon_roots() == ()
    record = page("Text :material-file-tree: and :fontawesome-brands-github: :smile:\n")
    assert ":material-file-tree:" in record.html and "<svg" not in record.html
    assert 'title=":smile:"' in record.html  # emoji need no theme
    [found] = record.diagnostics
    assert found.code == "unknown-icon" and (found.line, found.col) == (1, 6)
    assert ":material-file-tree:, :fontawesome-brands-github:" in found.message
    assert "not installed" in found.message


def test_icon_names_map_onto_folders_as_material_maps_them(icon_folder: Path) -> None:
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0h24"/></svg>'
    (icon_folder / "fontawesome" / "brands").mkdir(parents=True)
    (icon_folder / "fontawesome" / "brands" / "git-hub.svg").write_text(svg)
    (icon_folder / "material").mkdir()
    (icon_folder / "material" / "file-tree.svg").write_text(svg)
    out = html_of(":fontawesome-brands-git-hub: :material-file-tree: :fontawesome-git-hub:")
    assert out.count(svg) == 2 and ":fontawesome-git-hub:" in out


@pytest.mark.parametrize(
    "svg",
    [
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><path d="M0 0"/></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0" onclick="x()"/></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg"><a href="https://x.org"><path d="M0"/></a></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg"><use href="https://x.org/a.svg#i"/></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg"><path xlink:href="#a" d="M0"/></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg"><path style="fill: url(https://x.org)"/></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"/></svg><img src=x onerror=y>',
        '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0">text</path></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg"><!-- a --!><script>x</script> --></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><p>x</p></foreignObject></svg>',
        '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><path d="M0"/></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 &#x3c;"/></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0"/>',
        '<svg xmlns="http://www.w3.org/2000/svg" />',
    ],
)
def test_an_icon_file_that_is_not_a_plain_svg_of_paths_is_not_published(
    icon_folder: Path, svg: str
) -> None:
    assert not emoji.safe_svg(svg)
    (icon_folder / "material").mkdir()
    (icon_folder / "material" / "bad.svg").write_text(svg)
    record = page(":material-bad:")
    assert ":material-bad:" in record.html and "<svg" not in record.html
    assert [d.code for d in record.diagnostics] == ["unknown-icon"]
    assert "the icon shortcode :material-bad: is shown as text" in record.diagnostics[0].message


def test_comments_paint_and_self_closed_paths_are_plain_svg() -> None:
    assert emoji.safe_svg(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 89 89" aria-hidden="true">\n'
        "  <!--! Font Awesome Free - licence -->\n"
        '  <path d="M3.1,17.3l0,42.9Z" />\n'
        '  <path d="M21.9 8z" style="fill-opacity: 0.5" fill-rule="evenodd"></path>\n'
        "</svg>"
    )


def test_an_icon_file_over_the_size_cap_is_not_read(icon_folder: Path) -> None:
    big = '<svg xmlns="http://www.w3.org/2000/svg"><path d="' + "M0 0" * 40_000 + '"/></svg>'
    assert emoji.safe_svg(big) and len(big) > emoji.MAX_SVG_BYTES
    (icon_folder / "material").mkdir()
    (icon_folder / "material" / "big.svg").write_text(big)
    assert "<svg" not in html_of(":material-big:")


# --- cost -----------------------------------------------------------------------------------


def test_gated_and_ungated_render_the_same() -> None:
    parser = markdown._parser(ICONS)
    assert parser.gates is not None
    assert {("inline", "sitegen_emoji"), ("core", "sitegen_unknown_icons")} <= {
        (ruler, name) for ruler, name, _ in parser.gates.gates
    }
    texts = ["plain words: no code", ":smile: and :material-file-tree: at 10:30:00", "a: b:"]
    for text in texts:
        gated = page(text)
        gates, parser.gates = parser.gates, None
        assert gates is not None
        gates.open_all()
        try:
            assert page(text) == gated
        finally:
            parser.gates = gates


def _seconds(text: str, dialect: Dialect) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        page(text, dialect)
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.parametrize(
    "unit", [":", ":a", "::smile", ":smile:", ":material-", ":+-_:x", "10:30:00 "]
)
def test_long_lines_of_colons_are_linear(unit: str) -> None:
    small = unit * (10_000 // len(unit))
    big = small * 4
    assert _seconds(big, ICONS) < 8 * _seconds(small, ICONS) + 0.05
    # and near what the same line costs without shortcodes
    assert _seconds(big, ICONS) < 4 * _seconds(big, Dialect.PYTHON_MARKDOWN) + 0.25


def test_a_page_with_icons_is_cached_under_the_installed_icon_sets(no_icon_sets: None) -> None:
    # icons come from the theme sitegen runs with: installing it extracts the page again
    without = markdown.record_key("h", SlugStyle.MKDOCS, ICONS)
    emoji_only = markdown.record_key("h", SlugStyle.MKDOCS, EMOJI)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(emoji, "icon_roots", lambda: (Path("/themes/material/.icons"),))
        assert markdown.record_key("h", SlugStyle.MKDOCS, ICONS) != without
        assert markdown.record_key("h", SlugStyle.MKDOCS, EMOJI) == emoji_only
