"""What the benchmark scripts share (bench/README.md): the corpus generator beside the
clone, and the command lines of the tools they time, written once so every script times
the same ``sitegen`` and ``mkdocs`` invocations.

The scripts run as ``python bench/NAME.py``, so this folder is first on ``sys.path`` and
``import common`` finds this file.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
#: ../shared/bench/gen_corpus.py: writes docs/*.md, mkdocs.yml, mkdocs-smallnav.yml and a
#: sitegen.toml (out = "site-sitegen") into the folder it is given.
GENERATOR = REPO.parent / "shared" / "bench" / "gen_corpus.py"


def generate(dest: Path, pages: int) -> int:
    """A corpus of about ``pages`` pages in ``dest``; the number of pages it wrote."""
    subprocess.run(
        [sys.executable, str(GENERATOR), str(dest), "--pages", str(pages)],
        check=True,
        capture_output=True,
    )
    return len(list((dest / "docs").rglob("*.md")))


#: The command line of either layout, so that bench/versions.py can run a revision from before
#: issue 31's rooms (``sitegen.cli``) beside one after (``sitegen.commands.cli``).
_RUN = """import importlib, sys
try:
    cli = importlib.import_module("sitegen.commands.cli")
except ImportError:
    cli = importlib.import_module("sitegen.cli")
sys.argv[0] = "sitegen"
cli.main()
"""


def sitegen(*args: str) -> list[str]:
    """``sitegen ARGS`` run by this interpreter (the checkout's sitegen, not another one)."""
    return [sys.executable, "-c", _RUN, *args]


def mkdocs_build(dest: Path) -> list[str]:
    """mkdocs's fastest fair set-up: the corpus's small-nav config, quiet, into ``dest``."""
    return mkdocs("build", "-d", str(dest))


def mkdocs(command: str, *args: str) -> list[str]:
    """``mkdocs COMMAND -q -f mkdocs-smallnav.yml ARGS``, run by this interpreter."""
    return [sys.executable, "-m", "mkdocs", command, "-q", "-f", "mkdocs-smallnav.yml", *args]
