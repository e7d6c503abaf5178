"""The one bounded YAML reader (sitegen/base/yamldata.py): size, depth, values with aliases
expanded, merge keys and number lengths are checked before anything is built, and whatever
it refuses is a ``yaml.YAMLError`` with a place; nothing else escapes (issue 27, defect 17)."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings

from sitegen.base.yamldata import (
    FAST_SAFE_LOADER,
    MAX_CHARACTERS,
    YamlRefused,
    describe,
    error_place,
    read_yaml,
)
from tests.safety.linear import grows_linearly
from tests.safety.yaml_shapes import GROWING, REFUSED, yaml_texts

LOADERS = [FAST_SAFE_LOADER, yaml.SafeLoader]


def _read(text: str, loader: type[yaml.SafeLoader] | None = None) -> object:
    try:
        return read_yaml(text, loader).data
    except yaml.YAMLError as exc:
        return describe(exc)


def test_plain_yaml_is_read_with_the_line_of_each_top_level_key() -> None:
    text = "title: x\n# note\n'quoted key': [a, {b: c}]\nnested:\n  inner: 1\n"
    document = read_yaml(text)
    assert document.data == {"title": "x", "quoted key": ["a", {"b": "c"}], "nested": {"inner": 1}}
    assert document.key_lines == {"title": 0, "quoted key": 2, "nested": 3}


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_text_over_a_bound_is_refused_with_a_place(
    name: str, loader: type[yaml.SafeLoader] | None
) -> None:
    text, said = REFUSED[name]
    with pytest.raises(yaml.YAMLError) as caught:
        read_yaml(text, loader)
    assert said in describe(caught.value)
    line, column = error_place(caught.value)
    assert 0 <= line <= text.count("\n") and column >= 0
    assert len(describe(caught.value)) < 200  # never the input whole


def test_the_size_is_checked_before_anything_is_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    def parse(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed")

    monkeypatch.setattr(yaml, "parse", parse)
    monkeypatch.setattr(yaml, "load", parse)
    with pytest.raises(YamlRefused, match="longer than"):
        read_yaml("a: " + "[" * MAX_CHARACTERS)


def test_aliases_under_the_bound_are_read() -> None:
    text = "base: &b {a: 1}\nuse:\n  <<: *b\n  c: 2\nlist: [*b, *b]\n"
    assert read_yaml(text).data["use"] == {"a": 1, "c": 2}


def test_where_a_refused_text_went_over_is_its_place() -> None:
    text = "ok: 1\nlist:\n" + "".join("  " * i + "- \n" for i in range(70))
    with pytest.raises(YamlRefused) as caught:
        read_yaml(text)
    assert error_place(caught.value)[0] == 2 + 63  # the list that opens level 65


@settings(deadline=None, max_examples=50)
@given(yaml_texts())
def test_any_hostile_text_is_data_or_one_yaml_error(text: str) -> None:
    for loader in LOADERS:
        _read(text, loader)  # anything but a YAMLError escapes and fails the test


@pytest.mark.parametrize("name", sorted(GROWING))
def test_each_hostile_shape_is_read_in_linear_time(name: str) -> None:
    ok, said = grows_linearly(_read, GROWING[name], 2_000, 120_000)
    assert ok, said


@pytest.mark.parametrize("text", ["&a !!int", "!!int", "x: !!float"])
def test_an_empty_typed_scalar_is_one_yaml_error_with_either_loader(text: str) -> None:
    # PyYAML's Python constructor indexes the empty text of `!!int` (an IndexError, found by
    # hypothesis on a Jekyll _config.yml); the libyaml loader raises a ValueError.
    for loader in (yaml.SafeLoader, None):
        try:
            read_yaml(text, loader)
        except yaml.YAMLError:
            pass
