"""The page cache, .sitegen/pages.json (sitegen/state/remembered.py): JSON Lines, a line a page. A
rebuild writes the lines of unchanged pages back as they were read and encodes only the
records it extracted; every line is checked on its own, and a bad one costs only its page."""

from __future__ import annotations

import dataclasses
import datetime
import json
from pathlib import Path
from typing import Any

import pytest

from sitegen.build import BuildOptions, build
from sitegen.config import load_config
from sitegen.docs.markdown import extract_page
from sitegen.records.pages import PageRecord
from sitegen.state import remembered as incremental
from sitegen.state.remembered import STATE_FILE, STATE_VERSION, BuildState, load_state, save_state

PAGES = {
    "content/a.md": "---\ntitle: A\ntags: [x, y]\n---\n# A\n\nSee [b](b.md#part).\n",
    "content/b.md": "# B\n\n## Part\n\nBack to [a](a.md) and ![i](i.png).\n",
    "content/c.md": "# C\n\nText with a line separator \u2028 and a carriage return\r in it.\n",
}


def records() -> dict[str, PageRecord]:
    return {path: extract_page(path, text.encode()) for path, text in PAGES.items()}


def saved(tmp_path: Path, pages: dict[str, PageRecord]) -> Path:
    save_state(tmp_path, BuildState(pages=dict(pages)))
    return tmp_path / STATE_FILE


def lines_of(cache: Path) -> list[bytes]:
    return cache.read_bytes().split(b"\n")


def write_lines(cache: Path, lines: list[bytes]) -> None:
    cache.write_bytes(b"\n".join(lines))


def test_a_line_a_page_sorted_after_a_version_header(tmp_path: Path) -> None:
    cache = saved(tmp_path, records())
    header, *entries, end = lines_of(cache)
    assert json.loads(header) == [STATE_VERSION, incremental.code_version(), ""]
    assert [json.loads(line)[0] for line in entries] == sorted(PAGES)
    assert end == b""
    state = load_state(tmp_path, clean=False)
    assert state.pages == records() and state.dropped == 0


def test_unchanged_records_are_written_back_byte_identical_without_encoding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = saved(tmp_path, records())
    before = lines_of(cache)
    state = load_state(tmp_path, clean=False)
    changed = extract_page("content/b.md", b"# B\n\n## Part\n\nEdited.\n")
    to_dict = PageRecord.to_dict

    def only_the_changed(rec: PageRecord) -> dict[str, object]:
        assert rec is changed, f"{rec.path} is unchanged, yet encoded"
        return to_dict(rec)

    monkeypatch.setattr(PageRecord, "to_dict", only_the_changed)
    # As the build does: a new dict, holding the very records that were loaded.
    state.pages = {**state.pages, "content/b.md": changed}
    save_state(tmp_path, state)
    after = lines_of(cache)
    assert after[0] == before[0]
    assert after[1] == before[1] and after[3] == before[3]  # a.md and c.md, as they were
    assert after[2] != before[2]
    assert load_state(tmp_path, clean=False).pages == {**records(), "content/b.md": changed}


