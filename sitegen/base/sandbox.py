"""The sandbox that a theme's templates and a project's shortcodes render in: Jinja's
immutable sandbox, with a bound on everything a template can make big or long
(content/guides/safety.md, "Themes and the development server"; content/syntax/shortcodes.md).

A theme may be someone else's, and Jinja is a language with loops, macros and operators, so
its bounds are set where the work happens, not guessed from the template's text: every value
an operator, a filter or a call makes is checked before it is made where it could multiply
(``"a" * 10000000000`` reached 9.8 GB) and after it is made where it can only add; every
loop step, call, comparison operand and character made or written is charged to a budget per
page. Never runs anything but Jinja, and never raises anything but ``TemplateLimit`` for a
bound; the renderer turns it, like every other error, into one ThemeError line.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any

from jinja2 import nodes
from jinja2.exceptions import SecurityError
from jinja2.runtime import Context, LoopContext
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import _PassArg, generate_lorem_ipsum

#: Characters of a string, or items of a list, that one value made by a template may have.
#: Content itself may be larger (a page of max_file_size); only what a template makes counts.
MAX_VALUE = 16_000_000
#: Work one page may cost a template: each character or item made, written, compared or
#: passed to a filter counts 1, each loop step or call ``STEP_COST``.
MAX_WORK = 128_000_000
#: About what one loop step or call costs, counted in characters copied.
STEP_COST = 64
#: What one item of a list made by a template costs: walking it is Python's work, not C's.
ITEM_COST = 32
#: ``lipsum()`` gives at most this many paragraphs, of at most ``MAX_LIPSUM_WORDS`` words.
MAX_LIPSUM, MAX_LIPSUM_WORDS = 100, 1_000
#: ``range()`` gives at most this many numbers (Jinja's own default).
MAX_RANGE = 100_000
#: Calls nested inside calls (a macro that calls itself, ``caller()``, ``loop()``).
MAX_DEPTH = 50
#: Bits of an integer an operator may make: about 20,000 digits (``10 ** 10 ** 8`` is refused
#: before it is computed).
MAX_INT_BITS = 65_536
#: A larger theme template is refused before it is compiled.
MAX_TEMPLATE = 1_000_000

#: The filters the sandbox adds to a theme's templates, by the names the compiler writes.
MADE, STEPS, SIZED = "_sitegen_made", "_sitegen_steps", "_sitegen_sized"
#: Filters that look at a value without walking it: no charge for the value's size.
_CHEAP_FILTERS = frozenset({"length", "count", "first", "last", "default", "d", "attr"})
_NUMBER = re.compile(r"[0-9]+")


class TemplateLimit(SecurityError):
    """A theme template went over one of the sandbox's bounds."""


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox with the bounds above. ``bounded`` names the templates
    (the theme's) whose loops, joins and comparisons are charged; sitegen's own templates
    render unchanged beside them and are checked only at operators, filters and calls."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def __init__(self, *args: Any, bounded: Collection[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bounded = frozenset(bounded)
        self.work = 0
        self.depth = 0
        self.globals["range"] = self.range
        self.globals["lipsum"] = _lipsum
        self.filters = {name: self._filter(name, f) for name, f in self.filters.items()}
        self.filters.update({MADE: self.made, STEPS: self.steps, SIZED: self.sized})

    # -- the budget

    def begin(self) -> None:
        """A new page: the budget starts again."""
        self.work = 0

    def charge(self, amount: int) -> None:
        self.work += amount
        if self.work > MAX_WORK:
            raise TemplateLimit(
                f"the page took more work than a theme may spend on one page ({MAX_WORK:,}: "
                "each character made, written or compared counts 1, each loop step or call "
                f"{STEP_COST})"
            )

    def made(self, value: Any) -> Any:
        """``value``, made by the template: over ``MAX_VALUE`` is refused, and it is charged."""
        if isinstance(value, (*_CONTAINERS, dict)):  # before it is walked: a list grown
            self.charge(len(value) * ITEM_COST)  # one item at a time stops early
        size = _weight(value)
        if size > MAX_VALUE:
            raise TemplateLimit(
                f"a value of {size:,} characters or items; the limit is {MAX_VALUE:,}"
            )
        if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
            raise TemplateLimit(f"a number of more than {MAX_INT_BITS:,} bits")
        self.charge(size)
        return value

    def sized(self, value: Any) -> Any:
        """A comparison's operand: charged for its size, since comparing walks it."""
        self.charge(_size(value))
        return value

    def steps(self, iterable: Iterable[Any]) -> Iterator[Any]:
        """What a loop walks, charged per step."""
        for item in iterable:
            self.charge(STEP_COST)
            yield item

    def range(self, *args: int) -> range:
        numbers = range(*args)
        if len(numbers) > MAX_RANGE:
            raise TemplateLimit(f"range() of {len(numbers):,} numbers; the limit is {MAX_RANGE:,}")
        return numbers

    # -- operators, filters and calls

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        self.refuse_over(_binop_size(operator, left, right), f"the operator {operator}")
        return self.made(self.binop_table[operator](left, right))

    def refuse_over(self, size: int, what: str) -> None:
        if size > MAX_VALUE:
            raise TemplateLimit(
                f"{what} would make a value of about {size:,} characters or items; "
                f"the limit is {MAX_VALUE:,}"
            )

    def _filter(self, name: str, func: Callable[..., Any]) -> Callable[..., Any]:
        skip = 1 if _PassArg.from_obj(func) is not None else 0  # the context Jinja passes

        @functools.wraps(func)
        def bounded(*args: Any, **kwargs: Any) -> Any:
            data = args[skip:]
            if name == "join" and data and not isinstance(data[0], _SIZED):
                data = (list(self.steps(data[0])), *data[1:])  # measured before it is joined
                args = (*args[:skip], *data)
            self.refuse_over(_filter_size(name, data, kwargs), f"the filter {name}")
            if name not in _CHEAP_FILTERS and data:
                self.charge(_size(data[0]))
            return self.made(func(*args, **kwargs))

        return bounded

    def call(self, context: Context, obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        receiver = getattr(obj, "__self__", None)
        if isinstance(receiver, str):
            name = getattr(obj, "__name__", "")
            self.refuse_over(_method_size(name, receiver, args, kwargs), f"str.{name}()")
            self.charge(len(receiver))
            _refuse_large_numbers(args, kwargs)
        if isinstance(obj, LoopContext) and args:  # loop(children) of a recursive loop
            args = (self.steps(args[0]), *args[1:])
        self.charge(STEP_COST)
        if self.depth >= MAX_DEPTH:
            raise TemplateLimit(
                f"calls nested more than {MAX_DEPTH} deep (a macro calling itself?)"
            )
        self.depth += 1
        try:
            result = super().call(context, obj, *args, **kwargs)
        finally:
            self.depth -= 1
        return self.made(result)

    def getitem(self, obj: Any, argument: Any) -> Any:
        value = super().getitem(obj, argument)
        return self.made(value) if isinstance(argument, slice) else value

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        text: str = value.__self__

        @functools.wraps(wrapped)
        def bounded(*args: Any, **kwargs: Any) -> str:
            values = [*args, *kwargs.values()]
            if value.__name__ == "format_map" and args and isinstance(args[0], Mapping):
                values = list(args[0].values())
            self.refuse_over(_format_size(text, values), "str.format()")
            return str(self.made(wrapped(*args, **kwargs)))

        return bounded

    # -- the theme's templates: loops, joins and comparisons are charged

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        if name in self.bounded:
            _charge_nodes(tree)
        return tree


def _lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
    """Jinja's ``lipsum()`` within bounds (``lipsum(10**6)`` wrote 447 million characters)."""
    if n > MAX_LIPSUM or max > MAX_LIPSUM_WORDS:
        raise TemplateLimit(
            f"lipsum() gives at most {MAX_LIPSUM} paragraphs of {MAX_LIPSUM_WORDS:,} words"
        )
    return str(generate_lorem_ipsum(n, html, min, max))


_SIZED = (str, bytes, list, tuple, dict, set, frozenset)
_CONTAINERS = (list, tuple, set, frozenset)


def _size(value: Any) -> int:
    return len(value) if isinstance(value, _SIZED) else 0


def _weight(value: Any) -> int:
    """The characters and items ``value`` holds, nested lists counted whole, as ``str()``
    would write them (``[big] * 1000`` is 1,000 copies of ``big``). Each item visited counts
    at least 1 and the count stops once it is over ``MAX_VALUE``, so it costs at most that
    many steps."""
    if isinstance(value, (str, bytes)):
        return len(value)
    if not isinstance(value, _SIZED):
        return 0
    total, stack = 0, [value]
    while stack and total <= MAX_VALUE:
        item = stack.pop()
        total += 1
        if isinstance(item, (str, bytes)):
            total += len(item)
        elif isinstance(item, _CONTAINERS):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
    return total


def _wrap(node: nodes.Node | None, name: str) -> nodes.Filter:
    wrapped = nodes.Filter(node, name, [], [], None, None)
    if node is not None:
        wrapped.set_lineno(node.lineno)
    return wrapped


def _charge_nodes(tree: nodes.Template) -> None:
    """Route what a template walks or makes without an operator, filter or call through the
    sandbox's own filters: a loop's iterable, a ``~`` join, a ``{% set %}`` block and each
    operand of a comparison."""
    for loop in tree.find_all(nodes.For):
        loop.iter = _wrap(loop.iter, STEPS)
    for block in tree.find_all(nodes.AssignBlock):
        block.filter = _wrap(block.filter, MADE)
    for compare in tree.find_all(nodes.Compare):
        compare.expr = _wrap(compare.expr, SIZED)
        for operand in compare.ops:
            operand.expr = _wrap(operand.expr, SIZED)
    for parent in list(tree.find_all(nodes.Node)):  # a ~ join is an operand of its parent
        for field, child in parent.iter_fields():
            if isinstance(child, nodes.Concat):
                setattr(parent, field, _wrap(child, MADE))
            elif isinstance(child, list):
                setattr(
                    parent,
                    field,
                    [_wrap(c, MADE) if isinstance(c, nodes.Concat) else c for c in child],
                )


def _refuse_large_numbers(args: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
    """A width, a count or a size given to a filter or a method is at most ``MAX_VALUE``:
    ``center``, ``ljust``, ``zfill``, ``batch``, ``indent`` make that many characters."""
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_VALUE:
            raise TemplateLimit(f"a number over {MAX_VALUE:,} given to a filter or a method")


def _binop_size(operator: str, left: Any, right: Any) -> int:
    """How large ``left operator right`` could be, before it is computed: repetition and
    powers multiply, ``%`` formats (``+`` only adds, and is checked after)."""
    if operator == "*":
        for seq, times in ((left, right), (right, left)):
            if isinstance(seq, _SIZED) and isinstance(times, int):
                return _weight(seq) * max(times, 0)
        if isinstance(left, int) and isinstance(right, int):
            return _bits_as_size(left.bit_length() + right.bit_length())
    powers = operator == "**" and isinstance(left, int) and isinstance(right, int)
    if powers and right > 0 and abs(left) > 1:
        return _bits_as_size(left.bit_length() * right)
    if operator == "%" and isinstance(left, str):
        values = right if isinstance(right, tuple) else [right]
        values = list(right.values()) if isinstance(right, Mapping) else values
        return _format_size(left, values)
    return 0


def _bits_as_size(bits: int) -> int:
    return MAX_VALUE + 1 if bits > MAX_INT_BITS else 0


def _format_size(text: str, values: Sequence[Any]) -> int:
    """An upper bound of the length of ``text % values`` or ``text.format(...)``: the format's
    own text, each field at most the longest value, and every width or precision, whether
    written in the format or taken from a value (``%*d``, ``{:{}}``)."""
    longest = max((len(str(v)) for v in values), default=0)
    fields = text.count("%") + text.count("{")
    widths = sum(int(m[0]) if len(m[0]) <= 8 else MAX_VALUE + 1 for m in _NUMBER.finditer(text))
    numbers = [abs(v) for v in values if isinstance(v, int)]
    taken = max(numbers, default=0) if "*" in text or "{" in text else 0
    return len(text) + fields * (longest + taken) + widths


def _filter_size(name: str, data: Sequence[Any], kwargs: Mapping[str, Any]) -> int:
    """How large filter ``name`` could make its result, for the filters that multiply."""
    _refuse_large_numbers(data, kwargs)
    if not data:
        return 0
    value, args = data[0], list(data[1:])
    if name == "replace" and len(args) >= 2:
        return _replace_size(value, args[0], args[1])
    if name == "join":
        return _join_size(args[0] if args else kwargs.get("d", ""), value)
    if name == "indent" and isinstance(value, str):
        width = args[0] if args else kwargs.get("width", 4)
        per_line = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
        return len(value) + (value.count("\n") + 1) * per_line
    if name == "wordwrap" and isinstance(value, str):
        wrap = args[2] if len(args) > 2 else kwargs.get("wrapstring")
        return len(value) * (1 + len(wrap if isinstance(wrap, str) else "\n"))
    if name == "format" and isinstance(value, str):
        return _format_size(value, [*args, *kwargs.values()])
    if name == "tojson":
        indent = args[0] if args else kwargs.get("indent")
        return MAX_VALUE + 1 if isinstance(indent, int) and indent > 16 else 0
    return 0


def _method_size(name: str, text: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> int:
    """How large ``text.name(*args)`` could be, for the string methods that multiply."""
    if name == "replace" and len(args) >= 2:
        return _replace_size(text, args[0], args[1])
    if name == "join" and args:
        return _join_size(text, args[0])
    if name == "expandtabs":
        size = args[0] if args else kwargs.get("tabsize", 8)
        return len(text) + text.count("\t") * (size if isinstance(size, int) else 0)
    if name == "translate" and args and isinstance(args[0], Mapping):
        longest = max((len(v) for v in args[0].values() if isinstance(v, str)), default=1)
        return len(text) * longest
    return 0


def _replace_size(text: Any, old: Any, new: Any) -> int:
    if not (isinstance(text, str) and isinstance(old, str) and isinstance(new, str)):
        return 0
    times = text.count(old) if old else len(text) + 1
    return len(text) + times * len(new)


def _join_size(separator: Any, items: Any) -> int:
    """The length of the join, counted item by item and stopped once it is over the limit."""
    if not isinstance(items, _SIZED) or not isinstance(separator, str):
        return 0
    total = 0
    for item in items:
        total += len(item if isinstance(item, str) else str(item)) + len(separator)
        if total > MAX_VALUE:
            break
    return total


__all__ = ["MAX_TEMPLATE", "BoundedSandbox", "TemplateLimit"]
