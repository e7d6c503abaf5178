"""A hostile peer and a damaged store (issue 27, rows 12 and 19, Deliver points 3 and 4): a
peer's graph.md and the stored copies are read within caps, in linear time, and whatever
cannot be read is a bounded number of diagnostics, never an exception or a hang."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from sitegen.base.diagnostics import Level
from sitegen.federation import ingest as ingest_module
from sitegen.federation.ingest import MAX_PROBLEMS, ingest, site_prefix
from sitegen.federation.store import copy_file, load_copy, save_copy
from sitegen.records.federation import PeerCopy, PeerEdge
from tests.federation.helpers import PEER_A, SITE, build_site, peer_backlinks, write_site
from tests.safety.linear import bytes_grows_linearly, costs_at_most

OURS = site_prefix(SITE)
GOOD_ROW = "| /a.md | https://docs.b.example/guides/intro.html |  | x |  | 1 |\n"
#: What one reading may report at most: the rows, the count of the rest, two caps met.
MOST = MAX_PROBLEMS + 3


def _read(data: bytes) -> ingest_module.Ingested:
    return ingest(data, "peer", OURS, "2026-01-01T00:00:00Z", "d")


def _peer_file(tmp_path: Path, text: str) -> Path:
    peer = tmp_path / "a" / "graph.md"
    peer.parent.mkdir(parents=True, exist_ok=True)
    peer.write_text(text, encoding="utf-8")
    return peer


def _warnings(result: object) -> list[str]:
    return [d.format() for d in result.diagnostics if d.level is Level.WARNING]  # type: ignore[attr-defined]


# ------------------------------------------------------------------ malformed rows (row 12)


def test_many_malformed_rows_are_a_few_warnings_once_and_a_count_in_the_copy(
    tmp_path: Path,
) -> None:
    rows = 20_000
    _peer_file(tmp_path, PEER_A + "| /x.md | only | three |\n" * rows)
    root = write_site(tmp_path / "b", '["../a"]')
    first = build_site(root)
    warnings = _warnings(first)
    assert len(warnings) == MAX_PROBLEMS + 1  # was one per row: 20,000
    assert warnings[-1].endswith(
        f"peer graph.md: ({rows - MAX_PROBLEMS} more malformed rows, not reported one by one)"
    )
    assert len(peer_backlinks(first)) == 2  # the good rows are read
    [copy] = (root / ".sitegen" / "peers").glob("*.json")
    assert copy.stat().st_size < 4_000  # a count, not 20,000 messages
    # the next build uses the copy: the rows were reported when read, not at every build
    second = build_site(root)
    assert _warnings(second) == []
    [summary] = [d.message for d in second.diagnostics if d.code == "peer-summary"]
    assert summary.endswith(f"; {rows} malformed rows skipped")


def test_the_lines_the_edges_and_a_line_s_length_are_capped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ingest_module, "MAX_LINES", 40)
    monkeypatch.setattr(ingest_module, "MAX_EDGES", 3)
    long_row = "| /a.md | https://docs.b.example/" + "x" * 20_000 + " |  |  |  | 1 |\n"
    read = _read((PEER_A + long_row + GOOD_ROW * 100).encode())
    assert len(read.copy.edges) == 3
    messages = [m for _, m in read.problems]
    assert "row is longer than 16,384 bytes; row skipped" in messages
    assert "more than 40 lines; the rest was not read" in messages
    assert "21 edges point to this site; the first 3 were kept" in messages  # of 40 lines


def test_a_long_cell_is_cut_in_a_message() -> None:
    read = _read((PEER_A + "| /a.md | /b.md |  |  |  | " + "9" * 10_000 + " |\n").encode())
    [(_, message)] = read.problems
    assert len(message) <= ingest_module.MAX_MESSAGE
    assert message.startswith("count '999") and message.endswith(
        "is not a positive integer; row skipped"
    )


def test_a_long_title_is_cut_once_not_copied_onto_every_edge() -> None:
    text = PEER_A.replace("| /index.md | Home A | page |", f"| /index.md | {'T' * 9_000} | page |")
    read = _read(("# " + "N" * 5_000 + "\n" + text).encode())
    assert {len(e.title) for e in read.copy.edges if e.source == "/index.md"} == {200}
    assert len(read.copy.name) == 200


# ------------------------------------------------------------------ property: the reader


#: Pieces of a graph.md, its own markers first: runs of them are what a reader chokes on.
_PIECES = st.sampled_from(
    [
        "|", "\\", "\\|", "#", "# ", "## Edges", "---", "| --- |", ":", "-", " ", "\t", "\n",
        "\r", "\r\n", "```", "~~~", "&lt;", "&", "| From | To |", "| Node | Title | Kind |",
        "9" * 40, "https://docs.b.example/guides/intro.html", "http://127.0.0.1/",
        "\ud800", "\udfff", "\ufeff", "\x00", "é", GOOD_ROW,
    ]
)  # fmt: skip


@st.composite
def _hostile(draw: st.DrawFn) -> bytes:
    """A graph.md of the reader's markers, repeated runs of them, lone surrogates written as
    bytes (not valid UTF-8), cut anywhere."""
    parts = draw(st.lists(st.tuples(_PIECES, st.integers(1, 400)), max_size=30))
    text = "".join(piece * times for piece, times in parts)
    data = (draw(st.sampled_from(["", PEER_A])) + text).encode("utf-8", "surrogatepass")
    return data[: draw(st.integers(0, len(data)))]


@settings(deadline=None, max_examples=40)
@given(_hostile())
def test_any_graph_md_reads_into_a_copy_with_few_problems(data: bytes) -> None:
    read = _read(data)
    assert len(read.problems) <= MOST
    assert all(len(m) <= ingest_module.MAX_MESSAGE for _, m in read.problems)
    assert all(len(e.title) <= ingest_module.MAX_TITLE for e in read.copy.edges)


def test_a_graph_md_cut_at_every_byte_reads() -> None:
    data = PEER_A.encode() + "| /é.md | https://docs.b.example/ |  |  |  | 1 |\n".encode()
    for end in range(len(data) + 1):
        read = _read(data[:end])
        assert len(read.problems) <= MOST
        assert len(read.copy.edges) <= 3


# ------------------------------------------------------------------ time: the reader


_SHAPES: dict[str, Callable[[int], bytes]] = {
    "malformed rows": lambda n: (PEER_A + "| a | b |\n" * n).encode(),
    "good rows": lambda n: (PEER_A + GOOD_ROW * (n // 10)).encode(),
    # one line, kept under MAX_LINE_BYTES (a longer one is skipped before it is parsed)
    "a heading's run of spaces": lambda n: ("# a" + " " * min(n, 16_000) + "x\n" + PEER_A).encode(),
    "runs of pipes": lambda n: (PEER_A + ("|" * 1000 + "\n") * (n // 100)).encode(),
    "runs of escaped pipes": lambda n: (PEER_A + ("| " + "\\|" * 500 + " |\n") * (n // 100)).encode(),
    "table starts": lambda n: ("| From | To |\n| --- | --- |\n" * n).encode(),
    "fences": lambda n: ("```\n" * n + PEER_A).encode(),
    "one huge line": lambda n: ("| " + "a|" * n * 10 + "\n").encode(),
    "lines that are not UTF-8": lambda n: b"| \xff |\n" * n,
}  # fmt: skip


@pytest.mark.parametrize("shape", list(_SHAPES))
def test_reading_a_graph_md_takes_time_linear_in_it(shape: str) -> None:
    # the heading's line stays under the line cap: from 1,000 to 8,000 spaces, no doubling
    size, most = (1_000, 1_000) if shape == "a heading's run of spaces" else (500, 50_000)
    ok, said = bytes_grows_linearly(_read, _SHAPES[shape], size=size, max_size=most)
    assert ok, f"{shape}: {said}"


def test_reading_a_graph_md_costs_no_more_than_markdown_it_s_parse_of_it() -> None:
    # graph.md is a page of markdown: reading a peer's must never cost more than rendering it.
    md = MarkdownIt("commonmark").enable("table")
    sizes = {"malformed rows": 2_000, "a heading's run of spaces": 16_000}
    for shape, size in {**sizes, "runs of pipes": 2_000, "fences": 2_000}.items():
        data = _SHAPES[shape](size)
        text = data.decode()
        ok, said = costs_at_most(
            lambda data=data: _read(data),  # type: ignore[misc]
            lambda text=text: md.parse(text),  # type: ignore[misc]
            2,
            0.005,
        )
        assert ok, f"{shape}: {said} (markdown-it's parse)"


# ------------------------------------------------------------------ stored copies (row 19)


def _stored(tmp_path: Path, edges: int = 2) -> Path:
    """A stored copy of a peer ``peer`` with ``edges`` edges; returns its file."""
    edge = PeerEdge("/a.md", "A é", OURS + "guides/intro.html", "", "", "x", "", 1)
    copy = PeerCopy("peer", OURS, "Docs A", "2026-01-01T00:00:00Z", edges=(edge,) * edges)
    assert save_copy(tmp_path, copy) == ""
    return copy_file(tmp_path, "peer")


#: Damage done to a stored copy's text; each leaves something that is no copy.
_DAMAGE: dict[str, Callable[[str], str]] = {
    "a lone surrogate escape": lambda t: t.replace('"Docs A"', '"Docs \\ud800"'),
    "a surrogate in an edge": lambda t: t.replace('"A é"', '"\\udfff"'),
    "cut short": lambda t: t[: len(t) // 2],
    "deep nesting": lambda t: "[" * 100_000 + "]" * 100_000,
    "a 5,000-digit count": lambda t: t.replace('"total":0', '"total":' + "9" * 5_000),
    "an infinite count": lambda t: t.replace('"total":0', '"total":1e999'),
    "a count of -1": lambda t: t.replace('"total":0', '"total":-1'),
    "another peer's": lambda t: t.replace('"key":"peer"', '"key":"other"'),
    "no JSON at all": lambda t: "\x00\xff binary",
    "an edge row of 7": lambda t: t.replace(",1]", "]", 1),
}


def _load(cache: Path) -> tuple[PeerCopy | None, str]:
    """The copy of the peer ``peer`` and the warning's line ("" for none)."""
    loaded = load_copy(cache, "peer", "peer")
    return loaded.copy, loaded.warning.format() if loaded.warning else ""


