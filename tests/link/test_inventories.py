"""Autorefs to other projects (issue 20, point 6): an ``objects.inv`` named in the
configuration resolves them offline; one that resolves nowhere shows its label, never the
brackets, with one info line; a bad inventory is a warning and the build goes on."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from sitegen.link.inventory import HEADER, parse_inventory
from tests.cli.conftest import sitegen, write

ENTRIES = [
    "dataclasses py:module 0 library/dataclasses.html#module-$ -",
    "dataclasses std:label -1 library/dataclasses.html#dataclasses Data Classes",
    "dataclasses.dataclass py:function 1 library/dataclasses.html#$ -",
    "json py:module 0 library/json.html#module-$ -",
    "an index page std:doc -1 genindex.html An index page",
]


def inventory(lines: list[str], header: bytes = HEADER) -> bytes:
    """A Sphinx inventory of version 2: four comment lines, then zlib-compressed lines."""
    head = header + b"\n# Project: Python\n# Version: 3.12\n"
    head += b"# The remainder of this file is compressed using zlib.\n"
    return head + zlib.compress(("\n".join(lines) + "\n").encode())


def _project(tmp_path: Path, config: str, page: str, inv: bytes | None) -> Path:
    root = write(
        tmp_path / "p",
        {"sitegen.toml": 'content = "content"\n' + config, "content/index.md": page},
    )
    if inv is not None:
        (root / "inv").mkdir()
        (root / "inv" / "python.inv").write_bytes(inv)
    return root


PAGE = "# Home\n\nUse [dataclasses][dataclasses], [`json`][] and [the decorator][dataclasses.dataclass].\n"
TABLE = '[inventories]\n"https://docs.python.org/3/" = "inv/python.inv"\n'


def test_parse_joins_the_base_url_and_expands_the_name() -> None:
    entries, problem = parse_inventory(inventory(ENTRIES), "https://docs.python.org/3/", "x.inv")
    assert problem == ""
    urls = {name: e.url for name, e in entries.items()}
    assert (
        urls["dataclasses"]
        == "https://docs.python.org/3/library/dataclasses.html#module-dataclasses"
    )
    assert urls["dataclasses.dataclass"] == (
        "https://docs.python.org/3/library/dataclasses.html#dataclasses.dataclass"
    )
    assert urls["an index page"] == "https://docs.python.org/3/genindex.html"


def test_relative_addresses_without_a_base_url_are_left_out_with_a_reason() -> None:
    lines = [*ENTRIES, "abs py:module 1 https://example.org/abs.html -"]
    entries, problem = parse_inventory(inventory(lines), "", "x.inv")
    assert set(entries) == {"abs"}
    assert "5 entries have addresses relative" in problem and "x.inv" in problem


@pytest.mark.parametrize(
    "data,says",
    [
        (b"not an inventory\n", "not a Sphinx inventory"),
        (inventory(ENTRIES, b"# Sphinx inventory version 1"), "not a Sphinx inventory"),
        (inventory(ENTRIES)[:-20] + b"\x00garbage", "damaged"),
        (HEADER + b"\n# P\n# V\n# zlib\n" + b"\x78\x9c\xff\xff", "damaged"),
    ],
)
def test_a_bad_inventory_is_refused_with_a_reason(data: bytes, says: str) -> None:
    entries, problem = parse_inventory(data, "https://docs.python.org/3/", "x.inv")
    assert entries == {} and says in problem


def test_an_inventory_resolves_autorefs_offline_to_external_urls(tmp_path: Path) -> None:
    root = _project(tmp_path, TABLE, PAGE, inventory(ENTRIES))
    run = sitegen("build", "-q", root=root)
    assert run.code == 0, run.err
    assert not [line for line in run.err_lines if "autoref" in line or "inventory" in line]
    html = (root / "site/index.html").read_text()
    assert (
        '<a href="https://docs.python.org/3/library/dataclasses.html#module-dataclasses" '
        'class="autoref">dataclasses</a>'
    ) in html
    assert 'href="https://docs.python.org/3/library/json.html#module-json"' in html
    assert 'href="https://docs.python.org/3/library/dataclasses.html#dataclasses.dataclass"' in html
    graph = (root / "site/graph.json").read_text()
    assert '"https://docs.python.org/3/library/json.html"' in graph


def test_an_autoref_that_resolves_nowhere_shows_its_label_and_one_info_line(
    tmp_path: Path,
) -> None:
    root = _project(tmp_path, "", PAGE, None)
    run = sitegen("build", "-q", root=root)
    assert run.code == 0, run.err
    infos = [line for line in run.err_lines if "unresolved" in line or "cross-reference" in line]
    line = PAGE.splitlines()[2]
    said = [
        (line.index(written) + 1, name, label)
        for written, name, label in [
            ("[dataclasses]", "dataclasses", "dataclasses"),
            ("[`json`]", "json", "json"),
            ("[the decorator]", "dataclasses.dataclass", "the decorator"),
        ]
    ]
    assert infos == [
        f"content/index.md:3:{col}: info: cross-reference '{name}' names nothing of the code "
        f"graph or an inventory; it is shown as its text, '{label}'"
        for col, name, label in said
    ]
    html = (root / "site/index.html").read_text()
    body = html.split("<p>Use ", 1)[1].split("</p>", 1)[0]
    assert "[" not in body and "href" not in body
    assert '<a class="autoref">dataclasses</a>' in body
    assert '<a class="autoref"><code>json</code></a>' in body
    assert '<a class="autoref">the decorator</a>' in body


def test_a_reference_definition_still_takes_its_label_first(tmp_path: Path) -> None:
    page = "# Home\n\nSee [dataclasses][dataclasses].\n\n[dataclasses]: https://example.org/dc\n"
    root = _project(tmp_path, "", page, None)
    run = sitegen("build", "-q", root=root)
    assert "cross-reference" not in run.err
    assert (
        '<a href="https://example.org/dc">dataclasses</a>' in (root / "site/index.html").read_text()
    )


@pytest.mark.parametrize(
    "inv,config,says",
    [
        (b"garbage\n", TABLE, "inv/python.inv:1:1: warning: not a Sphinx inventory"),
        (None, TABLE, "inv/python.inv:1:1: warning: inventory not read: no such file"),
        (
            inventory(ENTRIES),
            'inventories = ["inv/python.inv"]\n',
            "inv/python.inv:1:1: warning: 5 entries have addresses relative",
        ),
        (
            None,
            'inventories = ["../outside.inv"]\n',
            "../outside.inv:1:1: warning: inventory not read",
        ),
    ],
)
def test_a_bad_inventory_is_a_warning_and_the_build_goes_on(
    tmp_path: Path, inv: bytes | None, config: str, says: str
) -> None:
    (tmp_path / "outside.inv").write_bytes(inventory(ENTRIES))
    root = _project(tmp_path, config, PAGE, inv)
    run = sitegen("build", root=root)
    assert run.code == 0, run.err
    assert any(line.startswith(says) for line in run.err_lines), run.err
    assert (root / "site/index.html").is_file()
    assert "cross-reference 'dataclasses' names nothing" in run.err


@pytest.mark.parametrize(
    "value",
    [
        "inventories = 3\n",
        'inventories = { "ftp://x/" = "a.inv" }\n',
        'inventories = { "https://x/" = 1 }\n',
    ],
)
def test_a_bad_inventories_option_is_one_sentence_and_exit_2(tmp_path: Path, value: str) -> None:
    root = _project(tmp_path, value, PAGE, None)
    run = sitegen("build", root=root)
    assert run.code == 2
    assert len(run.err_lines) == 1 and "option 'inventories'" in run.err


def test_explain_shows_the_inventory_step(tmp_path: Path) -> None:
    import json

    root = _project(tmp_path, TABLE, PAGE, inventory(ENTRIES))
    run = sitegen("explain", "--json", "content/index.md:3:5", root=root)
    data = json.loads(run.out)
    assert [s["rule"] for s in data["steps"]] == ["autoref", "inventory"]
    assert data["steps"][1]["found"].endswith("(inv/python.inv)")
    assert data["result"]["url"] == (
        "https://docs.python.org/3/library/dataclasses.html#module-dataclasses"
    )
    text = sitegen("explain", "content/index.md:3:5", root=root).out
    assert "  2. inventory: " in text
