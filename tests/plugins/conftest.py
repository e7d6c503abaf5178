"""Plugins installed into the test environment without a network (content/guides/plugins.md).

``pip install`` leaves a package and a ``<name>-<version>.dist-info`` folder (METADATA,
entry_points.txt, RECORD) side by side in a folder on ``sys.path``; importlib.metadata finds a
plugin's entry points and version there and nowhere else. ``Installer`` writes exactly that
into a temporary folder and puts it on ``sys.path`` (``.path`` is the PYTHONPATH a subprocess
needs), so the plugin is found as after ``pip install`` and gone after the test.
"""

from __future__ import annotations

import importlib
import sys
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).parent / "example"
EXAMPLE_PACKAGE = "sitegen_example_plugin"


class Installer:
    """Installs distributions into one fresh folder per ``install`` call (importlib.metadata
    caches what a folder holds, so a new version goes into a new folder)."""

    def __init__(self, base: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.base, self.monkeypatch = base, monkeypatch
        self.paths: list[Path] = []
        self.packages: set[str] = set()

    @property
    def path(self) -> str:
        """The folders installed into, as PYTHONPATH for a subprocess."""
        return ":".join(str(p) for p in self.paths)

    def install(
        self,
        dist: str,
        version: str,
        entry_points: Mapping[str, Mapping[str, str]],
        files: Mapping[str, str],
    ) -> Path:
        """Install ``files`` (package sources by path) as distribution ``dist`` at
        ``version`` with ``entry_points`` (group -> name -> ``module:attr``)."""
        site = self.base / f"site-{len(self.paths)}"
        for rel, text in files.items():
            path = site / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        self.packages |= {rel.split("/")[0].removesuffix(".py") for rel in files}
        normalized = dist.replace("-", "_")
        info = site / f"{normalized}-{version}.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n", encoding="utf-8"
        )
        lines = []
        for group, named in entry_points.items():
            lines.append(f"[{group}]")
            lines += [f"{name} = {value}" for name, value in named.items()]
            lines.append("")
        (info / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")
        record = [f"{rel},," for rel in files]
        record += [f"{info.name}/{n},," for n in ("METADATA", "entry_points.txt", "RECORD")]
        (info / "RECORD").write_text("\n".join(record) + "\n", encoding="utf-8")
        self.forget()
        self.monkeypatch.syspath_prepend(str(site))
        self.paths.insert(0, site)
        return site

    def install_example(self, version: str = "") -> Path:
        """The worked example, tests/plugins/example, as its pyproject.toml declares it."""
        project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))
        meta = project["project"]
        files = {
            f"{EXAMPLE_PACKAGE}/{p.name}": p.read_text(encoding="utf-8")
            for p in sorted((EXAMPLE / EXAMPLE_PACKAGE).glob("*.py"))
        }
        return self.install(meta["name"], version or meta["version"], meta["entry-points"], files)

    def forget(self) -> None:
        """Drop the installed packages' modules, so the next import reads the files again."""
        for name in list(sys.modules):
            if name.split(".")[0] in self.packages:
                del sys.modules[name]
        importlib.invalidate_caches()


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Installer]:
    installer = Installer(tmp_path / "installed", monkeypatch)
    yield installer
    installer.forget()