@pytest.mark.parametrize("damage", list(_DAMAGE))
def test_a_damaged_copy_is_set_aside_with_a_warning(tmp_path: Path, damage: str) -> None:
    cache = tmp_path / ".sitegen"
    path = _stored(cache)
    path.write_text(_DAMAGE[damage](path.read_text(encoding="utf-8")), encoding="utf-8")
    copy, warning = _load(cache)
    assert copy is None
    shown = f".sitegen/peers/{path.name}"  # from the cache folder on, never absolute
    assert warning.startswith(f"{shown}:1:1: warning: the stored copy of peer peer cannot be")
    assert warning.endswith(f"it was set aside as {shown}.unreadable and rebuilt")
    assert not path.exists() and path.with_name(path.name + ".unreadable").exists()
    assert _load(cache) == (None, "")  # said once


def test_a_folder_where_a_copy_belongs_is_set_aside(tmp_path: Path) -> None:
    path = _stored(tmp_path)
    path.unlink()
    (path / "inside").mkdir(parents=True)
    assert "a folder, not a file" in _load(tmp_path)[1]
    assert _stored(tmp_path).is_file()  # and the next copy is stored where it belongs


@pytest.mark.parametrize("damage", ["a lone surrogate escape", "cut short", "deep nesting"])
def test_a_build_after_a_damaged_copy_reads_the_peer_again_and_the_next_is_clean(
    tmp_path: Path, damage: str
) -> None:
    _peer_file(tmp_path, PEER_A)
    root = write_site(tmp_path / "b", '["../a"]')
    build_site(root, write=True)
    [path] = (root / ".sitegen" / "peers").glob("*.json")
    text = path.read_text(encoding="utf-8").replace('"Docs A"', '"Docs \\ud800"')
    if damage != "a lone surrogate escape":
        text = _DAMAGE[damage](text)
    path.write_text(text, encoding="utf-8")
    (root / "content" / "index.md").write_text("# B home, edited\n", encoding="utf-8")
    second = build_site(root, write=True)  # issue 27, row 19: every later build failed
    [warning] = _warnings(second)
    shown = f".sitegen/peers/{path.name}"
    assert warning.startswith(f"{shown}:1:1: warning: the stored copy of peer ../a cannot be")
    assert warning.endswith(f"it was set aside as {shown}.unreadable and rebuilt")
    assert path.is_file()  # stored again, from the peer
    assert "Docs A" in (root / "site" / "peers.html").read_text(encoding="utf-8")
    os.utime(tmp_path / "a" / "graph.md", ns=(7, 7))  # read again, so no no-change build
    assert _warnings(build_site(root, write=True)) == []


