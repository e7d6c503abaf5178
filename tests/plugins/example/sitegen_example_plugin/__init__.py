"""sitegen's example plugin (content/guides/plugins.md): one of each kind.

- a syntax, ``:kbd[Ctrl+C]``, drawn as ``<kbd>Ctrl+C</kbd>``;
- an output, ``/plugin-pages.txt``, every published page's path and title, one a line;
- a check, ``todo-left``, a finding for each line of a page that holds ``TODO``.

It reads only what sitegen hands it, fetches nothing and writes only through the site's
writer, as every plugin must.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererProtocol
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from sitegen.analyse.check import Finding
from sitegen.analyse.checks import Check
from sitegen.base.paths import OutPath
from sitegen.docs.registry import Syntax
from sitegen.records.result import BuildResult
from sitegen.site.emitter import EmitRun, OneFile

#: Nothing here holds threads, sockets or locks: safe in sitegen's forked workers.
SITEGEN_FORK_SAFE = True

_OPEN = ":kbd["


def _kbd(state: StateInline, silent: bool) -> bool:
    """``:kbd[keys]`` on one line, the keys without ``]``."""
    start = state.pos
    if not state.src.startswith(_OPEN, start):
        return False
    end = state.src.find("]", start + len(_OPEN), state.posMax)
    keys = state.src[start + len(_OPEN) : end] if end >= 0 else ""
    if not keys or "\n" in keys:
        return False
    if not silent:
        token = state.push("example_kbd", "kbd", 0)
        token.content = keys
    state.pos = end + 1
    return True


def _render_kbd(
    renderer: RendererProtocol,
    tokens: list[Token],
    idx: int,
    options: OptionsDict,
    env: EnvType,
) -> str:
    from markdown_it.common.utils import escapeHtml

    return f'<kbd class="example-kbd">{escapeHtml(tokens[idx].content)}</kbd>'


def _install(md: MarkdownIt) -> None:
    md.inline.ruler.before("emphasis", "example_kbd", _kbd)
    md.add_render_rule("example_kbd", _render_kbd)


SYNTAX = Syntax(
    name="example-kbd",
    install=_install,
    markers=lambda text: _OPEN in text,
)


class PluginPages(OneFile):
    """``/plugin-pages.txt``: each published page's path and title, tab-separated."""

    name = "plugin-pages.txt"
    file = OutPath("plugin-pages.txt")

    def render(self, run: EmitRun, out: OutPath) -> str:
        pages = sorted(run.site.result.pages, key=lambda p: p.path)
        return "".join(f"{p.path}\t{p.title}\n" for p in pages)


OUTPUT = PluginPages()


def _todo_left(result: BuildResult) -> list[Finding]:
    found = []
    for page in result.crawl.pages:
        for number, line in enumerate(page.data.decode("utf-8", "replace").splitlines(), 1):
            col = line.find("TODO")
            if col >= 0:
                found.append(
                    Finding(
                        "todo-left",
                        page.path,
                        number,
                        col + 1,
                        "a TODO is left in the page",
                        f"{page.path}: {line.strip()}",
                    )
                )
    return found


CHECKS = [
    Check(
        name="todo-left",
        default_severity="warn",
        findings=_todo_left,
        doc="pages that still hold a TODO",
    )
]
