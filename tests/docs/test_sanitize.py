"""Raw HTML in pages is safe by default: GitHub's allow-list model (content/guides/site.md).

The oracle for "safe" is the standard library's HTML parser, not the sanitizer: every tag
and attribute of the published HTML is checked against what may run code, submit a form,
load a frame or restyle the page.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sitegen.base.urlgate import allowed_url
from sitegen.docs import sanitize as sanitize_module
from sitegen.docs.markdown import extract_page
from sitegen.docs.sanitize import RawHtml, theme_classes
from sitegen.records.pages import PageRecord
from tests.e2e.conftest import run_cli, write_project

FORBIDDEN_TAGS = {
    "script",
    "style",
    "iframe",
    "frame",
    "frameset",
    "object",
    "embed",
    "applet",
    "form",
    "input",
    "button",
    "select",
    "textarea",
    "option",
    "base",
    "meta",
    "link",
    "svg",
    "math",
    "template",
    "noscript",
    "isindex",
    "keygen",
    "portal",
}
URL_ATTRIBUTES = {
    "href",
    "src",
    "srcset",
    "action",
    "formaction",
    "cite",
    "data",
    "poster",
    "background",
    "xlink:href",
    "longdesc",
    "ping",
}


class Published(HTMLParser):
    """Every start tag with its attributes, entities decoded as a browser decodes them."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    handle_startendtag = handle_starttag


def unsafe_parts(html: str) -> list[str]:
    found = []
    for tag, attrs in Published(html).tags:
        if tag in FORBIDDEN_TAGS and not _sitegen_checkbox(tag, attrs):
            found.append(f"<{tag}>")
        for name, value in attrs.items():
            if name.startswith("on") or name == "style":
                found.append(f"{tag} {name}")
            if name in URL_ATTRIBUTES:
                url = re.sub(r"[\x00-\x20]", "", value).lower()
                image = tag in ("img", "source") and url.startswith("data:image/")
                if url.startswith(("javascript:", "vbscript:", "livescript:")) or (
                    url.startswith("data:") and not image
                ):
                    found.append(f"{tag} {name}={value}")
    return found


def _sitegen_checkbox(tag: str, attrs: dict[str, str]) -> bool:
    return (
        tag == "input"
        and attrs.get("class") == "task-list-item-checkbox"
        and attrs.get("type") == "checkbox"
        and "disabled" in attrs
    )


def html_of(text: str, mode: RawHtml = RawHtml.SANITIZE) -> str:
    rec = (
        extract_page("page.md", text.encode())
        if mode == RawHtml.SANITIZE
        else extract_page("page.md", text.encode(), mode)
    )
    return published(rec)


def published(rec: PageRecord) -> str:
    """The page's HTML with each link's placeholder replaced as the emitter replaces that of a
    link to nothing of the site: by the URL as written, or, where the URL gate refuses it,
    without the attribute (tests/e2e/test_raw_html_site.py builds the real thing)."""

    def url(m: re.Match[str]) -> str:
        link = rec.links[int(m.group(2))]
        if not allowed_url(link.href, image=link.is_image):
            return ""
        return f' {m.group(1)}"{html.escape(link.href)}"'

    return re.sub(f' ((?:href|src)=)"{re.escape(rec.link_mark)}([0-9]+)"', url, rec.html)


