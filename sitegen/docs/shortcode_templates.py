"""A project's shortcodes: the templates of its ``shortcodes/`` folder, rendered in the
bounded Jinja sandbox that themes render in (content/syntax/shortcodes.md).

A template is the project's markup, as a theme's is; what a page passes to it (the
arguments) is escaped unless the template says otherwise (autoescape). A template reads
nothing but its arguments and the other templates of the folder (``{% include %}``), and
any error, whatever its kind (an undefined name, a bound of the sandbox, a template that
includes itself), is one ``ShortcodeError`` sentence for the page's warning. Never reads a
file: the crawl read the templates (sitegen/crawl.py).
"""

from __future__ import annotations

import hashlib
import re
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from jinja2 import StrictUndefined, Template, TemplateSyntaxError
from jinja2.exceptions import SecurityError, TemplateError, TemplateNotFound
from jinja2.loaders import BaseLoader

from sitegen.base.sandbox import MAX_DEPTH, MAX_TEMPLATE, BoundedSandbox, TemplateLimit

#: Characters one shortcode may write, and the shortcodes of one page together.
MAX_OUTPUT = 200_000
MAX_PAGE_OUTPUT = 4_000_000
#: Characters between ``{{<`` and ``>}}``: a longer call is not read as one.
MAX_CALL = 4_000
#: A message quotes at most this many characters of what the page or the template wrote.
_QUOTE = 80
#: The names a template is given besides its named arguments: ``args`` (the positional ones)
#: and ``params`` (the named ones, whatever their names).
RESERVED = frozenset({"args", "params"})
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*", re.ASCII)


class ShortcodeError(Exception):
    """A shortcode that cannot be rendered: the sentence the page's warning says."""


@dataclass(frozen=True)
class Call:
    """One call of a shortcode as the page wrote it."""

    name: str
    #: The positional arguments, in order (``{{< note warning >}}``, ``<!-- md:version 9.2.0
    #: -->``), and the named ones (``{{< figure src="a.png" >}}``).
    args: tuple[str, ...] = ()
    params: Mapping[str, str] = field(default_factory=dict)
    #: Everything after the name, as written (``type:boolean``, ``[`theme.font.text`][font]``).
    text: str = ""


@dataclass(frozen=True, eq=False)
class Shortcodes:
    """The project's shortcodes: the templates by name (``note`` for ``shortcodes/note.html``,
    ``docs/note`` for ``shortcodes/docs/note.html``) and the HTML-comment names that call
    them (the ``shortcode_comments`` option: ``md:option`` → ``option``; ``md:*`` → ``*``
    calls the template of the comment's own name)."""

    templates: Mapping[str, bytes]
    comments: Mapping[str, str] = field(default_factory=dict)
    #: The folder, a repository path (for messages).
    folder: str = "shortcodes"

    @cached_property
    def key(self) -> str:
        """What a page that calls shortcodes is cached under besides its bytes: every
        template's bytes and the comment names, so that a changed template renders again
        every page that may call it (and no other page)."""
        digest = hashlib.sha256(b"shortcodes\0")
        for name, data in sorted(self.templates.items()):
            digest.update(f"{name}\0{hashlib.sha256(data).hexdigest()}\0".encode())
        for written, template in sorted(self.comments.items()):
            digest.update(f"comment\0{written}\0{template}\0".encode())
        return digest.hexdigest()

    def comment_template(self, name: str) -> str | None:
        """The template a comment ``<!-- name … -->`` calls (``md:option``): its own entry,
        else its prefix's ``md:*``; None when the configuration maps no such name."""
        given = self.comments.get(name)
        if given is not None:
            return given
        prefix, colon, rest = name.partition(":")
        wildcard = self.comments.get(f"{prefix}:*") if colon and rest else None
        return wildcard.replace("*", rest) if wildcard is not None else None

    def path_of(self, name: str) -> str:
        """The repository path of template ``name``."""
        return f"{self.folder}/{name}.html" if self.folder else f"{name}.html"

    def render(self, call: Call, template: str | None = None) -> str:
        """The HTML of ``call`` (through ``template``, by default its own name's), or a
        ``ShortcodeError`` that says why not."""
        name = call.name if template is None else template
        if name not in self.templates:
            raise ShortcodeError(self._unknown(call.name, name))
        return self._renderer.render(name, call)

    def _unknown(self, written: str, name: str) -> str:
        shown = _quote(written)
        via = f" (mapped to '{_quote(name)}' by shortcode_comments)" if written != name else ""
        return (
            f"no shortcode '{shown}'{via}: {self.folder or 'the shortcodes folder'}/ has no "
            f"{_quote(name)}.html; it is shown as its text"
        )

    @cached_property
    def _renderer(self) -> _Renderer:
        return _Renderer(self)


