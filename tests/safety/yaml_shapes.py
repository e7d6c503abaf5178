"""Hostile YAML for the tests of every YAML reader (front matter, mkdocs.yml, _config.yml):
one place for the shapes, so each reader is fed the same ones (sitegen/base/yamldata.py).

``GROWING`` shapes are about ``n`` characters, for the time tests of tests/safety/linear.py;
``REFUSED`` texts break one bound each and must give one diagnostic; ``yaml_texts`` is a
hypothesis strategy of runs of YAML's own markers, cut anywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from hypothesis import strategies as st


def _laughs(levels: int, width: int = 10) -> str:
    """``a: &a [x, …]``, then each level a list of ``width`` aliases of the one before."""
    names = [f"l{i}" for i in range(levels + 1)]
    lines = [f"{names[0]}: &{names[0]} [{', '.join(['x'] * width)}]"]
    for before, name in pairwise(names):
        lines.append(f"{name}: &{name} [{', '.join(['*' + before] * width)}]")
    return "\n".join(lines) + "\n"


_NEST_40 = "".join("  " * i + f"k{i}:\n" for i in range(40)) + "  " * 40 + "x\n"

GROWING: dict[str, Callable[[int], str]] = {
    "many keys": lambda n: "".join(f"k{i}: v\n" for i in range(n // 8)),
    "nested flow lists": lambda n: "a: " + "[" * (n // 2) + "]" * (n // 2),
    "block maps 40 deep, repeated": lambda n: _NEST_40 * max(n // len(_NEST_40), 1),
    "a run of ---": lambda n: "---\n" * (n // 4),
    "a run of colons": lambda n: "a: " + ":" * n,
    "a run of '{:'": lambda n: "a: " + "{:" * (n // 2),
    "aliases": lambda n: "a: &a [x, y]\nb: [" + "*a, " * (n // 4) + "]\n",
    "a run of &a": lambda n: "a: " + "&a " * (n // 3) + "x\n",
    "a long number": lambda n: "x: " + "1" * n + "\n",
    "a base-60 number": lambda n: "x: 1" + ":1" * (n // 2) + "\n",
    "merge keys": lambda n: "".join(f"<<: {{a{i}: 1}}\n" for i in range(n // 16)),
    "lone surrogates": lambda n: "a: \ud800\n" * (n // 7),
}

#: Texts over one bound each, and a word of the one message each must give.
REFUSED: dict[str, tuple[str, str]] = {
    "nested 500 deep": ("a: " + "[" * 500 + "]" * 500 + "\n", "nested more than"),
    "block maps 500 deep": ("".join("  " * i + f"k{i}:\n" for i in range(500)), "nested more"),
    "a billion laughs": (_laughs(9), "values (aliases expanded)"),
    "an alias inside itself": ("a: &a [x, *a]\n", "refers to itself"),
    "a 5,000-digit number": ("x: " + "1" * 5_000 + "\n", "a number of more than"),
    "a base-60 number": ("x: 1" + ":1" * 3_000 + "\n", "a number of more than"),
    "merge keys": ("".join(f"<<: {{a{i}: 1}}\n" for i in range(150)), "merge keys"),
    "over a megabyte": ("a: " + "x" * 1_000_001 + "\n", "longer than 1,000,000"),
    "a lone surrogate": ("a: b\nc: \ud800\n", "not valid YAML"),
    "a month 13": ("d: 2024-13-01\n", "cannot build"),
}

#: YAML's own markers, and what hostile files repeat.
MARKERS = ["---", "...", ":", ": ", "- ", "[", "]", "{", "}", "{:", ",", "&a ", "*a", "<<: "]
MARKERS += ["!!int ", "!!python/name:os.system ", "? ", "|", ">", "#", '"', "'", "\\u", "\n"]
MARKERS += ["  ", "\t", "k", "1" * 50, ":1" * 40, "2024-13-45", "\ud800", "\x00", "\ufeff"]


@st.composite
def yaml_texts(draw: st.DrawFn) -> str:
    """A run of markers, a nest of lists or maps, or an alias tree, cut at any character."""
    kind = draw(st.sampled_from(["markers", "flow", "block", "laughs"]))
    if kind == "markers":
        text = "".join(draw(st.lists(st.sampled_from(MARKERS), max_size=60)))
    elif kind == "flow":
        depth = draw(st.integers(0, 400))
        text = "a: " + "[" * depth + "x" + "]" * depth + "\n"
    elif kind == "block":
        text = "".join("  " * i + f"k{i}:\n" for i in range(draw(st.integers(0, 120))))
    else:
        text = _laughs(draw(st.integers(0, 8)), draw(st.integers(1, 12)))
    return text[: draw(st.integers(0, len(text)))]