ATTACKS = [
    "<script>alert(1)</script>",
    "text <script>alert(1)</script> text",
    "<scr<script>ipt>alert(1)</scr</script>ipt>",
    "<<script>script>alert(1)<</script>/script>",
    '<a href="javascript:alert(1)">x</a>',
    '<a href="JaVaScRiPt:alert(1)">x</a>',
    'a <a href="javascript&#58;alert(1)">x</a> b',
    '<a href="&#106;&#97;vascript:alert(1)">x</a>',
    '<a href="java&#x09;script:alert(1)">x</a>',
    '<a href="  javascript:alert(1)">x</a>',
    '<a href="vbscript:msgbox(1)">x</a>',
    '<a href="data:text/html,<script>alert(1)</script>">x</a>',
    '<img src="data:text/html;base64,PHNjcmlwdD4=">',
    '<img srcset="javascript:alert(1) 1x, data:text/html,x 2x" src="a.png">',
    '<picture><source srcset="data:text/html,<script>alert(1)</script>"><img src=a.png></picture>',
    '<blockquote cite="javascript:alert(1)">q</blockquote>',
    "<img src=x onerror=alert(1)>",
    "inline <img src=x onerror=alert(1)> image",
    '<img src="x" ONERROR="alert(1)">',
    "<img src=x onerror=alert(1)//",
    "<svg onload=alert(1)>",
    "<svg><script>alert(1)</script></svg>",
    "<math><mtext><script>alert(1)</script></mtext></math>",
    '<iframe src="https://example.org"></iframe>',
    '<iframe srcdoc="<script>alert(1)</script>">',
    "<frameset><frame src=x></frameset>",
    '<object data="x.swf"></object><embed src="x.swf">',
    '<form action="https://evil.example"><input name="q"><button formaction="x">go</button></form>',
    'a <input type="checkbox" checked> b',
    "<style>body { display: none }</style>",
    "a <style>* { color: red }</style> b",
    '<div style="position:fixed;top:0">cover</div>',
    '<base href="https://evil.example/">',
    '<meta http-equiv="refresh" content="0;url=https://evil.example">',
    '<link rel="stylesheet" href="https://evil.example/x.css">',
    '<details open ontoggle="alert(1)"><summary>x</summary></details>',
    '<a href="x" onmouseover="alert(1)" target="_blank">x</a>',
    "<textarea><script>alert(1)</script></textarea>",
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
    "<template><script>alert(1)</script></template>",
    "<!--><script>alert(1)</script>-->",
    '<a href="x">split *across* tokens</a> <a href="javascript:alert(1)">and *this*</a>',
    "<div\n\nonclick=alert(1)>x</div>",
    '<span title="\ue000<0\ue001">forged placeholder</span> [a](b.md)',
]


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("where", ["block", "list item", "quote", "table", "heading"])
def test_no_attack_survives(attack: str, where: str) -> None:
    one_line = attack.replace("\n", " ")
    text = {
        "block": attack + "\n\nafter [l](x.md)\n",
        "list item": "- " + attack.replace("\n", "\n  ") + "\n- next\n",
        "quote": "> " + attack.replace("\n", "\n> ") + "\n",
        "table": "| a | b |\n|---|---|\n| " + one_line.replace("|", "\\|") + " | c |\n",
        "heading": "# " + one_line + "\n",
    }[where]
    html = html_of(text)
    assert unsafe_parts(html) == [], html
    assert "\ue000" not in html and "\ue001" not in html


def test_the_attack_list_is_unsafe_when_allowed() -> None:
    """The oracle sees these attacks: with ``allow`` most of them reach the page. Not the
    ten in the URL of an ``<a href>`` or ``<img src>``: sitegen writes that URL itself, in
    every mode, through the URL gate (tests/docs/test_raw_html_links.py)."""
    flagged = [a for a in ATTACKS if unsafe_parts(html_of(a + "\n", RawHtml.ALLOW))]
    assert len(flagged) >= len(ATTACKS) - 4 - 10