def project_shortcodes(
    templates: Mapping[str, bytes], comments: Mapping[str, str], folder: str
) -> Shortcodes | None:
    """The project's shortcodes, from the crawl's ``templates`` and the ``shortcode_comments``
    and ``shortcodes`` options; None for a project that has neither templates nor comment
    names (its pages are read as before, byte for byte)."""
    if not templates and not comments:
        return None
    made = Shortcodes(dict(templates), dict(comments), folder)
    if len(_MADE) > 8:  # `sitegen serve` makes one per edit of a template
        _MADE.clear()
    return _MADE.setdefault((made.key, folder), made)


#: The shortcodes made in this process, by key and folder: the build's pages and the site's
#: summaries (a blog post's) render through one sandbox, compiled once.
_MADE: dict[tuple[str, str], Shortcodes] = {}


class _Loader(BaseLoader):
    """The folder's templates, by name and ``name.html``, and nothing else."""

    def __init__(self, shortcodes: Shortcodes) -> None:
        self.shortcodes = shortcodes

    def get_source(self, environment: Any, template: str) -> tuple[str, str, Any]:
        name = template.removesuffix(".html")
        data = self.shortcodes.templates.get(name)
        if data is None:
            raise TemplateNotFound(template)
        if len(data) > MAX_TEMPLATE:
            raise TemplateError(
                f"the template is {len(data):,} bytes; a shortcode template may have "
                f"{MAX_TEMPLATE:,}"
            )
        return data.decode("utf-8", "replace"), self.shortcodes.path_of(name), lambda: True


class _Renderer:
    """The sandbox of one project's shortcodes, built once per process and reused by every
    page (a forked worker inherits it). Pages are parsed one at a time (the parser's lock),
    so one budget is enough."""

    def __init__(self, shortcodes: Shortcodes) -> None:
        self.shortcodes = shortcodes
        self.env = BoundedSandbox(
            # every name a template is loaded by: a call's, and an include's "name.html"
            bounded=[*shortcodes.templates, *(f"{n}.html" for n in shortcodes.templates)],
            loader=_Loader(shortcodes),
            autoescape=True,
            undefined=StrictUndefined,
            auto_reload=False,
            cache_size=-1,
        )
        self.compiled: dict[str, Template] = {}

    def template(self, name: str) -> Template:
        tpl = self.compiled.get(name)
        if tpl is None:
            tpl = self.compiled[name] = self.env.get_template(name)
        return tpl

    def render(self, name: str, call: Call) -> str:
        path = self.shortcodes.path_of(name)
        context: dict[str, Any] = {
            key: value for key, value in call.params.items() if _IDENTIFIER.fullmatch(key)
        }
        context.update(args=list(call.args), params=dict(call.params))
        self.env.begin()
        written = 0
        parts: list[str] = []
        try:
            for chunk in self.template(name).generate(context):
                written += len(chunk)
                if written > MAX_OUTPUT:
                    raise ShortcodeError(
                        f"the shortcode '{_quote(call.name)}' ({path}) wrote more than "
                        f"{MAX_OUTPUT:,} characters; it is shown as its text"
                    )
                self.env.charge(len(chunk))
                parts.append(chunk)
        except ShortcodeError:
            raise
        except RecursionError:
            raise ShortcodeError(
                f"the shortcode template {path} calls itself, or nests more than the sandbox "
                "allows; the shortcode is shown as its text"
            ) from None
        except Exception as exc:  # noqa: BLE001 - the template's error, said as one sentence
            raise ShortcodeError(_template_error(exc, path)) from None
        return "".join(parts)


