"""PageRecord.to_dict is dataclasses.asdict written out field by field (the page cache encodes
with it), and from_dict takes back exactly what to_dict gives and nothing of another shape."""

from __future__ import annotations

import dataclasses
import datetime
import json
from typing import Any

import pytest

from sitegen.docs.markdown import extract_page
from sitegen.records.pages import LinkKind, PageRecord

RICH = (
    "---\ntitle: T\ndate: 2024-05-06\ntags: [a, b]\nextra: {n: 1, xs: [1.5, true, null]}\n"
    "rel-supersedes: a.md, b.md\nrel:x: y\n---\n"
    "# T\n\n## Part {#part}\n\n[a](a.md) [b][ref] ![img](i.png) <https://example.com> "
    '<a name="raw"></a>\n\n## Part\n\n[ref]: b.md#part\n\xff\n'
).encode("latin-1")


def rich_record() -> PageRecord:
    rec = extract_page("content/p.md", RICH)
    # every nested kind is there to compare
    assert rec.front_matter and rec.headings and rec.links and rec.relations and rec.diagnostics
    assert {x.kind for x in rec.links} == {"inline", "reference", "image", "autolink"}
    assert rec.anchors
    return rec


def test_to_dict_equals_asdict_on_an_extracted_record() -> None:
    rec = rich_record()
    assert rec.to_dict() == dataclasses.asdict(rec)
    assert list(rec.to_dict()) == list(dataclasses.asdict(rec))  # the same key order
    for key in ("headings", "links", "relations", "diagnostics"):
        assert [list(d) for d in rec.to_dict()[key]] == [
            list(d) for d in dataclasses.asdict(rec)[key]
        ]


def test_to_dict_equals_asdict_with_dates_and_nesting_in_front_matter() -> None:
    rec = dataclasses.replace(
        rich_record(),
        front_matter={
            "day": datetime.date(2024, 5, 6),
            "at": datetime.datetime(2024, 5, 6, 7, 8, 9),
            "deep": {"list": [{"x": [1, 2]}, None, 2.5, False]},
        },
    )
    assert rec.to_dict() == dataclasses.asdict(rec)


def test_to_dict_copies_what_could_be_mutated() -> None:
    rec = rich_record()
    data = rec.to_dict()
    data["front_matter"]["extra"]["xs"].append("more")
    data["links"][0]["href"] = "elsewhere"
    data["anchors"].append("new")
    assert rec == extract_page("content/p.md", RICH)


def test_from_dict_takes_back_what_to_dict_gives() -> None:
    rec = rich_record()
    assert PageRecord.from_dict(json.loads(json.dumps(rec.to_dict()))) == rec


def test_a_link_kind_is_cached_as_its_plain_value_and_read_back_as_the_enum() -> None:
    rec = rich_record()
    text = json.dumps(rec.to_dict())
    assert '"kind": "inline"' in text and '"kind": "reference"' in text
    back = PageRecord.from_dict(json.loads(text))
    assert [type(x.kind) for x in back.links] == [LinkKind] * len(back.links)
    assert [x.kind for x in back.links] == [x.kind for x in rec.links]


def _forged(change: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(rich_record().to_dict()))
    if change == "a bool for an int":
        data["headings"][0]["level"] = True
    elif change == "a float for an int":
        data["links"][0]["line"] = 1.0
    elif change == "a field too many":
        data["links"][0]["extra"] = ""
    elif change == "a field missing":
        del data["relations"][0]["line"]
    elif change == "a list for a link":
        data["links"][0] = list(data["links"][0].values())
    elif change == "no such level":
        data["diagnostics"][0]["level"] = "fatal"
    elif change == "a number for an anchor":
        data["anchors"].append(1)
    elif change == "a list for the front matter":
        data["front_matter"] = []
    elif change == "an object for the links":
        data["links"] = {"0": data["links"][0]}
    elif change == "no html":
        del data["html"]
    elif change == "no such link kind":
        data["links"][0]["kind"] = "hyperlink"
    return data


@pytest.mark.parametrize(
    "change",
    [
        "a bool for an int",
        "a float for an int",
        "a field too many",
        "a field missing",
        "a list for a link",
        "no such level",
        "a number for an anchor",
        "a list for the front matter",
        "an object for the links",
        "no html",
        "no such link kind",
    ],
)
def test_from_dict_refuses_any_other_shape(change: str) -> None:
    with pytest.raises((TypeError, KeyError, ValueError)):
        PageRecord.from_dict(_forged(change))
