"""Turns view objects into HTML through Jinja2 templates (autoescaped, strict), fast.

Templates come from the configured ``theme_dir`` first (read by sitegen.site.theme, inside the
root only), then the shipped ones; a template error is one ThemeError line. This module
never reads content or the graph, never writes files, and never emits unescaped content text.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.resources
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from jinja2 import (
    BaseLoader,
    ChoiceLoader,
    Environment,
    StrictUndefined,
    Template,
    TemplateError,
    TemplateNotFound,
    TemplateSyntaxError,
)
from markupsafe import Markup, escape
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_for_filename
from pygments.util import ClassNotFound

from sitegen.base.plural import counted
from sitegen.base.sandbox import MAX_TEMPLATE, BoundedSandbox
from sitegen.base.urlgate import allowed_url
from sitegen.site.theme import TEMPLATE_SUFFIXES, Theme, ThemeError, read_theme, theme_error
from sitegen.site.views import (
    IndexView,
    NavItem,
    PageView,
    ReportCell,
    ReportView,
    SiteContext,
    SourceView,
)

#: Above this many nav items, folders off the current page's path render as a link to their
#: index instead of their whole subtree, so a large site's pages don't each carry the full
#: tree (Material for MkDocs calls this "navigation.prune").
NAV_FULL_LIMIT = 100
#: In a pruned tree, a list longer than this shows only the slice holding the current page.
NAV_CHUNK = 50
STATIC_SUFFIXES = (".css", ".js")
#: The style sheets of features only some pages have (templates/features/), each written into
#: the head of a page whose HTML holds one of its markers, so that the shared style sheet
#: stays within SITE.md's page budget (content/guides/site.md#page-weight).
FEATURE_STYLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("annotations.css", ('<div class="annotated">',)),
    ("buttons.css", ("md-button",)),
    ("emoji.css", ('class="twemoji',)),
    ("grid.css", ('class="grid', ' grid"', " grid ")),
    ("keys.css", ("<kbd",)),
)
LIGHT_STYLE, DARK_STYLE = "default", "github-dark"


# ---------------------------------------------------------------------------- templates


def shipped_templates() -> Traversable:
    """The templates shipped with sitegen: the package ``sitegen.templates`` when installed
    (pyproject maps the top-level ``templates/`` folder to it), else ``<repo>/templates``."""
    try:
        return importlib.resources.files("sitegen.templates")
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[2] / "templates"


def template_files(project_root: Path | str | None, theme_dir: str = "") -> list[tuple[str, bytes]]:
    """Every template and static file a build can use (shipped, then the configured theme's),
    so a change to any of them counts as a change of input."""
    files = [
        ("shipped/" + p.name, p.read_bytes())
        for p in shipped_templates().iterdir()
        if p.is_file() and not p.name.endswith((".py", ".pyc"))
    ]
    files += [
        ("theme/" + name, data) for name, data in read_theme(project_root, theme_dir).files.items()
    ]
    return sorted(files)


class ThemeLoader(BaseLoader):
    """The theme folder's templates, from the bytes read once through the root guard; each
    template's file name is its repository path, so errors name it."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        data = self.theme.files.get(template)
        if data is None or not template.endswith(TEMPLATE_SUFFIXES):
            raise TemplateNotFound(template)
        if len(data) > MAX_TEMPLATE:  # compiled to Python: a bound before Jinja's parser
            raise TemplateSyntaxError(
                f"the template has {len(data):,} bytes; a theme template may have at most "
                f"{MAX_TEMPLATE:,}",
                1,
                template,
                self.theme.repo_path(template),
            )
        return data.decode("utf-8", errors="replace"), self.theme.repo_path(template), lambda: True

    def list_templates(self) -> list[str]:
        return [n for n in self.theme.files if n.endswith(TEMPLATE_SUFFIXES)]


class TraversableLoader(BaseLoader):
    """Loads templates from an importlib Traversable, so a zipped install works too."""

    def __init__(self, root: Traversable) -> None:
        self.root = root

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        node = self.root
        for part in template.split("/"):
            if part in ("", ".", ".."):
                raise TemplateNotFound(template)
            node = node / part
        if not node.is_file():
            raise TemplateNotFound(template)
        return node.read_text(encoding="utf-8"), str(node), lambda: True

    def list_templates(self) -> list[str]:
        return sorted(p.name for p in self.root.iterdir() if p.is_file())


def safe_href(href: str) -> str:
    """The templates' ``href`` filter: ``href`` when the URL gate allows it, else ``#``, so a
    theme that shows a URL from content cannot write ``javascript:`` (sitegen/base/urlgate.py)."""
    return href if allowed_url(href, href=True) else "#"


# ---------------------------------------------------------------------------- highlighting


@functools.lru_cache(maxsize=256)
def _lexer_class(filename: str) -> type[Lexer]:
    try:
        return type(get_lexer_for_filename(filename))
    except ClassNotFound:
        plain: type[Lexer] = TextLexer  # the stubs leave pygments.lexers' names untyped
        return plain


_FORMATTER = HtmlFormatter(linenos="table", linespans="L", anchorlinenos=True, wrapcode=True)
# Pygments names line anchors "L-10"; sitegen's links use GitHub's "#L10". Content text can't
# match these patterns: pygments escapes "<" in code.
_LINE_ID = re.compile(r'<span id="L-(\d+)">')
_LINE_HREF = re.compile(r'<a href="#L-(\d+)">')


def highlight_source(code: str, filename: str) -> tuple[str, str]:
    """Highlighted HTML with a line-number column of links (``#L10``) and ``id="L10"`` lines,
    plus the highlight CSS (the same for every file; ``Renderer.static_files`` ships it)."""
    name = posixpath.basename(filename.replace("\\", "/"))
    # stripnl=False keeps leading blank lines, so line numbers match the file.
    lexer = _lexer_class(name)(stripnl=False, ensurenl=True)
    html = highlight(code, lexer, _FORMATTER)
    html = _LINE_ID.sub(r'<span id="L\1">', html)
    html = _LINE_HREF.sub(r'<a href="#L\1">', html)
    return html, highlight_css()


_CSS_COMMENT = re.compile(r"/\*.*?\*/ ?", re.DOTALL)


def _token_css(style: str) -> str:
    # Only the background and token colours: style.css owns pre, line numbers and layout.
    fmt = HtmlFormatter(style=style)
    rules = fmt.get_background_style_defs(".highlight") + fmt.get_token_style_defs(".highlight")
    return "\n".join(_CSS_COMMENT.sub("", r).strip() for r in rules)


_RULE = re.compile(r"^(?P<selector>[^{]+)\{(?P<body>[^}]*)\}$")
_COLOR = re.compile(r"#[0-9a-fA-F]{3,8}")


def _declarations(css: str) -> dict[str, dict[str, str]]:
    """selector -> property -> value, for pygments' one-rule-per-line output."""
    rules: dict[str, dict[str, str]] = {}
    for line in css.splitlines():
        m = _RULE.match(line.strip())
        if m is None:
            continue
        decls = rules.setdefault(m.group("selector").strip(), {})
        for decl in m.group("body").split(";"):
            prop, _, value = decl.partition(":")
            if prop.strip():
                decls[prop.strip()] = value.strip()
    return rules


def _both_schemes(light: str, dark: str) -> str:
    """One rule per token for both themes: each colour is ``light-dark(LIGHT, DARK)``, which
    follows the page's color-scheme: the system's, or the reader's choice made with
    templates/theme-toggle.js. Other properties (bold, italic) come from the light style."""
    light_rules, dark_rules = _declarations(light), _declarations(dark)
    out = []
    for selector in sorted(light_rules.keys() | dark_rules.keys()):
        lr, dr = light_rules.get(selector, {}), dark_rules.get(selector, {})
        decls = []
        for prop in sorted(lr.keys() | dr.keys()):
            lv, dv = lr.get(prop, ""), dr.get(prop, "")
            colors = all(not v or _COLOR.fullmatch(v) for v in (lv, dv))
            if colors and lv != dv:
                decls.append(f"{prop}: light-dark({lv or 'currentcolor'}, {dv or 'currentcolor'})")
            elif lv:
                decls.append(f"{prop}: {lv}")
        if decls:
            out.append(f"{selector} {{ {'; '.join(decls)} }}")
    return "\n".join(out)


@functools.lru_cache(maxsize=1)
def highlight_css() -> str:
    """Pygments CSS for the light and the dark theme in one set of rules."""
    both = _both_schemes(_token_css(LIGHT_STYLE), _token_css(DARK_STYLE))
    return (
        f"/* code highlighting (pygments {LIGHT_STYLE} / {DARK_STYLE}, light-dark()) */\n{both}\n"
    )


# ---------------------------------------------------------------------------- nav tree


@dataclass
class _NavState:
    """Everything derived from one nav tuple: where each href sits, and rendered trees."""

    nav: tuple[NavItem, ...]
    paths: dict[str, tuple[int, ...]] = field(default_factory=dict)
    folders: set[str] = field(default_factory=set)
    flagged: str = ""  # href of an item built with current=True, if any
    size: int = 0
    rendered: dict[tuple[str, tuple[int, ...], int], str] = field(default_factory=dict)
    digests: dict[str, str] = field(default_factory=dict)  # rendered tree -> its sha256

    def index(self, items: tuple[NavItem, ...], path: tuple[int, ...] = ()) -> None:
        for i, item in enumerate(items):
            self.size += 1
            here = path + (i,)
            if item.href and item.href not in self.paths:
                self.paths[item.href] = here
                if item.is_folder:
                    self.folders.add(item.href)
            if item.current and not self.flagged:
                self.flagged = item.href
            self.index(item.children, here)


# ---------------------------------------------------------------------------- renderer


def _environment(theme_templates: list[str], **options: Any) -> Environment:
    """Jinja's immutable sandbox, bounded, when the project's theme has templates of its own.

    A theme may be someone else's (a pull request, a theme copied from the web): in the
    sandbox its templates cannot reach Python's internals (``cycler.__init__.__globals__``)
    or change the data they are given, cannot make a value, a loop or a page larger than the
    bounds of sitegen/base/sandbox.py, and an attempt is one error naming the template and
    line (content/guides/safety.md, "Themes and the development server"). The shipped
    templates render the same bytes in both; they alone skip the sandbox's checks, which
    cost about 2.5x the templates' time."""
    if theme_templates:
        return BoundedSandbox(bounded=theme_templates, **options)
    return Environment(**options)


class Renderer:
    """Compiles the templates once and renders views. One instance per build."""

    def __init__(self, project_root: Path | str | None = None, theme_dir: str = "") -> None:
        self.theme = read_theme(project_root, theme_dir)
        self.shipped = shipped_templates()
        loaders: list[BaseLoader] = [ThemeLoader(self.theme), TraversableLoader(self.shipped)]
        self.env = _environment(
            ThemeLoader(self.theme).list_templates(),
            loader=ChoiceLoader(loaders),
            autoescape=True,
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            auto_reload=False,
        )
        self.env.filters["href"] = safe_href
        self.env.filters["counted"] = counted  # {{ n|counted("line") }}: "1 line", "2 lines"
        self.env.globals["nav"] = self.nav
        self.env.globals["feature_styles"] = self.feature_styles
        self._feature_css: dict[str, str] = {}
        self._templates: dict[str, Template] = {}
        #: One state per tree, by the tree's identity (a site may show several: a VitePress
        #: sidebar per path prefix, a tree per locale); the state holds the tree alive.
        self._nav_states: dict[int, _NavState] = {}
        self._rendering = 0  # renders in progress (the page tree renders inside a page)
        for name in ThemeLoader(self.theme).list_templates():  # syntax errors before any page
            self.template(name)

    @property
    def has_theme_templates(self) -> bool:
        return bool(ThemeLoader(self.theme).list_templates())

    def template(self, name: str) -> Template:
        tpl = self._templates.get(name)
        if tpl is None:
            try:
                tpl = self._templates[name] = self.env.get_template(name)
            except TemplateError as exc:
                raise theme_error(exc, self._path(name)) from None
            except Exception as exc:  # a theme's template too deep for the parser, say
                if not isinstance(self.env, BoundedSandbox):
                    raise
                raise theme_error(exc, self._path(name)) from None
        return tpl

    def render(self, name: str, **ctx: Any) -> str:
        """Any template; those extending base.html need ``site`` and ``title``. A template
        error raises ThemeError (one line: the template's path, line and message)."""
        tpl = self.template(name)
        if isinstance(self.env, BoundedSandbox):
            return self._render_bounded(self.env, tpl, name, ctx)
        try:
            return tpl.render(**ctx)
        except TemplateError as exc:
            raise theme_error(exc, name) from None

    def _render_bounded(
        self, env: BoundedSandbox, tpl: Template, name: str, ctx: dict[str, Any]
    ) -> str:
        """Render with a theme: the page's budget starts at the outermost render, what is
        written is charged to it, and any error, whatever its kind (a TypeError, a
        RecursionError, a bound of the sandbox), is the theme's one ThemeError line."""
        if not self._rendering:
            env.begin()
        self._rendering += 1
        try:
            parts = []
            for chunk in tpl.generate(**ctx):
                env.charge(len(chunk))
                parts.append(chunk)
            return "".join(parts)
        except ThemeError:
            raise  # from a template rendered inside this one (the page tree)
        except Exception as exc:  # noqa: BLE001 - the theme's error, reported as one line
            raise theme_error(exc, self._path(name), self.theme.folder) from None
        finally:
            self._rendering -= 1

    def _path(self, name: str) -> str:
        """The repository path of template ``name``, for an error that names no line of it."""
        return self.theme.repo_path(name) if name in self.theme.files else name

    def render_page(self, site: SiteContext, page: PageView) -> str:
        return self.render("page.html", site=site, page=page, title=page.title)

    def render_source(self, site: SiteContext, source: SourceView) -> str:
        return self.render("source.html", site=site, source=source, title=source.title)

    def render_index(self, site: SiteContext, index: IndexView) -> str:
        return self.render("index.html", site=site, index=index, title=index.title)

    def render_report(self, site: SiteContext, report: ReportView) -> str:
        report = replace(
            report,
            rows=_cells(report.rows),
            tables=tuple(replace(t, rows=_cells(t.rows)) for t in report.tables),
        )
        return self.render("report.html", site=site, report=report, title=report.title)

    # -- the page tree

    def nav(self, site: SiteContext) -> Markup:
        """The page tree for ``site``'s current page, rendered once per folder and marked
        current by one string replacement, so rendering N pages costs N small copies."""
        state = self._nav_for(site.nav)
        current, path, html = self._unmarked_nav(site, state)
        if path:
            needle = f'<a href="{escape(safe_href(site.root_prefix + current))}">'
            html = html.replace(needle, needle[:-1] + ' aria-current="page">', 1)
        return Markup(html)

    def nav_key(self, site: SiteContext) -> str:
        """A key of what ``nav(site)`` gives, without marking it: the hash of the shared
        tree (computed once per tree) and the page marked in it."""
        state = self._nav_for(site.nav)
        current, path, html = self._unmarked_nav(site, state)
        shared = state.digests.get(html)
        if shared is None:
            shared = state.digests[html] = hashlib.sha256(html.encode("utf-8")).hexdigest()
        return f"{shared} {current if path else ''}"

    def _unmarked_nav(
        self, site: SiteContext, state: _NavState
    ) -> tuple[str, tuple[int, ...], str]:
        """The current page's href, its place in the tree and the tree its folder shares."""
        current = site.current_href or state.flagged
        path = state.paths.get(current, ())
        open_path = path if current in state.folders else path[:-1]
        # Pages of one folder share a tree unless a long list puts them in different slices.
        key = (site.root_prefix, open_path, path[-1] // NAV_CHUNK if path else 0)
        html = state.rendered.get(key)
        if html is None:
            html = state.rendered[key] = self.render(
                "nav.html",
                items=site.nav,
                prefix=site.root_prefix,
                open_path=open_path,
                focus_path=path,
                pruned=state.size > NAV_FULL_LIMIT,
                chunk=NAV_CHUNK,
            )
        return current, path, html

    def _nav_for(self, nav: tuple[NavItem, ...]) -> _NavState:
        state = self._nav_states.get(id(nav))
        if state is None or state.nav is not nav:
            state = self._nav_states[id(nav)] = _NavState(nav)
            state.index(nav)
        return state

    def feature_styles(self, html: str) -> Markup:
        """The ``<style>`` of each feature of FEATURE_STYLES that ``html`` holds, compacted;
        a theme's ``features/<name>.css`` replaces the shipped one."""
        out = []
        for name, markers in FEATURE_STYLES:
            if any(marker in html for marker in markers):
                if name not in self._feature_css:
                    own = self.theme.files.get(f"features/{name}")
                    source = own or self.shipped.joinpath("features", name).read_bytes()
                    self._feature_css[name] = compact_css(source).decode().strip()
                out.append(f"<style>{self._feature_css[name]}</style>")
        return Markup("".join(out))

    # -- static files

    def static_files(self) -> dict[str, bytes]:
        """Files to copy to the site root: the shipped CSS and JS, overridden (or extended) by
        every non-template file of the theme at its own path; ``style.css`` gets the
        code-highlighting CSS appended."""
        files = {
            p.name: p.read_bytes()
            for p in self.shipped.iterdir()
            if p.is_file() and p.name.endswith(STATIC_SUFFIXES)
        }
        files.update(
            {
                name: data
                for name, data in self.theme.files.items()
                if not name.endswith(TEMPLATE_SUFFIXES)
            }
        )
        if "style.css" in files:
            files["style.css"] = compact_css(
                files["style.css"].rstrip(b"\n") + b"\n\n" + highlight_css().encode("utf-8")
            )
        return dict(sorted(files.items()))


_CSS_BLOCK_COMMENT = re.compile(rb"/\*.*?\*/", re.S)
_CSS_INDENT = re.compile(rb"\n[ \t]*(?:\n[ \t]*)*")
#: A quoted string of CSS (kept as written), or the spaces around a ``{``, ``}``, ``;`` or ``,``
#: and after a ``:`` outside one, and a ``;`` that ends a rule: none change what the rule
#: means. The space before a ``:`` stays (``.a :hover`` is not ``.a:hover``).
_CSS_SPACES = re.compile(
    rb"""("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')|[ \t]*;[ \t]*(?=})|[ \t]*([{};,])[ \t]*|(:)[ \t]+"""
)


def _squeeze(found: re.Match[bytes]) -> bytes:
    return found.group(1) or found.group(2) or found.group(3) or b""


def compact_css(css: bytes) -> bytes:
    """The stylesheet without comments, indentation, blank lines and the spaces around its
    punctuation: the page budget of SITE.md counts bytes, and readers need none of them (the
    theme's source keeps them)."""
    lines = _CSS_INDENT.sub(b"\n", _CSS_BLOCK_COMMENT.sub(b"", css)).strip()
    return _CSS_SPACES.sub(_squeeze, lines) + b"\n"


def _cells(rows: tuple[tuple[ReportCell | str, ...], ...]) -> tuple[tuple[ReportCell, ...], ...]:
    return tuple(
        tuple(c if isinstance(c, ReportCell) else ReportCell(str(c)) for c in row) for row in rows
    )


__all__ = [
    "NAV_CHUNK",
    "NAV_FULL_LIMIT",
    "Renderer",
    "highlight_css",
    "highlight_source",
    "safe_href",
    "shipped_templates",
]