def _template_error(exc: Exception, path: str) -> str:
    """One sentence for an error of a shortcode template: the file and line, then what
    Jinja (or Python, or the sandbox) said."""
    if isinstance(exc, TemplateSyntaxError):
        where = f"{exc.filename or path}:{exc.lineno}"
        said = exc.message or str(exc)
    else:
        where = _where(exc, path)
        said = str(exc) if isinstance(exc, TemplateError) else f"{type(exc).__name__}: {exc}"
    if isinstance(exc, TemplateLimit) and "nested more than" in said:
        said = f"calls nested more than {MAX_DEPTH} deep (a macro or a template calling itself?)"
    kind = "the sandbox refused" if isinstance(exc, SecurityError) else "error"
    return (
        f"the shortcode template {where} failed ({kind}: {_quote(' '.join(said.split()), 160)}); "
        "the shortcode is shown as its text"
    )


def _where(exc: Exception, path: str) -> str:
    """The innermost frame of a shortcode template in the traceback (Jinja names each
    template frame by the template's file and line)."""
    found = f"{path}:1"
    tb: types.TracebackType | None = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(".html"):
            found = f"{filename}:{tb.tb_lineno}"
        tb = tb.tb_next
    return found


# --- the arguments ------------------------------------------------------------------------

#: One argument of a ``{{< >}}`` call: ``name=value`` or a value; a value is quoted with
#: ``"`` (backslash escapes), with a backtick (raw, as Hugo's), or a run of other characters.
_ARGUMENT = re.compile(
    r"""(?:(?P<key>[A-Za-z_][\w-]*)[ \t]*=[ \t]*)?"""
    r"""(?:"(?P<dq>(?:[^"\\]|\\.)*)"|`(?P<bq>[^`]*)`|'(?P<sq>[^']*)'|(?P<bare>[^\s"'`=]+))""",
    re.DOTALL,
)
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


def parse_arguments(name: str, text: str) -> Call:
    """The call of shortcode ``name`` with the argument ``text`` of a ``{{< >}}`` call, or a
    ``ShortcodeError`` naming the first argument that cannot be read (an unclosed quote, a
    name without a value, a name given twice or one of the reserved names)."""
    args: list[str] = []
    params: dict[str, str] = {}
    pos, end = 0, len(text)
    while True:
        while pos < end and text[pos].isspace():
            pos += 1
        if pos >= end:
            break
        found = _ARGUMENT.match(text, pos)
        if found is None or (found.end() < end and not text[found.end()].isspace()):
            rest = text[pos:].split(None, 1)[0]
            raise ShortcodeError(_bad_argument(name, rest))
        value = found.group("dq")
        value = _ESCAPE.sub(r"\1", value) if value is not None else None
        if value is None:
            value = next(v for v in found.group("bq", "sq", "bare") if v is not None)
        key = found.group("key")
        if key is None:
            args.append(value)
        elif key in params or key in RESERVED:
            why = "is given twice" if key in params else "is a reserved name"
            raise ShortcodeError(
                f"the shortcode '{_quote(name)}' has a bad argument: '{_quote(key)}' {why}; "
                "it is shown as its text"
            )
        else:
            params[key] = value
        pos = found.end()
    return Call(name, tuple(args), params, text.strip())


def _bad_argument(name: str, written: str) -> str:
    return (
        f"the shortcode '{_quote(name)}' has a bad argument '{_quote(written)}' (an unclosed "
        'quote, or a name without a value: write name="a value"); it is shown as its text'
    )


def comment_call(name: str, text: str) -> Call:
    """The call of a comment shortcode (``<!-- md:option type:boolean -->``): its words as
    positional arguments, and the whole text after the name."""
    return Call(name, tuple(text.split()), {}, text.strip())


def _quote(text: str, limit: int = _QUOTE) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
