"""A link whose target is a template expression (``{{ user.url }}``, ``{% url 'x' %}``) is
the project's generator's to fill in (mkdocs-macros, Jinja, Vue): sitegen keeps it as
written, makes no edge and reports no broken link for it, but one ``unsupported-syntax``
warning per page at the first such link, unless the page already says that its template
syntax is not run (issue 21: no false alarms; FastAPI's docs gave 26 broken links for
``{{ user.url }}`` inside their template loops).

The fixture below was written for these tests; its positions are counted by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.conftest import run_cli, write_project

PAGE = """# People

<a href="{{ user.url }}" class="user">{{ user.login }}</a>

See [them](<{{ sponsor.url }}>), [the list](%7B%7B%20people.url%20%7D%7D)
and [a missing page](missing.md).
"""


def _build(root: Path) -> list[str]:
    done = run_cli("build", "--jobs", "1", cwd=root)
    assert done.returncode == 0, done.stderr
    return [line for line in done.stderr.splitlines() if ": warning: " in line]


def test_template_targets_are_one_warning_no_broken_link_and_no_edge(tmp_path: Path) -> None:
    links_only = "# Links\n\nSee [them](<{{ sponsor.url }}>) and [more](<{% url 'x' %}>).\n"
    root = write_project(
        tmp_path / "p",
        {"sitegen.toml": 'content = "docs"\n', "docs/index.md": PAGE, "docs/links.md": links_only},
    )
    assert _build(root) == [
        # The page's text already says its template syntax is not run: no second line.
        "docs/index.md:3:39: warning: the template expression '{{ user.login }}' (Vue, Jinja, "
        "mkdocs-macros) is not evaluated; it is shown as text",
        "docs/index.md:6:5: warning: link target 'missing.md' does not exist "
        "(looked for 'docs/missing.md').",
        # Template syntax in link targets only: one line for the page, at the first.
        "docs/links.md:3:5: warning: link target '{{ sponsor.url }}' is a template expression, "
        "which sitegen does not evaluate; the link is kept as written and not checked "
        "(1 more on this page)",
    ]
    graph = json.loads((root / "site" / "graph.json").read_text(encoding="utf-8"))
    targets = {e["to"] for e in graph["edges"]}
    assert targets == {"/missing.md"}
    html = (root / "site" / "index.html").read_text(encoding="utf-8")
    # kept as written, as a browser would request it (the URL encoded, like every link)
    assert 'href="%7B%7B%20user.url%20%7D%7D"' in html
    assert html.count('class="broken-link"') == 1  # the missing page only


def test_explain_says_a_template_target_is_not_checked(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "p", {"sitegen.toml": 'content = "docs"\n', "docs/index.md": PAGE}
    )
    done = run_cli("explain", "docs/index.md:3", "--json", cwd=root)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert "template expression" in json.dumps(said)


def test_what_counts_as_a_template_target() -> None:
    from sitegen.link.rules import _is_template

    assert _is_template("{{ user.url }}") and _is_template("{% url 'x' %}/a")
    assert not _is_template("{{ not closed") and not _is_template("a }} then {{")
    assert not _is_template("{%" * 100_000)  # many openers, no closer: one scan, no rescans
