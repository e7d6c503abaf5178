"""Cycles as Python runs them, through the CLI (issue 21, point 5; content/guides/cycles.md):
``sitegen check`` passes a package whose would-be cycles go through ``if TYPE_CHECKING:`` and
function-level imports, fails once ``cycles_include`` puts them back, the source pages name
the kinds, and guidance that removes a package's re-export says what that breaks.

Both packages below were written for these tests; the expected lines are worked out by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.code.test_import_context import SHOP
from tests.e2e.conftest import run_cli, write_project

#: ``tools/__init__.py`` re-exports ``Engine`` and ``run`` from ``tools/core.py``, which reads
#: ``VERSION`` back from the package through two modules of its own: a real load-time cycle
#: that removing the one re-export breaks, while the other side takes two removals. Two files
#: take the re-exported names from the package; ``tools/other.py`` imports the package but
#: none of the names.
TOOLS = {
    "tools/__init__.py": 'VERSION = "1"\n\nfrom tools.core import Engine, run\n',
    "tools/core.py": "from tools import a, b\n\n\nclass Engine:\n    pass\n\n\n"
    "def run() -> str:\n    return a.name() + b.name()\n",
    "tools/a.py": "from tools import VERSION\n\n\ndef name() -> str:\n    return VERSION\n",
    "tools/b.py": "from tools import VERSION\n\n\ndef name() -> str:\n    return VERSION\n",
    "tools/cli.py": "from tools import Engine\n",
    "tools/web.py": "from tools import run as start\n",
    "tools/other.py": "import tools\n",
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(
        tmp_path_factory.mktemp("shop") / "proj",
        {**SHOP, "content/index.md": "# Shop\n", "sitegen.toml": 'source = ["shop"]\n'},
    )


def _check(root: Path, *args: str) -> tuple[int, list[str]]:
    proc = run_cli("check", "--root", str(root), "--jobs", "1", *args)
    return proc.returncode, [line for line in proc.stdout.splitlines() if ": error: " in line]


def test_check_passes_when_the_cycles_run_only_later_or_never(shop: Path) -> None:
    code, errors = _check(shop)
    assert (code, errors) == (0, [])
    cycles = run_cli("cycles", "--root", str(shop), "--jobs", "1")
    assert cycles.stdout.splitlines()[0].endswith(
        "0 cyclic units (0 files), 5 acyclic units (0 independent); 0 recursive symbol groups; "
        "0 relation cycles. Left out: 3 deferred dependencies "
        "(the cycles_include option puts them back)."
    )


def test_the_option_puts_the_cycle_back(shop: Path) -> None:
    config = shop.parent / "include.toml"
    config.write_text('source = ["shop"]\ncycles_include = ["deferred"]\n', encoding="utf-8")
    code, errors = _check(shop, "--config", str(config))
    assert code == 1
    assert errors == [
        # at the pair's earliest evidence: the return annotation, through the deferred import
        "shop/models.py:10:1: error: Dependency cycle of 2 files: shop/billing.py, "
        "shop/models.py (e.g. shop/billing.py -> shop/models.py -> shop/billing.py); removing "
        "shop/models.py -> shop/billing.py makes them acyclic. [code-cycles]"
    ]


def test_source_pages_name_the_kind_of_each_import(shop: Path) -> None:
    proc = run_cli("build", "--root", str(shop), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    models = (shop / "site/code/shop/models.py.html").read_text(encoding="utf-8")
    assert "line 11, deferred" in models
    billing = (shop / "site/code/shop/billing.py.html").read_text(encoding="utf-8")
    assert "line 11, deferred" in billing  # imported by models.py, inside a method
    audit = (shop / "site/code/shop/audit.py.html").read_text(encoding="utf-8")
    # the else branch's import runs at load time: no kind after its line
    assert "line 13, deferred" in audit and "line 6<" in audit and "line 6," not in audit
    graph = json.loads((shop / "site/code-graph.json").read_text(encoding="utf-8"))
    contexts = sorted(e["context"] for e in graph["edges"] if "context" in e)
    assert contexts == ["deferred", "deferred", "deferred"]


def test_guidance_that_removes_a_re_export_says_what_breaks(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "tools", {**TOOLS, "content/index.md": "# T\n", "sitegen.toml": ""}
    )
    code, errors = _check(root)
    assert code == 1
    assert errors == [
        "tools/__init__.py:3:1: error: Dependency cycle of 4 files: tools/__init__.py, "
        "tools/a.py, tools/b.py, tools/core.py "
        "(e.g. tools/__init__.py -> tools/core.py -> tools/a.py -> tools/__init__.py); "
        "removing tools/__init__.py -> tools/core.py makes them acyclic. "
        "tools/__init__.py -> tools/core.py: it is a re-export of the package: removing it "
        "breaks `from tools import Engine, run` for 2 importers: tools/cli.py, tools/web.py. "
        "[code-cycles]"
    ]
    cycles = json.loads(run_cli("cycles", "--root", str(root), "--json").stdout)
    (unit,) = cycles["code"]["cyclic"]
    assert unit["break"] == [
        {
            "src": "tools/__init__.py",
            "dst": "tools/core.py",
            "reexport": {
                "package": "tools",
                "names": ["Engine", "run"],
                "importers": ["tools/cli.py", "tools/web.py"],
            },
        }
    ]
    run_cli("build", "--root", str(root), "--jobs", "1")
    page = (root / "site/cycles.html").read_text(encoding="utf-8")
    assert "<strong>Careful</strong>: it is a re-export of the package" in page


def test_guidance_keeps_a_re_export_when_another_pair_as_few_breaks_the_cycle(
    tmp_path: Path,
) -> None:
    """Same package, but core reads VERSION back directly: one pair either way, and the
    guidance removes core's import rather than the package's public interface."""
    files = {
        **TOOLS,
        "tools/core.py": "from tools import VERSION\n\n\nclass Engine:\n    pass\n\n\n"
        "def run() -> str:\n    return VERSION\n",
    }
    root = write_project(tmp_path / "tools", {**files, "content/index.md": "# T\n"})
    code, errors = _check(root)
    assert code == 1
    assert errors == [
        "tools/core.py:1:1: error: Dependency cycle of 2 files: tools/__init__.py, "
        "tools/core.py (e.g. tools/__init__.py -> tools/core.py -> tools/__init__.py); "
        "removing tools/core.py -> tools/__init__.py makes them acyclic. [code-cycles]"
    ]
