"""Issue 27, defects 3 and 14: a hostile VitePress ``config.ts`` is one warning, and the build
goes on (sitegen/base/js_literals.py reads it as literals, never runs it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.safety.conftest import make_project, sitegen

pytestmark = pytest.mark.slow  # one whole build per case, in a subprocess

_TEN = ", ".join


def _chain(levels: int) -> str:
    lines = [f"const c0 = [{_TEN(['1'] * 10)}]"]
    lines += [f"const c{i} = [{_TEN([f'c{i - 1}'] * 10)}]" for i in range(1, levels)]
    return "\n".join(lines) + f"\nexport default {{ themeConfig: {{ sidebar: c{levels - 1} }} }}\n"


HOSTILE = {
    "ten-fold constants, 7 levels": (_chain(7), "more than 100,000 values"),
    "escape beyond U+10FFFF": (
        "export default { title: '\\u{FFFFFFFFFFFFFFFFFFFF}', themeConfig: {} }\n",
        "no Unicode character",
    ),
    "lone surrogate in the sidebar": (
        "export default { themeConfig: { sidebar: [{ text: '\\uD800', link: '/guide' }] } }\n",
        "lone surrogate",
    ),
    "3,000 nested arrays": (
        "export default { themeConfig: { sidebar: " + "[" * 3000 + "]" * 3000 + " } }\n",
        "64 levels",
    ),
    "5,000-digit number": ("export default { title: " + "9" * 5000 + " }\n", "400 characters"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_config_ts_is_one_warning(tmp_path: Path, name: str) -> None:
    config, words = HOSTILE[name]
    root = make_project(
        tmp_path,
        {
            "docs/index.md": "# Home\n\nSee [the guide](guide.md).\n",
            "docs/guide.md": "# Guide\n",
            "docs/.vitepress/config.ts": config,
            "sitegen.toml": 'content = "docs"\n',
        },
    )
    done = sitegen(root, "build", "--jobs", "1", timeout=60)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "internal error" not in said and "Traceback" not in said
    warnings = [line for line in said.splitlines() if "docs/.vitepress/config.ts:" in line]
    assert len(warnings) == 1, said
    assert words in warnings[0] and len(warnings[0]) < 400
    assert (root / "site/guide.html").is_file()
