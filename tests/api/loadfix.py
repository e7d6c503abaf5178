"""A small project for the loader's tests, written to a temporary folder: a package with a
re-export, every kind of method, a namespace package, a module with a syntax error, a cycle
of aliases, an excluded module, and an "installed" package outside the project.

The sources are strings (a file with a syntax error cannot sit in the tree: ruff checks it).
"""

from __future__ import annotations

from pathlib import Path

from sitegen.config import Config
from sitegen.crawl import crawl
from sitegen.records.crawl import Crawl

PACKAGE = {
    "src/fixpkg/__init__.py": '''"""The fixture package."""

from fixpkg.core import Widget, make_widget
from fixpkg.util import helper as public_helper
from extdep.things import Gadget
from hiddendep import Unused

__all__ = ["Widget", "make_widget", "public_helper", "Gadget", "VERSION"]

VERSION: str = "1.0"
"""The version."""
''',
    "src/fixpkg/core.py": '''"""Widgets."""

from __future__ import annotations

from typing import Generic, TypeVar

from fixpkg.other import Thing

T = TypeVar("T")
DEFAULT_SIZE: int = 10


class Base:
    """A base."""

    def base_method(self) -> None:
        """Only in the base."""


class Widget(Base, Generic[T]):
    """A widget.

    Args:
        size: How big.
    """

    size: int

    def __init__(self, size: int = DEFAULT_SIZE, *, name: str | None = None) -> None:
        self.size = size

    @property
    def area(self) -> int:
        """The area."""
        return self.size * self.size

    @classmethod
    def create(cls, *args: int, **kwargs: str) -> Widget:
        """Make one."""
        return cls(*args)

    @staticmethod
    def stat(a: int, /, b: int = 2) -> int:
        return a + b

    async def fetch(self) -> bytes:
        return b""

    def pick(self, things: list[Thing]) -> Thing | None:
        return None

    def _private(self) -> None:
        pass


def make_widget(size: int = 3) -> Widget[int]:
    """Make a widget."""
    return Widget(size)


raise SystemExit("the fixture was run")
''',
    "src/fixpkg/other.py": '''class Thing:
    """A thing."""
''',
    "src/fixpkg/util.py": '''def helper() -> None:
    """Help."""
''',
    "src/fixpkg/broken.py": '''"""Broken."""

def oops(:
    pass
''',
    "src/fixpkg/cyc_a.py": "from fixpkg.cyc_b import Loop\n",
    "src/fixpkg/cyc_b.py": "from fixpkg.cyc_a import Loop\n",
    "src/fixpkg/secret.py": "SECRET = 1\n",
    "src/otherpkg/__init__.py": '"""Another package."""\n\nVALUE = 1\n',
    "src/nspkg/inner/mod.py": "def leaf() -> None:\n    pass\n",
    "docs/index.md": "# Home\n",
}
#: An installed package, outside the project root (the environment's site-packages).
INSTALLED = {
    "extdep/__init__.py": "",
    "extdep/things.py": 'class Gadget:\n    """A gadget from elsewhere."""\n\n    def spin(self) -> None:\n        pass\n',
    "hiddendep/__init__.py": "class Unused:\n    pass\n",
}
EXCLUDE = ("src/fixpkg/secret.py",)


def write(folder: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def make_project(tmp: Path) -> tuple[Config, Path]:
    """The project (root ``tmp/project``) and the folder of installed packages."""
    root, site = tmp / "project", tmp / "site"
    write(root, PACKAGE)
    write(site, INSTALLED)
    return Config(root=root, source=("src",), content="docs", exclude=EXCLUDE), site


def crawled(config: Config) -> Crawl:
    return crawl(config)