# ------------------------------------------------------------------ property: the store


@st.composite
def _damaged_copy(draw: st.DrawFn) -> str:
    """A stored copy's text with a surrogate escape, a huge number or nesting put in at a
    drawn place, and cut anywhere."""
    text = draw(st.sampled_from([_COPY_TEXT, _COPY_TEXT.replace('"Docs A"', '"x"')]))
    at = draw(st.integers(0, len(text)))
    piece = draw(
        st.sampled_from(
            ['"\\ud800"', "\\udc00", "9" * 5_000, "1e999", "[" * 5_000, '{"a":' * 3_000, ""]
        )
    )
    text = text[:at] + piece + text[at:]
    return text[: draw(st.integers(0, len(text)))]


_COPY_TEXT = json.dumps(
    {
        "version": 2, "key": "peer", "site": OURS, "name": "Docs A",
        "read_at": "2026-01-01T00:00:00Z", "digest": "", "etag": "", "last_modified": "",
        "stat": "", "total": 1, "dropped": 0, "malformed": 0,
        "edges": [["/a.md", "A", OURS + "guides/intro.html", "", "", "x", "", 1]],
    },
    separators=(",", ":"),
)  # fmt: skip


@settings(deadline=None, max_examples=50)
@given(_damaged_copy())
def test_any_stored_copy_loads_or_is_set_aside(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    cache = tmp_path_factory.mktemp("cache")
    path = copy_file(cache, "peer")
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    copy, warning = _load(cache)
    if copy is None:
        assert warning or json.loads(text).get("version") != 2
    else:
        assert warning == ""
        assert all(not re.search("[\ud800-\udfff]", e.title + e.source) for e in copy.edges)
        assert save_copy(cache, copy) == ""  # what was read can be written back


def test_a_stored_copy_cut_at_every_byte_loads_or_is_set_aside(tmp_path: Path) -> None:
    data = _COPY_TEXT.encode()
    path = copy_file(tmp_path, "peer")
    path.parent.mkdir(parents=True)
    for end in range(len(data)):
        path.write_bytes(data[:end])
        copy, warning = _load(tmp_path)
        assert copy is None and "cannot be read" in warning


def test_reading_a_stored_copy_takes_time_linear_in_it(tmp_path: Path) -> None:
    def make(n: int) -> bytes:
        return _stored(tmp_path, edges=n).read_bytes()

    def read(data: bytes) -> object:
        path = copy_file(tmp_path, "peer")
        path.write_bytes(data)
        return _load(tmp_path)

    ok, said = bytes_grows_linearly(read, make, size=200, max_size=50_000)
    assert ok, said


def test_copies_of_removed_peers_go_whatever_they_are(tmp_path: Path) -> None:
    from sitegen.federation.store import forget_others

    folder = tmp_path / "peers"
    (folder / "a-folder.json" / "inside").mkdir(parents=True)  # unlink() raised on it
    (folder / "old.json.unreadable").write_text("x", encoding="utf-8")
    secret = PeerCopy("https://u:pw@docs.a.example/?token=t", OURS, "A", "")
    assert save_copy(tmp_path, secret) == ""
    _stored(tmp_path)
    removed = forget_others(tmp_path, {"peer"})
    assert sorted(removed) == ["a-folder.json", "https://***@docs.a.example/?token=***"]
    assert sorted(p.name for p in folder.iterdir()) == [copy_file(tmp_path, "peer").name]
