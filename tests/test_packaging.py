"""The wheel holds every package of sitegen: pyproject.toml lists them by hand.

An editable install finds a package missing from the list; `pip install .` does not.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_listed_for_the_wheel() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]
    # Every folder, a data folder such as code/queries/ too: setuptools warns about (and
    # will stop shipping) a folder inside a package that is not listed as one.
    folders = {
        ".".join(folder.relative_to(ROOT).parts)
        for folder in [ROOT / "sitegen", *(ROOT / "sitegen").rglob("*")]
        if folder.is_dir() and folder.name != "__pycache__"
    }
    listed = set(setuptools["packages"])
    assert folders - listed == set()
    assert "sitegen.templates" in listed  # the theme, from the top-level templates/ folder
