"""Issue 8, point 3: nothing sitegen reads back is unpickled or evaluated. Caches and the
store are data-only and validated on load; a bad entry is dropped and rebuilt; an unreadable
store is set aside with a warning; a cache that arrived with a checkout is not trusted."""

from __future__ import annotations

import json
import os
import pickle
import shutil
from pathlib import Path

import pytest

from tests.safety.conftest import make_project, sitegen

pytestmark = pytest.mark.slow  # whole builds, in subprocesses (the fast loop skips them)

PAGES = {
    "content/index.md": "# Home\n\nSee [the guide](guide.md).\n",
    "content/guide.md": "# Guide\n\nBack [home](index.md).\n",
    "src/app.py": "import os\n\n\ndef main() -> None:\n    print(os.name)\n",
    "sitegen.toml": 'source = ["src"]\n',
}


class _Payload:
    """Unpickling this calls ``open(target, "w")``: the file appears if anything runs it."""

    def __init__(self, target: Path) -> None:
        self.target = target

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (str(self.target), "w"))


def _cache_files(root: Path) -> list[Path]:
    return sorted(p for p in (root / ".sitegen").rglob("*") if p.is_file())


@pytest.mark.parametrize("store", ["json", "sqlite"])
def test_a_crafted_cache_runs_nothing_and_every_command_recovers(
    tmp_path: Path, store: str
) -> None:
    root = make_project(
        tmp_path, {**PAGES, "sitegen.toml": f'source = ["src"]\nstore = "{store}"\n'}
    )
    assert sitegen(root, "build", "--jobs", "1").returncode == 0
    ran = tmp_path / "PWNED"
    payload = pickle.dumps(_Payload(ran))
    files = _cache_files(root)
    assert len(files) >= 5  # pages cache, store, shards, markers
    for path in files:
        path.write_bytes(payload)
    for command in (
        ["build", "--jobs", "1"],
        ["check"],
        ["backlinks", "content/guide.md"],
        ["cycles"],
        ["export", "--format", "graph-json"],
        ["build", "--clean"],
    ):
        proc = sitegen(root, *command)
        assert "Traceback" not in proc.stderr, (command, proc.stderr)
        assert proc.returncode == 0, (command, proc.stderr)
        assert not ran.exists(), f"sitegen {' '.join(command)} ran code from the cache"
    assert "Guide" in (root / "site/index.html").read_text()


def test_a_cache_that_arrived_with_a_checkout_is_not_trusted(tmp_path: Path) -> None:
    """A pull request could commit .sitegen/ with HTML of its choosing under a page's real
    content hash; a cache that was not made in its own folder is ignored."""
    first = make_project(tmp_path / "a", PAGES)
    assert sitegen(first, "build", "--jobs", "1").returncode == 0
    cache = first / ".sitegen/pages.json"
    header, *lines = cache.read_text().rstrip("\n").split("\n")  # JSON Lines, a page a line
    entries = [json.loads(line) for line in lines]
    for _path, entry in entries:
        entry["html"] = "<script>INJECTED()</script>" + entry["html"]
    cache.write_text("\n".join([header, *map(json.dumps, entries)]) + "\n")
    copy = tmp_path / "b"
    shutil.copytree(first, copy, symlinks=True)  # a checkout: same bytes, a new folder
    proc = sitegen(copy, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "the page cache was not made in this folder" in proc.stderr
    assert "INJECTED" not in (copy / "site/index.html").read_text()
    # Built once here, the cache is this folder's own from now on.
    again = sitegen(copy, "build", "--jobs", "1")
    assert "not made in this folder" not in again.stderr


def test_a_malformed_cache_entry_is_dropped_with_one_info_line(tmp_path: Path) -> None:
    root = make_project(tmp_path, PAGES)
    assert sitegen(root, "build", "--jobs", "1").returncode == 0
    cache = root / ".sitegen/pages.json"
    header, *lines = cache.read_text().rstrip("\n").split("\n")  # JSON Lines, a page a line
    entries = [json.loads(line) for line in lines]
    dict(entries)["content/guide.md"]["links"] = [{"href": 5}]  # wrong fields and types
    cache.write_text("\n".join([header, *map(json.dumps, entries)]) + "\n")
    (root / "content/index.md").write_text("# Home\n\nSee [the guide](guide.md) again.\n")
    proc = sitegen(root, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    infos = [line for line in proc.stderr.splitlines() if "failed validation" in line]
    assert infos == [
        (
            ".sitegen/pages.json:1:1: info: 1 page cache entry failed validation and "
            "was dropped; that page was parsed again"
        )
    ]
    assert "Back" in (root / "site/guide.html").read_text()


@pytest.mark.parametrize("store,name", [("json", "graph.json"), ("sqlite", "graph.sqlite")])
def test_an_unreadable_store_is_set_aside_with_a_warning(
    tmp_path: Path, store: str, name: str
) -> None:
    files = {
        **PAGES,
        "sitegen.toml": f'source = ["src"]\nstore = "{store}"\n',
        "content/binary.md": "\0\0not text\n",
    }  # unreadable: the store must be read
    root = make_project(tmp_path, files)
    assert sitegen(root, "build", "--jobs", "1").returncode == 0
    path = root / ".sitegen" / name
    path.write_bytes(path.read_bytes()[: max(1, path.stat().st_size // 3)])  # truncated
    for _ in range(2):
        (root / "content/index.md").write_text(f"# Home {os.urandom(4).hex()}\n")
        proc = sitegen(root, "build", "--jobs", "1")
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert (root / ".sitegen" / (name + ".unreadable")).is_file()
    # The warning came once (first build); the second build found a readable store again.
    assert "graph store cannot be read" not in proc.stderr


def test_the_unreadable_store_warning_says_what_is_lost(tmp_path: Path) -> None:
    root = make_project(tmp_path, {**PAGES, "content/binary.md": "\0\0not text\n"})
    assert sitegen(root, "build", "--jobs", "1").returncode == 0
    (root / ".sitegen/graph.json").write_text('{"version": 1, "nodes": [')
    (root / "content/index.md").write_text("# Home changed\n")
    proc = sitegen(root, "build", "--jobs", "1")
    lines = [line for line in proc.stderr.splitlines() if "graph store" in line]
    assert len(lines) == 1
    assert lines[0].startswith(".sitegen/graph.json:1:1: warning: the graph store cannot be read")
    assert "set aside as .sitegen/graph.json.unreadable" in lines[0]
    assert "Lost: the stored links of pages this build could not read" in lines[0]
