"""State that heals (issue 27, Deliver 4; content/guides/safety.md): every file a build keeps
in ``.sitegen/``, damaged in each way below, costs one warning naming it and is made again.

The files are found, not listed: a small project is built (once per backend) and its
``.sitegen/`` walked, so a new state file is covered as soon as a build writes it. For each
file and damage: a build with nothing changed must not fail; the next build after an edit
(which reads the state rather than replaying the last build) exits normally and, over both
builds, says one thing naming the file; the build after that says nothing about it. Then
``--clean`` with every file damaged at once.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from sitegen.base.diagnostics import Diagnostic
from sitegen.build import BuildOptions, build
from sitegen.config import load_config
from sitegen.graph.snapshot import SNAPSHOT_FILE, load_snapshot
from sitegen.state.files import STATE_CODES
from sitegen.state.remembered import finished_fingerprint

pytestmark = pytest.mark.slow  # whole builds (a few seconds a case)

QUIET = BuildOptions(jobs=1, quiet=True)
PROJECT = {
    "content/index.md": "# Home\n\nSee [the guide](guide.md#usage).\n",
    "content/guide.md": "# Guide\n\n## Usage\n\nBack [home](index.md).\n",
    # A page the crawl cannot read: the merge then reads the stored graph.
    "content/binary.md": "\0\0 not text\n",
    "src/app.py": "import os\n\nfrom src import util\n\n\ndef main():\n    return util.f(os.name)\n",
    "src/util.py": '"""See [the guide](../content/guide.md)."""\n\n\ndef f(x):\n    return x\n',
}
BACKENDS = ("json", "sqlite")


def _spoil_strings(data: bytes) -> bytes:
    """The last string of every JSON line, with a lone surrogate escape added."""
    out = []
    for line in data.split(b"\n"):
        try:
            doc = json.loads(line)
        except ValueError:
            out.append(line)
            continue
        text = json.dumps(doc)
        at = text.rfind('"')  # the end of the last string (or key)
        out.append((text[:at] + "\\ud800" + text[at:]).encode() if at > 0 else line)
    return b"\n".join(out)


def _folder(path: Path) -> None:
    path.unlink()
    path.mkdir()
    (path / "inside").write_text("x")


def _sqlite_schema(path: Path) -> None:
    with closing(sqlite3.connect(path)) as conn:  # closed: the change reaches the file
        conn.executescript("DROP TABLE anchors; CREATE TABLE anchors (x INTEGER);")


DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    "garbage": lambda p: p.write_bytes(b"\x00\xff\xfe{[\x80 garbage" * 20),
    "lone surrogate": lambda p: p.write_bytes(_spoil_strings(p.read_bytes())),
    "a list for an object": lambda p: p.write_text("[]"),
    "empty": lambda p: p.write_bytes(b""),
    "a folder": _folder,
    "another schema": _sqlite_schema,
}

#: Files whose bytes no build reads back, with who reads them instead (the damage must
#: still not fail a build, and the build must leave them sound).
NOT_READ_BY_A_BUILD = {
    "lock": "the lock's holder, only to say for whom a second build waits",
    ".gitignore": "git",
    SNAPSHOT_FILE: "sitegen explore, which refuses a bad one and builds in memory",
}
#: Damage that leaves a sound file: an empty file is an empty SQLite database.
SOUND = {("graph.sqlite", "empty")}

_BASES: dict[str, Path] = {}


def _base(backend: str) -> Path:
    """The project built once with ``backend`` (kept for the session)."""
    if backend not in _BASES:
        root = Path(tempfile.mkdtemp(prefix=f"state-heals-{backend}-")) / "proj"
        for rel, text in {**PROJECT, "sitegen.toml": _toml(backend)}.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, encoding="utf-8")
        build(load_config(root), QUIET)
        _BASES[backend] = root
    return _BASES[backend]


def _toml(backend: str) -> str:
    return f'source = ["src"]\nstore = "{backend}"\n'


def _state_files(backend: str) -> list[str]:
    cache = _base(backend) / ".sitegen"
    return sorted(p.relative_to(cache).as_posix() for p in cache.rglob("*") if p.is_file())


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "case" not in metafunc.fixturenames:
        return
    if "not slow" in (metafunc.config.getoption("markexpr") or ""):
        metafunc.parametrize("case", [None])  # deselected: no build at collection
        return
    cases = []
    for backend in BACKENDS:
        json_only = set(_state_files("json"))
        for rel in _state_files(backend):
            if backend == "sqlite" and rel in json_only:
                continue  # the same file as with the JSON store
            for damage in DAMAGE:
                if damage == "another schema" and not rel.endswith(".sqlite"):
                    continue
                cases.append(pytest.param((backend, rel, damage), id=f"{rel}-{damage}"))
    metafunc.parametrize("case", cases)


def _copy(backend: str, tmp_path: Path) -> Path:
    """The built project, copied; its cache named as made in the copy, as if built there."""
    root = tmp_path / "proj"
    shutil.copytree(_base(backend), root, symlinks=True)
    cache = root / ".sitegen"
    identity = {"device": cache.stat().st_dev, "inode": cache.stat().st_ino}
    (cache / "origin.json").write_text(json.dumps(identity) + "\n")
    return root


def _about(diagnostics: list[Diagnostic], rel: str) -> list[str]:
    return [d.format() for d in diagnostics if d.path == f".sitegen/{rel}"]


def _state(diagnostics: list[Diagnostic]) -> list[str]:
    return [d.format() for d in diagnostics if d.code in STATE_CODES]


def test_a_damaged_state_file_is_set_aside_once_and_made_again(
    case: tuple[str, str, str] | None, tmp_path: Path
) -> None:
    assert case is not None
    backend, rel, damage = case
    root = _copy(backend, tmp_path)
    path = root / ".sitegen" / rel
    before = path.read_bytes()
    DAMAGE[damage](path)
    if path.is_file() and path.read_bytes() == before:
        pytest.skip("this damage changes nothing in this file (it holds no string)")
    config = load_config(root)
    unchanged = build(config, QUIET)  # reads little, and must not fail on what it reads
    (root / "content/guide.md").write_text(PROJECT["content/guide.md"] + "\nMore.\n")
    edited = build(config, QUIET)
    said = _about(unchanged.diagnostics, rel) + _about(edited.diagnostics, rel)
    quiet = rel.rsplit("/", 1)[-1] in NOT_READ_BY_A_BUILD and damage != "a folder"
    expected = 0 if quiet or (rel, damage) in SOUND else 1
    assert len(said) == expected, said
    assert all("unreadable" not in d.path for d in edited.diagnostics)
    after = build(config, QUIET)
    assert after.unchanged, "the build after the healing one has nothing to do"
    assert _state(after.diagnostics) == [] and _about(after.diagnostics, rel) == []
    assert path.is_file(), "the file is made again"
    if rel == SNAPSHOT_FILE:  # and explore reads it again
        load_snapshot(path, finished_fingerprint(root / ".sitegen"))


def _damage_all(root: Path, damage: str) -> None:
    for path in sorted((root / ".sitegen").rglob("*"), reverse=True):
        if path.is_file():
            DAMAGE[damage](path)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("damage", ["a folder", "garbage", "truncated"])
def test_clean_succeeds_whatever_the_cache_holds(tmp_path: Path, backend: str, damage: str) -> None:
    root = _copy(backend, tmp_path)
    _damage_all(root, damage)
    config = load_config(root)
    result = build(config, BuildOptions(jobs=1, quiet=True, clean=True))
    assert result.pages and not result.unchanged
    again = build(config, QUIET)
    assert again.unchanged and _state(again.diagnostics) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file whatever its permissions")
@pytest.mark.parametrize("backend", BACKENDS)
def test_clean_succeeds_when_the_cache_cannot_be_read(tmp_path: Path, backend: str) -> None:
    root = _copy(backend, tmp_path)
    for path in (root / ".sitegen").rglob("*"):
        path.chmod(0)
    (root / ".sitegen").chmod(0)
    config = load_config(root)
    result = build(config, BuildOptions(jobs=1, quiet=True, clean=True))
    assert result.pages
    assert build(config, QUIET).unchanged
