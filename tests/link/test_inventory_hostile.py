"""Issue 27, defects 11 and 18 and Deliver 3: an ``objects.inv`` is outside input, so its
reader is bounded by construction. Hostile lines (long runs of spaces, huge priorities,
surrogates, invalid UTF-8), a body cut at every byte and a zlib bomb give a reason or
nothing, never an exception, in time linear in the input."""

from __future__ import annotations

import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.link import inventory as inv
from sitegen.link.inventory import HEADER, MAX_PRIORITY_DIGITS, parse_inventory
from tests.link.test_inventories import ENTRIES, inventory
from tests.safety.linear import bytes_grows_linearly

BASE = "https://docs.python.org/3/"


def raw_inventory(body: bytes) -> bytes:
    """An inventory whose compressed part holds exactly ``body``."""
    head = HEADER + b"\n# Project: P\n# Version: 1\n# The remainder is compressed using zlib.\n"
    return head + zlib.compress(body)


def test_a_run_of_spaces_inside_a_line_is_read_in_linear_time() -> None:
    """Defect 11: 'a' + 160,000 spaces + 'b' took 173 s in a backtracking pattern."""
    ok, said = bytes_grows_linearly(
        lambda data: parse_inventory(data, BASE, "x.inv"),
        lambda n: inventory(["a" + " " * n + "b"]),
        size=1_000,
        max_size=8_000,
    )
    assert ok, said


@pytest.mark.parametrize(
    "line",
    [
        "a" + " " * 60_000 + "b",
        "a b:c " + " 1" * 30_000,
        "a" + " x:y" * 15_000,
        "a " + "b:c 1 " * 10_000,
    ],
)
def test_lines_of_the_readers_own_markers_are_read_at_once(line: str) -> None:
    entries, problem = parse_inventory(inventory([line, *ENTRIES]), BASE, "x.inv")
    assert problem == "" and "json" in entries


def test_a_name_with_spaces_ends_before_the_first_role_and_priority() -> None:
    """As Sphinx reads a line: the shortest name that leaves role, priority, address and title."""
    lines = [
        "Data Classes std:label -1 library/dataclasses.html#dc Data Classes",
        "two  spaces std:doc -1  Home",  # an empty address: the root page of a dirhtml site
        "no title py:module 0 x.html",  # no display name: not an entry
        "x:y py:module 1 y.html -",
    ]
    entries, problem = parse_inventory(inventory(lines), BASE, "x.inv")
    assert problem == ""
    assert {name: e.url for name, e in entries.items()} == {
        "Data Classes": BASE + "library/dataclasses.html#dc",
        "two  spaces": BASE,
        "x:y": BASE + "y.html",
    }


def test_a_priority_of_5000_digits_skips_its_line_with_a_counted_warning() -> None:
    """Defect 18: int() of over 4,300 digits raised ValueError, an internal error."""
    lines = [*ENTRIES, "big py:module " + "9" * 5_000 + " big.html -", "ok py:module 1 ok.html -"]
    entries, problem = parse_inventory(inventory(lines), BASE, "x.inv")
    assert "big" not in entries and "ok" in entries and "json" in entries
    assert problem == f"1 line with a priority of more than {MAX_PRIORITY_DIGITS} digits skipped"
    assert "9" * 20 not in problem


def test_a_priority_at_the_cap_is_still_read() -> None:
    entries, _ = parse_inventory(
        inventory(["max py:module " + "9" * MAX_PRIORITY_DIGITS + " m.html -"]), BASE, "x.inv"
    )
    assert entries["max"].rank == (False, 3)


def test_an_overlong_line_is_skipped_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inv, "MAX_LINE", 100)
    lines = ["long py:module 1 " + "x" * 200 + ".html -", *ENTRIES, "k" * 101]
    entries, problem = parse_inventory(inventory(lines), BASE, "x.inv")
    assert "long" not in entries and "json" in entries
    assert problem == "2 lines over 100 characters skipped"


def test_lines_past_the_cap_are_ignored_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inv, "MAX_LINES", 3)
    entries, problem = parse_inventory(inventory(ENTRIES), BASE, "x.inv")
    assert set(entries) == {"dataclasses", "dataclasses.dataclass"}
    assert problem == "only the first 3 lines read"


def test_a_zlib_bomb_is_refused_without_inflating_it() -> None:
    """100 MB of zeros compress to about 100 KB; the reader stops at its cap (64 MB)."""
    entries, problem = parse_inventory(raw_inventory(bytes(100 * 1024 * 1024)), BASE, "x.inv")
    assert entries == {} and problem == "the inventory holds more than 67,108,864 bytes; ignored"


def test_a_body_cut_at_every_byte_is_damaged_or_read() -> None:
    data = inventory(ENTRIES)
    header = len(data) - len(data.split(b"\n", 4)[4])
    for cut in range(header, len(data)):
        entries, problem = parse_inventory(data[:cut], BASE, "x.inv")
        assert entries == {} and problem == "the inventory's compressed part is damaged; ignored"
    for cut in range(header):  # inside the four header lines
        entries, problem = parse_inventory(data[:cut], BASE, "x.inv")
        assert entries == {} and "not a Sphinx inventory" in problem


#: Pieces an inventory line is made of, and pieces that break it.
PIECES = st.sampled_from(
    [
        "a",
        " ",
        "\t",
        "  ",
        ":",
        "py:function",
        "std:label",
        "1",
        "-1",
        "9" * 5_000,
        "x.html#$",
        "https://e.org/$",
        "javascript:alert(1)",
        "-",
        "\ud800",
        "\u2028",
        "\x00",
        "é",
        " " * 3_000,
    ]
)
LINES = st.lists(st.lists(PIECES, max_size=12).map("".join), max_size=20)


@settings(deadline=None, max_examples=40)
@given(lines=LINES, junk=st.binary(max_size=40))
def test_hostile_lines_give_entries_or_a_reason_never_an_exception(
    lines: list[str], junk: bytes
) -> None:
    body = "\n".join(lines).encode("utf-8", "surrogatepass") + junk
    entries, problem = parse_inventory(raw_inventory(body), BASE, "x.inv")
    assert isinstance(problem, str) and len(problem) < 400
    for entry in entries.values():
        assert entry.url.startswith(("http://", "https://")) and "javascript" not in entry.url


@settings(deadline=None, max_examples=30)
@given(data=st.binary(max_size=300), cut=st.integers(min_value=0, max_value=400))
def test_any_bytes_after_the_header_give_a_reason_or_entries(data: bytes, cut: int) -> None:
    whole = raw_inventory(data)
    for candidate in (HEADER + b"\n#\n#\n# zlib\n" + data, whole[:cut]):
        entries, problem = parse_inventory(candidate, BASE, "x.inv")
        assert isinstance(entries, dict) and isinstance(problem, str)


@pytest.mark.parametrize(
    "make",
    [
        lambda n: inventory([f"n{i} py:function 1 a.html#$ -" for i in range(n // 20)]),
        lambda n: inventory(["p py:module " + "9" * n + " a.html -"]),
        lambda n: inventory(["a b:c " + " 1" * (n // 2)]),
        lambda n: raw_inventory(b"\n" * n),
    ],
    ids=["many lines", "long priority", "role and priority runs", "empty lines"],
)
def test_time_is_linear_in_the_inventory(make: object) -> None:
    ok, said = bytes_grows_linearly(
        lambda data: parse_inventory(data, BASE, "x.inv"),
        make,  # type: ignore[arg-type]
        size=2_000,
        max_size=64_000,
    )
    assert ok, said
