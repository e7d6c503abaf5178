"""``:::`` blocks found in a page's bytes, their options read and checked, and what each
becomes; then through the docs step, with positions mapped back to the ``:::`` line."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.api.blocks import block_targets, expansions, find_blocks, merged_options
from sitegen.base.paths import RepoPath
from sitegen.base.progress import Progress
from sitegen.docs.pipeline import extract_pages
from sitegen.records.api import ApiModel
from sitegen.records.crawl import SourceFile
from tests.api.gizmo import FIXTURES, fixture_model
from tests.safety.linear import grows_linearly

PAGE = "docs/api.md"


@pytest.fixture(scope="module")
def model() -> ApiModel:
    return fixture_model()


def test_blocks_and_their_options_are_found_outside_fences() -> None:
    data = (
        b"# API\n\n::: gizmo.parts.Gadget\n    options:\n      show_root_heading: true\n\n"
        b"      heading_level: 3\n\nText.\n\n```\n::: not.a.block\n```\n   ::: gizmo.tools\n"
    )
    blocks = find_blocks(data)
    assert [(b.target, b.line, dict(b.options)) for b in blocks] == [
        ("gizmo.parts.Gadget", 3, {"show_root_heading": True, "heading_level": 3}),
        ("gizmo.tools", 14, {}),
    ]
    assert data[blocks[0].start : blocks[0].end].endswith(b"heading_level: 3")
    assert block_targets(data) == ["gizmo.parts.Gadget", "gizmo.tools"]


def test_a_container_kind_is_no_block_even_when_no_line_closes_it() -> None:
    """VitePress' own Spanish guide closes ``::: warning`` at the end of a paragraph line
    (``…esperado.:::``), which markdown-it does not read as a close: it was taken for an
    API block of a module named ``warning``."""
    page = b"# T\n\n::: warning\nCuidado.:::\n\n## Next\n\n::: pkg\n"
    assert block_targets(page) == ["pkg"]


def test_a_container_or_an_indented_line_is_no_block() -> None:
    assert find_blocks(b"::: tip\nText\n:::\n") == []  # a container, closed
    assert [b.target for b in find_blocks(b"::: gizmo\n")] == ["gizmo"]
    assert find_blocks(b"    ::: gizmo.parts\n") == []


def test_the_fixture_pages_name_their_blocks() -> None:
    page = (FIXTURES / "docs" / "options.md").read_bytes()
    (block,) = find_blocks(page)
    assert block.target == "gizmo" and block.options["docstring_options"] == {
        "ignore_init_summary": True
    }


def test_block_options_override_global_ones_key_by_key() -> None:
    options, problems = merged_options(
        {"show_source": False, "docstring_options": {"ignore_init_summary": True}},
        {"heading_level": 4, "docstring_options": {"trim_doctest_flags": False}},
    )
    assert problems == []
    assert options.show_source is False and options.heading_level == 4
    assert options.docstring_options == {"trim_doctest_flags": False}  # replaced whole


def test_an_unknown_option_is_one_warning_with_the_valid_names() -> None:
    options, problems = merged_options({}, {"show_rot_heading": True, "bogus": 1})
    assert len(problems) == 1
    assert problems[0].startswith("unknown options bogus, show_rot_heading, ignored;")
    assert "show_root_heading" in problems[0]
    assert options.show_root_heading is False


def test_known_options_sitegen_does_not_apply_are_accepted() -> None:
    assert (
        merged_options({}, {"docstring_section_style": "spacy", "unwrap_annotated": True})[1] == []
    )


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ({"members_order": "bogus"}, "'bogus' is not one of alphabetical, source"),
        ({"heading_level": "2"}, "'2' is not int"),
        ({"heading_level": True}, "True is not int"),
        ({"heading_level": 9}, "9 is not between 1 and 6"),
        ({"show_source": "yes"}, "'yes' is not bool"),
        ({"members": [1, 2]}, "a list of names is expected"),
        ({"filters": "private"}, "'private' is not a list of patterns or 'public'"),
    ],
)
def test_a_bad_value_is_a_warning_and_the_default(given: dict[str, object], said: str) -> None:
    options, problems = merged_options({}, given)
    (name,) = given
    assert problems == [f"option {name}: {said}; its default is used"]
    assert getattr(options, name) == getattr(merged_options({}, {})[0], name)


def test_bad_yaml_options_are_one_warning() -> None:
    (block,) = find_blocks(b"::: gizmo.tools\n    options: [unclosed\n")
    assert len(block.problems) == 1 and "is not valid YAML" in block.problems[0]


def test_a_missing_object_is_one_warning_with_did_you_mean(model: ApiModel) -> None:
    (found,) = expansions(PAGE, b"::: gizmo.parts.Gadgte\n", model)
    assert found.text == b""
    assert found.problem == (
        "::: gizmo.parts.Gadgte: no such object was found in the loaded code; "
        "did you mean gizmo.parts.Gadget?"
    )


def test_a_block_of_a_package_that_is_nowhere_adds_no_second_warning(model: ApiModel) -> None:
    (found,) = expansions(PAGE, b"::: nowhere.Thing\n", model)
    assert found.text == b"" and found.problem is None  # load_api said it, once


def test_global_options_apply_to_every_block(model: ApiModel) -> None:
    (found,) = expansions(PAGE, b"::: gizmo.tools.helper\n", model, {"show_root_heading": True})
    assert b'{id="gizmo.tools.helper"}\n## `gizmo.tools.helper`' in found.text


def extracted(model: ApiModel, data: bytes, **kwargs: object) -> object:
    (rec,) = extract_pages(
        [SourceFile(RepoPath(PAGE), data)],
        1,
        Progress(enabled=False),
        api=model,
        **kwargs,  # type: ignore[arg-type]
    )
    return rec


def test_through_the_docs_step_positions_map_back_to_the_block_line(model: ApiModel) -> None:
    data = (
        b"# API\n\nIntro [a link](missing.md).\n\n"
        b"::: gizmo.parts.Gadget\n    options:\n      members: false\n      bogus: 1\n\n"
        b"After [b](after.md).\n"
    )
    rec = extracted(model, data)
    links = {x.href: (x.line, x.column) for x in rec.links}  # type: ignore[attr-defined]
    assert links["missing.md"] == (3, 7)
    assert links["after.md"] == (10, 7)
    # the docstring's own link and role, and the Source link, all sit at the ::: line
    assert links["gizmo.parts.Frame"][0] == 5
    assert any(h.endswith(".py#L46-L134") or ".py#L" in h for h in links)
    assert all(line == 5 for h, (line, _) in links.items() if ".py#L" in h)
    headings = {h.id: h.line for h in rec.headings}  # type: ignore[attr-defined]
    assert headings == {"api": 1, "gizmo.parts.Gadget": 5}  # the hidden root's heading
    assert "gizmo.parts.Gadget" in rec.anchors  # type: ignore[attr-defined]
    (warning,) = [d for d in rec.diagnostics if "bogus" in d.message]  # type: ignore[attr-defined]
    assert warning.line == 5


def test_a_second_block_after_options_warns_at_its_own_line(model: ApiModel) -> None:
    data = (
        b"# API\n\n::: gizmo.parts.Frame\n    options:\n      members: false\n\n"
        b"::: gizmo.tools.faulty\n\n::: gizmo.parts.Gadgte\n    options:\n      x: 1\n"
    )
    rec = extracted(model, data)
    lines = sorted((d.line, d.message[:24]) for d in rec.diagnostics)  # type: ignore[attr-defined]
    assert lines == [(7, "::: gizmo.tools.faulty: "), (9, "::: gizmo.parts.Gadgte: ")]


def test_the_cache_key_follows_the_rendered_block(model: ApiModel) -> None:
    data = b"::: gizmo.tools.helper\n"
    first = extracted(model, data)
    again = extracted(model, data)
    other = extracted(model, data, api_options={"show_source": False})
    assert first.content_hash == again.content_hash != other.content_hash  # type: ignore[attr-defined]


def test_without_a_model_the_block_stays_one_link(model: ApiModel) -> None:
    (rec,) = extract_pages(
        [SourceFile(RepoPath(PAGE), b"::: gizmo.tools.helper\n")], 1, Progress(enabled=False)
    )
    assert [x.href for x in rec.links] == ["gizmo.tools.helper"]


def test_broken_link_in_a_docstring_maps_to_the_block_line(tmp_path: Path) -> None:
    from sitegen.records.api import ApiKind, ApiObject, Docstring

    model = ApiModel()
    model.objects["m"] = ApiObject(
        "m",
        "m",
        ApiKind.MODULE,
        "m.py",
        1,
        9,
        docstring=Docstring("See [the guide](nowhere.md).\n\nAnd <script>x</script> | y.", 1),
    )
    rec = extracted(model, b"# T\n\ntext\n\n  ::: m\n")
    (link,) = [x for x in rec.links if x.href == "nowhere.md"]  # type: ignore[attr-defined]
    assert (link.line, link.column) == (5, 3)
    assert "<script" not in rec.html  # type: ignore[attr-defined]


def test_many_one_word_lines_before_one_closing_take_linear_time() -> None:
    """Whether a one-word ``::: name`` opens a container was a search onwards for a closing
    ``:::`` from each such line: quadratic in their number when one closing ends the page."""
    ok, said = grows_linearly(
        lambda text: find_blocks(text.encode()), lambda n: "::: box\n" * (n // 8) + ":::\n"
    )
    assert ok, said