def test_an_equal_record_that_was_not_loaded_is_encoded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reuse is by identity: a record the build made again is encoded, even if equal."""
    saved(tmp_path, records())
    state = load_state(tmp_path, clean=False)
    encoded: list[str] = []
    to_dict = PageRecord.to_dict

    def counting(rec: PageRecord) -> dict[str, object]:
        encoded.append(rec.path)
        return to_dict(rec)

    monkeypatch.setattr(PageRecord, "to_dict", counting)
    state.pages = {**state.pages, "content/a.md": records()["content/a.md"]}
    save_state(tmp_path, state)
    assert encoded == ["content/a.md"]


def test_a_corrupt_line_drops_only_its_page(tmp_path: Path) -> None:
    cache = saved(tmp_path, records())
    lines = lines_of(cache)
    lines[2] = lines[2][: len(lines[2]) // 2]  # content/b.md, cut in half
    write_lines(cache, lines)
    state = load_state(tmp_path, clean=False)
    assert state.dropped == 1
    assert state.pages == {p: r for p, r in records().items() if p != "content/b.md"}


@pytest.mark.parametrize(
    "line",
    [
        b'["content/b.md", {"path": "content/b.md", "links": [{"href": 5}]}]',
        b'["content/b.md"]',
        b'{"content/b.md": {}}',
        b"true",
        b"\xff\xfe",
        b"[" * 100_000,
    ],
)
def test_a_forged_line_is_dropped(tmp_path: Path, line: bytes) -> None:
    cache = saved(tmp_path, records())
    lines = lines_of(cache)
    lines[2] = line
    write_lines(cache, lines)
    state = load_state(tmp_path, clean=False)
    assert state.dropped == 1 and sorted(state.pages) == ["content/a.md", "content/c.md"]


def test_entries_of_the_wrong_types_are_dropped(tmp_path: Path) -> None:
    cache = saved(tmp_path, records())
    lines = lines_of(cache)
    path, entry = json.loads(lines[1])
    entry["headings"][0]["level"] = "1"
    lines[1] = json.dumps([path, entry]).encode()
    path, entry = json.loads(lines[3])
    entry["front_matter"] = ["not", "a", "mapping"]
    lines[3] = json.dumps([path, entry]).encode()
    write_lines(cache, lines)
    state = load_state(tmp_path, clean=False)
    assert state.dropped == 2 and list(state.pages) == ["content/b.md"]


def test_a_line_whose_path_disagrees_is_dropped(tmp_path: Path) -> None:
    cache = saved(tmp_path, records())
    lines = lines_of(cache)
    _, entry = json.loads(lines[2])
    lines[2] = json.dumps(["content/a-different.md", entry]).encode()
    write_lines(cache, lines)
    state = load_state(tmp_path, clean=False)
    assert state.dropped == 1 and "content/b.md" not in state.pages


def test_a_page_twice_is_kept_once(tmp_path: Path) -> None:
    cache = saved(tmp_path, records())
    lines = lines_of(cache)
    lines.insert(2, lines[1])
    write_lines(cache, lines)
    state = load_state(tmp_path, clean=False)
    assert state.dropped == 1 and state.pages == records()


def test_another_version_is_ignored_and_a_damaged_header_reported(tmp_path: Path) -> None:
    cache = saved(tmp_path, records())
    lines = lines_of(cache)
    for header in (
        json.dumps([STATE_VERSION, "0.0.0+other", ""]).encode(),
        json.dumps([STATE_VERSION - 1, incremental.code_version()]).encode(),
    ):
        write_lines(cache, [header, *lines[1:]])
        state = load_state(tmp_path, clean=False)
        assert state.pages == {} and state.dropped == 0
    # Extracted under other options declared PAGES (incremental.pages_key): not read.
    other = json.dumps([STATE_VERSION, incremental.code_version(), "other"]).encode()
    write_lines(cache, [other, *lines[1:]])
    assert load_state(tmp_path, clean=False, key="") == BuildState()
    assert load_state(tmp_path, clean=False, key="other").pages == records()
    # The single document of version 3, before the page cache had a line a page.
    old = {"version": [3, incremental.code_version()], "pages": {}}
    cache.write_text(json.dumps(old))
    assert load_state(tmp_path, clean=False) == BuildState()
    # A damaged header: the file is set aside (sitegen/state/files.py), with one warning.
    for damaged in (b'[4, "cut\n' + b"\n".join(lines[1:]), b""):
        cache.write_bytes(damaged)
        state = load_state(tmp_path, clean=False)
        assert state.pages == {} and state.dropped == 0
        assert [d.message.split(" (")[0] for d in state.diagnostics] == [
            "the page cache cannot be read"
        ]
        assert "set aside as pages.json.unreadable" in state.diagnostics[0].message
        assert (
            not cache.exists() and cache.with_name("pages.json.unreadable").read_bytes() == damaged
        )


def test_dates_in_front_matter_come_back_as_dates(tmp_path: Path) -> None:
    dated = dataclasses.replace(
        records()["content/a.md"],
        front_matter={
            "day": datetime.date(2024, 5, 6),
            "at": datetime.datetime(2024, 5, 6, 7, 8, 9),
            "days": [datetime.date(2024, 1, 1)],
        },
    )
    # Text that looks like a tag, where no date is: stays text.
    tagged_text = dataclasses.replace(
        records()["content/b.md"], title='{"$sitegen-date": "2024-05-06"}'
    )
    saved(tmp_path, {**records(), "content/a.md": dated, "content/b.md": tagged_text})
    state = load_state(tmp_path, clean=False)
    assert state.dropped == 0
    assert state.pages["content/a.md"] == dated
    assert type(state.pages["content/a.md"].front_matter["day"]) is datetime.date
    assert state.pages["content/b.md"] == tagged_text


@pytest.mark.parametrize(
    "front_matter",
    [
        {"pair": (1, 2)},  # comes back a list
        {"set": {1, 2}},  # no JSON for it
        {"$sitegen-date": "2024-05-06"},  # would come back a date
        {1: "a number for a key"},  # comes back a string key
        {"nan": float("nan")},  # not equal to itself
    ],
)
def test_front_matter_json_cannot_hold_exactly_is_not_cached(
    tmp_path: Path, front_matter: dict[Any, object]
) -> None:
    odd = dataclasses.replace(records()["content/a.md"], front_matter=front_matter)
    saved(tmp_path, {**records(), "content/a.md": odd})
    state = load_state(tmp_path, clean=False)
    assert state.dropped == 0 and sorted(state.pages) == ["content/b.md", "content/c.md"]


def test_text_json_escapes_or_not_comes_back_the_same(tmp_path: Path) -> None:
    odd = dataclasses.replace(
        records()["content/c.md"], title="a\nb\u2028c\u2029d\re\x00f \ud800 \U0001f600"
    )
    saved(tmp_path, {**records(), "content/c.md": odd})
    state = load_state(tmp_path, clean=False)
    assert state.dropped == 0 and state.pages["content/c.md"] == odd


def test_clean_or_missing_reads_nothing(tmp_path: Path) -> None:
    assert load_state(tmp_path, clean=False) == BuildState()
    saved(tmp_path, records())
    assert load_state(tmp_path, clean=True) == BuildState()


def test_a_rebuild_encodes_only_the_edited_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through a whole build: the records of unchanged pages reach save_state as the very
    objects that were loaded, so only the edited page is encoded."""
    for path, text in PAGES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8", newline="")
    config = load_config(tmp_path)
    build(config, BuildOptions(jobs=1, quiet=True))
    cache = tmp_path / ".sitegen" / STATE_FILE
    before = lines_of(cache)
    encoded: list[str] = []
    to_dict = PageRecord.to_dict

    def counting(rec: PageRecord) -> dict[str, object]:
        encoded.append(rec.path)
        return to_dict(rec)

    monkeypatch.setattr(PageRecord, "to_dict", counting)
    (tmp_path / "content/b.md").write_text("# B\n\n## Part\n\nEdited.\n")
    result = build(config, BuildOptions(jobs=1, quiet=True))
    assert encoded == ["content/b.md"]
    after = lines_of(cache)
    assert [after[1], after[3]] == [before[1], before[3]] and after[2] != before[2]
    assert load_state(tmp_path / ".sitegen", clean=False).pages == {p.path: p for p in result.pages}


def test_the_builds_guide_names_this_version() -> None:
    guide = Path(__file__).resolve().parents[1] / "content/guides/builds.md"
    assert f'`[{STATE_VERSION}, "' in guide.read_text(encoding="utf-8")


def test_a_digest_taken_piece_by_piece_tells_apart_what_a_join_would_run_together() -> None:
    each = incremental.digest_each
    assert each(["ab"], ["c"]) != each(["a"], ["bc"])  # across parts
    assert each(["ab", "c"]) != each(["a", "bc"])  # across items
    assert each([], ["a"]) != each(["a"], [])  # an empty part still counts
    assert each(["a\x00", "b"]) != each(["a", "\x00b"])  # a NUL in a value is spelled escaped
    assert each(iter(["a", "b"]), (x for x in [1])) == each(["a", "b"], [1])  # read as made