KEPT = [
    (
        "<details>\n<summary>More</summary>\n\nInside *md* text.\n\n</details>\n",
        "<details>\n<summary>More</summary>\n<p>Inside <em>md</em> text.</p>\n</details>\n",
    ),
    (
        "Press <kbd>Ctrl</kbd>+<kbd>C</kbd>; H<sub>2</sub>O, x<sup>2</sup>,<br>next\n",
        "<p>Press <kbd>Ctrl</kbd>+<kbd>C</kbd>; H<sub>2</sub>O, x<sup>2</sup>,<br>next</p>\n",
    ),
    (
        '<p align="center"><img src="logo.png" alt="Logo" width="120" height="40"></p>\n',
        '<p align="center"><img src="logo.png" alt="Logo" width="120" height="40"></p>\n',
    ),
    (
        '<a href="https://example.org" title="T" id="top" name="top">x</a>\n',
        '<p><a href="https://example.org" title="T" id="top" name="top">x</a></p>\n',
    ),
    (
        '<a href="https://example.org/?q=data:x">q</a> <img srcset="a.png 1x, b.png 2x">\n',
        '<p><a href="https://example.org/?q=data:x">q</a> <img srcset="a.png 1x, b.png 2x"></p>\n',
    ),
    (
        '<span id="s1" class="note">a <em>b</em></span>\n',
        '<p><span id="s1" class="note">a <em>b</em></span></p>\n',
    ),
    (
        '<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">\n',
        '<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">\n',
    ),
    (
        (
            '<picture>\n<source media="(prefers-color-scheme: dark)" srcset="dark.png">\n'
            '<img src="light.png" alt="Logo">\n</picture>\n'
        ),
        (
            '<picture>\n<source media="(prefers-color-scheme: dark)" srcset="dark.png">\n'
            '<img src="light.png" alt="Logo">\n</picture>\n'
        ),
    ),
    (
        '<table>\n<tr><th>A</th><td colspan="2">B</td></tr>\n</table>\n',
        '<table>\n<tbody><tr><th>A</th><td colspan="2">B</td></tr>\n</tbody></table>\n',
    ),
    ("x <!-- a comment --> y\n", "<p>x  y</p>\n"),
]


@pytest.mark.parametrize("text, expected", KEPT)
def test_what_docs_use_is_kept(text: str, expected: str) -> None:
    assert html_of(text) == expected


def test_html_split_across_tokens_keeps_its_nesting() -> None:
    # an inline tag opened and closed around markdown, in separate html_inline tokens
    assert html_of('a <span class="x">b *c* [d](e.md)</span> f\n').startswith(
        '<p>a <span class="x">b <em>c</em> <a href="e.md">d</a></span> f</p>'
    )
    # a tag left open is closed where its paragraph ends, not at the end of the page
    assert html_of("a <b>bold\n\nnext\n") == "<p>a <b>bold</b></p>\n<p>next</p>\n"
    # ... or where its list item ends; a stray closing tag is dropped
    assert html_of("- <div>\n- x\n\n</div>\n") == (
        "<ul>\n<li>\n<div>\n</div></li>\n<li>x</li>\n</ul>\n\n"
    )


def test_theme_classes_are_not_lent_to_authors() -> None:
    assert {"sidebar", "permalink", "backlinks"} <= theme_classes()
    assert html_of('<div class="sidebar note permalink">x</div>\n') == '<div class="note">x</div>\n'


def test_sitegen_markup_is_not_sanitized() -> None:
    page = "# Title <kbd>K</kbd>\n\n- [ ] task <b>x</b>\n- [x] done\n"
    html = html_of(page)
    assert '<a class="permalink" href="#title-k" aria-label="Permalink">#</a>' in html
    assert html.count('<input class="task-list-item-checkbox"') == 2
    assert unsafe_parts(html) == []


def test_a_page_without_raw_html_renders_exactly_as_markdown_it_does() -> None:
    page = (
        '# T\n\n- [ ] task\n- *a* `b` [c](d.md "t")\n\n> q\n\n| x | y |\n|:-|-:|\n| 1 | 2 |\n\n'
        "```py\ncode <b>\n```\n\ntext[^1]\n\n[^1]: note\n\n![i](i.png) <https://x.org>\n"
    )
    assert html_of(page) == html_of(page, RawHtml.ALLOW)


def test_escape_shows_raw_html_as_text() -> None:
    assert html_of("<script>alert(1)</script>\n", RawHtml.ESCAPE) == (
        "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"
    )
    assert html_of("a <b>x</b> c\n", RawHtml.ESCAPE) == "<p>a &lt;b&gt;x&lt;/b&gt; c</p>\n"


def test_allow_passes_raw_html_through() -> None:
    text = '<div onclick="x()">a</div>\n\nb <script>y()</script>\n'
    assert (
        html_of(text, RawHtml.ALLOW)
        == '<div onclick="x()">a</div>\n<p>b <script>y()</script></p>\n'
    )


def test_links_are_the_same_in_every_mode() -> None:
    text = "<details>\n<summary>S</summary>\n\n[a](a.md) <b>[b](b.md)</b>\n\n</details>\n"
    recs = [extract_page("p.md", text.encode(), mode) for mode in RawHtml]
    assert len({tuple(r.links) for r in recs}) == 1
    assert [link.href for link in recs[0].links] == ["a.md", "b.md"]


