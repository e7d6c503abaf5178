"""One URL gate for every link sitegen writes (content/guides/safety.md, "Links that cannot run").

Every place that emits an ``href`` or a ``src`` is listed in ``PLACES`` and fed every URL of
the sanitizer's attack table (tests/docs/test_sanitize.py), written in that place's syntax.
The oracle is the sanitizer tests' ``unsafe_parts``: the standard library's HTML parser, not
the gate. Each place is also fed a safe URL, which must come out as a link: so every entry
of ``PLACES`` is shown to be a place that emits a URL.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.addresses import HTML_ADDRESSES
from sitegen.base.paths import OutPath
from sitegen.base.urlgate import allowed_url, url_scheme
from sitegen.docs.markdown import extract_page
from sitegen.graph.model import Graph
from sitegen.link.rules import SiteIndex
from sitegen.link.step import link_all
from sitegen.site.outputs import pages as pages_module
from sitegen.site.outputs.pages import substitute_links
from sitegen.site.render import safe_href
from tests.docs.test_sanitize import ATTACKS, URL_ATTRIBUTES, Published, unsafe_parts
from tests.e2e.conftest import run_cli, write_project


def _attack_urls() -> list[str]:
    """Every URL the attack table puts in a URL attribute that the oracle calls unsafe, as a
    browser reads it (entities decoded), plus the spellings only a URL parser cares about."""
    found: list[str] = []
    for attack in ATTACKS:
        for tag, attrs in Published(attack).tags:
            found += [v for k, v in attrs.items() if k in URL_ATTRIBUTES and _bad_url(tag, k, v)]
    found += [
        "\tjavascript:alert(1)",
        "java\nscript:alert(1)",
        "\x01javascript:alert(1)",
        "JAVASCRIPT:alert(1)",
        "vbscript:msgbox(1)",
        "livescript:x",
        "data:text/html;base64,PHNjcmlwdD4=",
        "data:image/svg+xml,<svg onload=alert(1)>",  # an image type, but not as an image
    ]
    return sorted(set(found))


def _bad_url(tag: str, name: str, value: str) -> bool:
    """What the oracle says of this URL alone, in a tag it does not forbid."""
    neutral = tag if tag in ("img", "source") else "a"
    return bool(unsafe_parts(f'<{neutral} {name}="{_q(value)}">'))


def _q(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;")


URL_ATTACKS = _attack_urls()
SAFE = "https://example.org/ok"


def test_the_table_gives_every_kind_of_attack() -> None:
    schemes = {url_scheme(u) for u in URL_ATTACKS}
    assert {"javascript", "vbscript", "data"} <= schemes
    assert len(URL_ATTACKS) >= 12


@pytest.mark.parametrize("url", URL_ATTACKS)
def test_the_gate_refuses_every_attack(url: str) -> None:
    assert not allowed_url(url)
    assert not allowed_url(url, image=not url.lower().lstrip().startswith("data:image/"))
    assert safe_href(url) == "#"


@pytest.mark.parametrize(
    "url, image, allowed",
    [
        ("guide.md", False, True),
        ("../a b.html#x", False, True),
        ("#top", False, True),
        ("/abs/path", False, True),
        ("//cdn.example.org/x.png", True, True),
        ("https://example.org/?q=javascript:x", False, True),
        ("HTTPS://EXAMPLE.ORG", False, True),
        ("mailto:a@example.org", False, True),
        ("tel:+1555", False, True),
        ("data:image/png;base64,iVBORw0KGgo=", True, True),
        ("data:image/png;base64,iVBORw0KGgo=", False, False),
        ("file:///etc/passwd", False, False),
        ("vscode://open", False, False),
        ("java%3Ascript:x", False, True),  # a percent sign ends the scheme: a relative path
    ],
)
def test_the_gate_is_the_sanitizers_allow_list(url: str, image: bool, allowed: bool) -> None:
    assert allowed_url(url, image=image) is allowed


#: Every syntax that writes a URL into a page, as an author writes it there. Each takes the
#: URL and gives a page body.
PLACES: dict[str, Callable[[str], str]] = {
    "markdown link": lambda u: f"[x](<{u}>)",
    "bare destination": lambda u: f"[x]({u})",
    "reference link": lambda u: f"[x][r]\n\n[r]: <{u}>",
    "autolink": lambda u: f"<{u}>",
    "image": lambda u: f"![x](<{u}>)",
    "wikilink": lambda u: f"[[{u}]]",
    "wikilink with alias": lambda u: f"[[{u}|label]]",
    "wikilink embed": lambda u: f"![[{u}]]",
    "wikilink image embed": lambda u: f"![[{u}.png]]",
    "autoref": lambda u: f"[x][{u}]",
    "raw html link": lambda u: f'<a href="{_q(u)}">x</a>',
    "raw html image": lambda u: f'<img src="{_q(u)}" alt="x">',
    "raw html srcset": lambda u: f'<picture><source srcset="{_q(u)}"><img src="a.png"></picture>',
    "math href": lambda u: f"$$\\href{{{u}}}{{x}}$$",
    "inline math href": lambda u: f"$\\href{{{u}}}{{x}}$",
    "callout title": lambda u: f'!!! note "[t](<{u}>)"\n    body',
    "github alert": lambda u: f"> [!NOTE]\n> [t](<{u}>)",
    "tab title": lambda u: f'=== "[t](<{u}>)"\n\n    body',
    "footnote": lambda u: f"a[^1]\n\n[^1]: [x](<{u}>)",
    "heading": lambda u: f"# [x](<{u}>)",
    "table cell": lambda u: f"| a |\n|---|\n| [x](<{u}>) |",
}


def _unsafe(html: str) -> list[str]:
    """The oracle's findings, sitegen's own MathML and tab radios aside (the sanitizer drops
    an author's)."""
    ours = html.replace(f"<math {_MATHML_NS}", "<sitegen-math")
    return unsafe_parts(ours.replace('<input type="radio" class="tabbed-input"', "<sitegen-tab"))


_MATHML_NS = 'xmlns="http://www.w3.org/1998/Math/MathML"'


def _published(body: str) -> str:
    """The page's HTML as the site publishes it: extracted, linked, its links substituted."""
    text = f"# Page\n\n{body}\n"
    index = SiteIndex("content", {"content/p.md"}, {"content/a.png"}, set(), {"content"})
    rec = extract_page("content/p.md", text.encode())
    linked = link_all(index, [rec], [], {}, lambda _path: None)
    graph: Graph = linked.graph
    resolutions = linked.resolutions["/p.md"]
    return substitute_links(rec, resolutions, OutPath("p.html"), graph, HTML_ADDRESSES)


#: An autoref names a symbol, not a URL: its href is made from the code graph, so an author
#: cannot write one there (the attacks still go through it, as text).
_NAMES_NOT_URLS = {"autoref"}


@pytest.mark.parametrize("place", sorted(PLACES.keys() - _NAMES_NOT_URLS))
def test_every_place_emits_a_safe_url(place: str) -> None:
    html = _published(PLACES[place](SAFE))
    urls = [v for _, attrs in Published(html).tags for k, v in attrs.items() if k in URL_ATTRIBUTES]
    assert any(SAFE in u for u in urls), (place, html)


@pytest.mark.parametrize("place", sorted(PLACES))
def test_no_place_publishes_an_attack_url(place: str) -> None:
    for url in URL_ATTACKS:
        html = _published(PLACES[place](url))
        assert _unsafe(html) == [], (place, url, html)
        assert "\ue000" not in html


def test_without_the_gate_a_wikilink_runs_script(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table above can fail: with the gate open, the first row of issue 18 comes back."""
    monkeypatch.setattr(pages_module, "allowed_url", lambda _url, image=False, href=False: True)
    assert _unsafe(_published("[[javascript:alert(1)]]"))


def test_a_refused_link_is_text_with_the_classes_of_its_syntax() -> None:
    html = _published("[[javascript:alert(1)]]")
    assert '<a class="wikilink">javascript:alert(1)</a>' in html
    # a broken wikilink has one class attribute holding both classes
    broken = _published("[[No such page]]")
    assert 'class="wikilink broken-link"' in broken
    assert broken.count("class=") == 2  # the permalink's and the link's


def test_a_refused_link_is_reported_where_it_is_written() -> None:
    index = SiteIndex("content", {"content/p.md"}, set(), set(), {"content"})
    rec = extract_page("content/p.md", b"# P\n\nsee [x](data:image/png;base64,AAAA)\n")
    linked = link_all(index, [rec], [], {}, lambda _path: None)
    assert [(d.line, d.col, d.code, d.message) for d in linked.diagnostics] == [
        (
            3,
            5,
            "unsafe-url",
            "link 'data:image/png;base64,AAAA': the scheme 'data:' is not one a page may "
            "link to; it is published as text",
        )
    ]


@pytest.mark.slow  # one whole build
def test_a_built_site_publishes_no_attack_url(tmp_path: Path) -> None:
    """The same table through ``sitegen build``: templates, backlinks and all."""
    pages = {
        f"content/{i}.md": f"# Place {i}\n\n"
        + "\n\n".join(PLACES[place](u) for u in URL_ATTACKS)
        + "\n"
        for i, place in enumerate(sorted(PLACES))
    }
    root = write_project(
        tmp_path / "proj",
        {
            **pages,
            "content/index.md": "# Home\n\n[[javascript:alert(1)]]\n",
            "sitegen.toml": 'source = []\nrepo_url = "javascript:alert(1)"\n',
        },
    )
    built = run_cli("build", "--root", str(root), "--quiet")
    assert built.returncode == 0, built.stderr
    published = sorted((root / "site").glob("*.html"))
    assert len(published) >= len(PLACES) + 1
    for page in published:
        html = page.read_text(encoding="utf-8")
        urls = [(t, k, v) for t, attrs in Published(html).tags for k, v in attrs.items()]
        assert [u for u in urls if u[1] in URL_ATTRIBUTES and _bad_url(*u)] == [], page.name
        if "<article" in html:
            body = html[html.index("<article") : html.index("</article>")]
            assert _unsafe(body) == [], page.name
    assert 'class="edit-link"' not in (root / "site" / "index.html").read_text()
