"""GitHub slugs (content/reference/headings.md): examples worked out by hand from the rules."""

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitegen.docs.slug import Slugger, github_slug

PINNED = [
    ("Hello World", "hello-world"),
    ("a - b", "a---b"),  # no collapsing
    (" padded ", "-padded-"),  # no trimming
    ("Café & Ünïcode: what's new?", "café--ünïcode-whats-new"),
    ("C++ / C# — interop notes", "c--c--interop-notes"),  # em dash is not the ASCII hyphen
    ("FAQ (frequently asked questions)", "faq-frequently-asked-questions"),
    ("Step 1: install sitegen", "step-1-install-sitegen"),
    ("100% coverage?!", "100-coverage"),
    ("Notes, caveats, and gotchas...", "notes-caveats-and-gotchas"),
    ("日本語の見出し", "日本語の見出し"),
    ("Ελληνικά και emoji 🚀", "ελληνικά-και-emoji-"),
    ("a.b.c / x_y_z", "abc--x_y_z"),  # '_' is connector punctuation: kept
    ("x² ½", "x-"),  # superscripts and fractions are "other numbers": removed
    ("Ⅻ roman", "ⅻ-roman"),  # letter numbers are kept
    ("İstanbul", "i\u0307stanbul"),  # full lower-casing adds a combining dot, a mark
    ("ΣΟΦΟΣ", "σοφος"),  # final sigma, as JavaScript's toLowerCase
    ("e\u0301te", "e\u0301te"),  # combining marks stay
    ("❤\ufe0f love", "\ufe0f-love"),  # the emoji goes, its variation selector (a mark) stays
    ("👍🏽 ok", "-ok"),  # skin-tone modifiers are symbols
    ("no\u00a0break", "nobreak"),  # NBSP is a separator other than the space
    ("tab\there", "tabhere"),  # controls go
    ("zero\u200bwidth", "zerowidth"),  # format characters go
    ("Über-config: defaults & overrides!", "über-config-defaults--overrides"),
]


@pytest.mark.parametrize(("text", "slug"), PINNED)
def test_pinned_slugs(text: str, slug: str) -> None:
    assert github_slug(text) == slug


def test_repeats_are_numbered_per_original_slug() -> None:
    slugger = Slugger()
    assert [slugger.slug(t) for t in ["Foo", "Foo", "Foo-1", "foo", "Bar"]] == [
        "foo",
        "foo-1",
        "foo-1-1",
        "foo-2",
        "bar",
    ]


def test_reserved_ids_are_never_generated() -> None:
    slugger = Slugger()
    slugger.reserve("intro")
    slugger.reserve("setup-1")
    assert slugger.slug("Intro") == "intro-1"
    assert slugger.slug("Setup") == "setup"
    assert slugger.slug("Setup") == "setup-2"


def test_empty_slugs_repeat_as_github_slugger_does() -> None:
    slugger = Slugger()
    assert [slugger.slug("🚀"), slugger.slug("🎉")] == ["", "-1"]


_KEPT = {"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "Pc"}


@given(st.text())
def test_slug_keeps_only_allowed_characters(text: str) -> None:
    slug = github_slug(text)
    assert " " not in slug
    assert all(c == "-" or unicodedata.category(c) in _KEPT for c in slug)


@given(st.text(), st.text())
def test_each_space_becomes_one_hyphen(left: str, right: str) -> None:
    assert github_slug(f"{left} {right}") == f"{github_slug(left)}-{github_slug(right)}"


@given(st.lists(st.sampled_from(["Foo", "foo", "Foo-1", "foo-2", "Bar", "", "x x"]), max_size=30))
def test_slugger_ids_are_unique_and_derived_from_the_slug(texts: list[str]) -> None:
    slugger = Slugger()
    ids = [slugger.slug(t) for t in texts]
    assert len(set(ids)) == len(ids)
    for text, id_ in zip(texts, ids, strict=True):
        base = github_slug(text)
        suffix = id_[len(base) :]
        assert id_.startswith(base)
        assert suffix == "" or (suffix[0] == "-" and suffix[1:].isdigit())
