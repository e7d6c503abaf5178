"""Include and directive syntaxes of other generators that sitegen does not run: each one found
is a warning at its line, never silent raw text (content/syntax/unsupported.md).

A core rule after the inline parse (code spans are not text, so they are not scanned) over
paragraphs, HTML blocks and fences; it never changes what is rendered.
"""

from __future__ import annotations

import re

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from sitegen.docs.blocks import report
from sitegen.docs.positions import ENV_SOURCE, PageText

#: (pattern, what it is) for text in paragraphs.
_IN_TEXT = (
    (
        re.compile(r"\{%-?\s*(include|include_relative|include_cached)\b[^%]*%\}"),
        "the Liquid/Jinja include '{text}' (Jekyll, mkdocs-macros) is not run; it is shown as text",
    ),
    (
        re.compile(r"\{!\s*[^!{}]+?\s*!\}"),
        "the markdown-include '{text}' is not run; it is shown as text",
    ),
    (
        re.compile(r"^\s*:{3,}\s*\{[A-Za-z][\w:-]*\}.*$", re.MULTILINE),
        "the MyST directive '{text}' is not supported; it is shown as text",
    ),
    (
        re.compile(r"^\s*-{1,2}8<-{1,2}\s.*$", re.MULTILINE),
        (
            "the pymdownx snippet '{text}' is not included: sitegen includes the one-line form "
            '--8<-- "file" (content/syntax/snippets.md); it is shown as text'
        ),
    ),
)
_IN_HTML = re.compile(r"<!--\s*@?include[:\s][^>]*-->", re.IGNORECASE)
_MYST_FENCE = re.compile(r"\{[A-Za-z][\w:-]*\}")


def report_unsupported(state: StateCore) -> None:
    source = state.env.get(ENV_SOURCE)
    if not isinstance(source, PageText):
        return
    for token in state.tokens:
        if not token.map:
            continue
        if token.type == "inline" and token.children:
            _scan(state, source, token.map, _IN_TEXT, _text_of(token.children))
        elif token.type == "html_block":
            _scan(
                state,
                source,
                token.map,
                (
                    (
                        _IN_HTML,
                        (
                            "the include comment '{text}' (VitePress, markdown-include) "
                            "is not run; nothing is included"
                        ),
                    ),
                ),
            )
        elif token.type == "fence" and _MYST_FENCE.match(token.info.strip()):
            index = source.line_starts[token.map[0]]
            report(
                state,
                index,
                f"the MyST directive '```{token.info.strip()}' is not "
                "supported; it is shown as code",
                "unsupported-syntax",
            )


def _text_of(children: list[Token]) -> str:
    """The plain text of inline content (code spans and HTML left out), lines kept."""
    return "".join(
        c.content if c.type == "text" else "\n"
        for c in children
        if c.type in ("text", "softbreak", "hardbreak")
    )


def _scan(
    state: StateCore,
    source: PageText,
    lines: list[int],
    patterns: tuple[tuple[re.Pattern[str], str], ...],
    text: str | None = None,
) -> None:
    """Report each match in ``text`` (default: the source lines), placed at its first
    occurrence in the lines."""
    start = source.line_starts[lines[0]]
    stop = source.line_end(max(lines[1] - 1, lines[0]))
    for pattern, message in patterns:
        cursor = start
        for found in pattern.finditer(
            source.text if text is None else text, *((start, stop) if text is None else ())
        ):
            written = found.group(0).strip()
            at = source.text.find(written, cursor, stop)
            cursor = at + len(written) if at >= 0 else cursor
            report(
                state,
                at if at >= 0 else start,
                message.format(text=written[:80]),
                "unsupported-syntax",
            )