def test_cleaning_is_linear_in_the_raw_html(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each raw byte goes through nh3 once, however the pieces nest."""
    cleaned: list[int] = []
    real = sanitize_module.sanitize
    monkeypatch.setattr(sanitize_module, "sanitize", lambda h: cleaned.append(len(h)) or real(h))

    def work(n: int) -> int:
        cleaned.clear()
        page = "\n\n".join(
            f"- <kbd>k{i}</kbd> [l](x.md)\n  - <details><summary>s</summary>\n\n"
            f"    text\n\n    </details>"
            for i in range(n)
        )
        extract_page("p.md", page.encode())
        return sum(cleaned)

    assert 3.5 < work(400) / work(100) < 4.5


@pytest.mark.slow  # a whole build per mode
@pytest.mark.parametrize("mode", ["sanitize", "escape", None])
def test_a_built_site_has_no_script_handler_or_javascript_url(
    tmp_path: Path, mode: str | None
) -> None:
    config = "source = []\n" + (f'raw_html = "{mode}"\n' if mode else "")
    root = write_project(
        tmp_path / "proj",
        {
            "content/index.md": "# Home\n\n" + "\n\n".join(ATTACKS) + "\n\n[next](next.md)\n",
            "content/next.md": "# Next <img src=x onerror=alert(1)>\n\n<details>\n<summary>S</summary>\n\n"
            "Body.\n\n</details>\n",
            "sitegen.toml": config,
        },
    )
    built = run_cli("build", "--root", str(root), "--quiet")
    assert built.returncode == 0, built.stderr
    assert "raw HTML in pages is published unsanitized" not in built.stdout + built.stderr
    for name in ("index.html", "next.html"):
        html = (root / "site" / name).read_text(encoding="utf-8")
        body = html[html.index("<article") : html.index("</article>")]
        assert unsafe_parts(body) == []
        # as markup: in text (escaped, or a broken tag shown as text) the words are harmless
        assert not re.search(
            r"<script|<[a-z][^<>]*(onerror\s*=|javascript:)", body, re.IGNORECASE
        ), body
    if mode != "escape":
        assert "<details>\n<summary>S</summary>\n<p>Body.</p>\n</details>" in (
            root / "site" / "next.html"
        ).read_text(encoding="utf-8")


@pytest.mark.slow  # three builds
def test_switching_modes_renders_again_and_allow_is_announced_once(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "proj",
        {
            "content/index.md": '# Home\n\n<b onclick="x()">hi</b>\n',
            "sitegen.toml": "source = []\n",
        },
    )
    published = root / "site" / "index.html"
    for mode, expected in [
        ("sanitize", "<b>hi</b>"),
        ("allow", '<b onclick="x()">hi</b>'),
        ("escape", "&lt;b onclick=&quot;x()&quot;&gt;hi&lt;/b&gt;"),
        ("sanitize", "<b>hi</b>"),
    ]:
        (root / "sitegen.toml").write_text(f'source = []\nraw_html = "{mode}"\n')
        built = run_cli("build", "--root", str(root))
        assert built.returncode == 0, built.stderr
        assert expected in published.read_text(encoding="utf-8"), mode
        notices = [
            line for line in (built.stdout + built.stderr).splitlines() if "raw_html" in line
        ]
        assert notices == (
            [
                (
                    'sitegen.toml:1:1: info: raw_html = "allow": raw HTML in pages is '
                    "published unsanitized"
                )
            ]
            if mode == "allow"
            else []
        )


def test_an_unknown_mode_is_one_sentence_and_exit_2(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "proj", {"content/index.md": "# Home\n", "sitegen.toml": 'raw_html = "strip"\n'}
    )
    built = run_cli("build", "--root", str(root))
    assert built.returncode == 2
    assert "Traceback" not in built.stderr
    assert built.stderr.strip().splitlines() == [
        f"error: {root / 'sitegen.toml'}: option 'raw_html' must be 'sanitize', 'escape' or 'allow'"
    ]
