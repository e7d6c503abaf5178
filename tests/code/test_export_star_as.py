"""``export * as name from``: the name may be the keyword ``default`` or a string, which the
JavaScript grammar gives no named child (a real project's sources crashed the build on it)."""

from __future__ import annotations

import pytest

from sitegen.base.languages import LangId
from sitegen.code.extract import extract_source


@pytest.mark.parametrize(
    ("line", "alias"),
    [
        ('export * as ns from "./x.js";', "ns"),
        ('export * as default from "./x.js";', "default"),
        ('export * as "a b" from "./x.js";', "a b"),
    ],
)
@pytest.mark.parametrize("lang", [LangId.JAVASCRIPT, LangId.TYPESCRIPT])
def test_export_star_as_names_its_alias(line: str, alias: str, lang: LangId) -> None:
    path = "src/index.ts" if lang is LangId.TYPESCRIPT else "src/index.js"
    record = extract_source(path, lang, line.encode())
    found = [imp for imp in record.imports if imp.form == "export-from"]
    assert [(imp.specifier, imp.alias, imp.star) for imp in found] == [("./x.js", alias, False)]
