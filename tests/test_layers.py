"""The layers of ARCHITECTURE.md#layers hold: the import-linter contract in pyproject.toml is
kept, and it names every part of sitegen, so a new module cannot sit outside the layers."""

from __future__ import annotations

import pkgutil
import tomllib
from pathlib import Path

from importlinter.cli import lint_imports

import sitegen

ROOT = Path(__file__).resolve().parents[1]


def _contract() -> dict[str, object]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = config["tool"]["importlinter"]["contracts"][0]  # the pipeline's layers
    return contract


def test_the_layer_contract_is_kept() -> None:
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_every_part_of_sitegen_is_in_a_layer() -> None:
    layers = _contract()["layers"]
    assert isinstance(layers, list)
    named = {m.strip() for layer in layers for m in layer.replace(":", "|").split("|")}
    parts = {
        f"sitegen.{m.name}"
        for m in pkgutil.iter_modules(sitegen.__path__)
        if m.name not in ("__main__", "templates")
    }
    # A package may be named by its submodules, each in its own layer (sitegen.state: what
    # the build remembers is read low, by the graph and code caches, and written high): then
    # every submodule of it is named.
    split = {n.rpartition(".")[0] for n in named if n.count(".") > 1}
    for package in split:
        path = Path(sitegen.__path__[0], package.split(".", 1)[1])
        inside = {f"{package}.{m.name}" for m in pkgutil.iter_modules([str(path)])}
        assert inside - named == set(), f"add these modules of {package} to a layer"
        assert {n for n in named if n.startswith(package + ".")} <= inside, "no such module"
    assert parts - named - split == set(), "add these parts to a layer of [tool.importlinter]"
    assert named - parts - {n for n in named if n.rpartition(".")[0] in split} == set(), (
        "the contract names parts that do not exist"
    )
