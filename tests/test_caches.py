"""Everything a build keeps in ``.sitegen/`` is listed in one place, sitegen/state/caches.py,
each file or folder with the version of its format and the module that owns it
(content/guides/builds.md#what-sitegen-keeps)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from sitegen.build import build
from sitegen.config import load_config
from sitegen.records.result import BuildOptions
from sitegen.state import caches, folder
from sitegen.state.caches import KEPT, kept_as

ROOT = Path(__file__).resolve().parents[1]

#: The name each owner gives its version, which must be the one caches.py defines.
VERSIONS = {
    "pages.json": ("sitegen.state.remembered", "STATE_VERSION"),
    "graph.json": ("sitegen.graph.graphjson", "SCHEMA_VERSION"),
    "anchors.json": ("sitegen.graph.store.anchors", "ANCHORS_VERSION"),
    "graph.sqlite": ("sitegen.graph.store.sqlite", "SCHEMA_VERSION"),
    "core.npz": ("sitegen.graph.snapshot", "SNAPSHOT_VERSION"),
    "api.json": ("sitegen.api.cache", "SCHEMA"),
    "shards/": ("sitegen.code.shards", "SHARD_SCHEMA_VERSION"),
    "shards/links.json": ("sitegen.code.linkcache", "LINK_CACHE_VERSION"),
    "peers/": ("sitegen.records.federation", "COPY_VERSION"),
}
#: The name each owner gives the file or folder, which must be the one listed.
NAMES = {
    "pages.json": ("sitegen.state.remembered", "STATE_FILE"),
    "built": ("sitegen.state.remembered", "BUILT_FILE"),
    "origin.json": ("sitegen.state.folder", "ORIGIN_FILE"),
    "lock": ("sitegen.state.folder", "LOCK_FILE"),
    ".gitignore": ("sitegen.state.folder", "_IGNORE_FILE"),
    "graph.json": ("sitegen.graph.store.json", "FILE_NAME"),
    "anchors.json": ("sitegen.graph.store.json", "ANCHORS_FILE"),
    "graph.sqlite": ("sitegen.graph.store.sqlite", "FILE_NAME"),
    "core.npz": ("sitegen.graph.snapshot", "SNAPSHOT_FILE"),
    "api.json": ("sitegen.api.cache", "FILE_NAME"),
    "shards/links.json": ("sitegen.code.linkcache", "FILE_NAME"),
    "peers/": ("sitegen.federation.store", "PEERS_FOLDER"),
}


def _write(root: Path, files: dict[str, str]) -> Path:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root


def _kept_files(root: Path) -> list[str]:
    cache = root / ".sitegen"
    return sorted(p.relative_to(cache).as_posix() for p in cache.rglob("*") if p.is_file())


def test_every_file_a_build_keeps_is_listed_and_every_entry_is_kept(tmp_path: Path) -> None:
    peer = _write(tmp_path / "peer", {"content/index.md": "# Peer\n\nSee [b](b.md).\n"})
    _write(peer, {"content/b.md": "# B\n"})
    build(load_config(peer), BuildOptions(jobs=1, quiet=True))
    root = _write(
        tmp_path / "site",
        {
            "sitegen.toml": 'peers = ["../peer/site"]\n',
            "content/index.md": "# Home\n\nSee [a](a.md).\n\n::: pkg.mod\n",
            "content/a.md": "# A\n\n## Part\n",
            "pkg/__init__.py": "",
            "pkg/mod.py": '"""Mod."""\n\n\ndef f() -> int:\n    """F."""\n    return 1\n',
        },
    )
    seen: set[str] = set()
    unlisted: list[str] = []
    for store in ("json", "sqlite"):
        build(load_config(root, store=store), BuildOptions(jobs=1, quiet=True))
        for name in _kept_files(root):
            entry = kept_as(name)
            if entry is None:
                unlisted.append(name)
            else:
                seen.add(entry.name)
    assert unlisted == [], "list these in sitegen/state/caches.py"
    assert seen == {k.name for k in KEPT}, "the fixture keeps every listed entry"


def test_every_entry_has_a_version_an_owner_and_the_owners_own_names() -> None:
    assert len({k.name for k in KEPT}) == len(KEPT)
    for kept in KEPT:
        if isinstance(kept.version, str) and not kept.version.isdigit():
            assert kept.version.startswith("none: ") and len(kept.version) > 12, kept.name
        else:
            assert kept.name in VERSIONS, kept.name
        importlib.import_module(kept.owner)
    for name, (module, attr) in VERSIONS.items():
        listed = next(k for k in KEPT if k.name == name)
        assert getattr(importlib.import_module(module), attr) is listed.version, name
    for name, (module, attr) in NAMES.items():
        assert name.rstrip("/").rpartition("/")[2] == getattr(importlib.import_module(module), attr)
    # shards/ is named where it is opened (sitegen/code/shards.py: ShardCache)
    assert set(NAMES) | {"shards/"} == {k.name for k in KEPT}


def test_the_versions_are_defined_in_caches_only() -> None:
    # An owner imports its version; none assigns one (a second place to raise it).
    constants = [n for n in vars(caches) if n.isupper() and n != "KEPT"]
    defined = re.compile(rf"^({'|'.join(constants)}|SCHEMA|SCHEMA_VERSION)\s*=", re.M)
    for module, _ in VERSIONS.values():
        path = ROOT / (module.replace(".", "/") + ".py")
        assert not defined.search(path.read_text(encoding="utf-8")), module


def test_nothing_listed_is_set_aside_before_a_build() -> None:
    # The cache folder's sweep (sitegen/state/folder.py) keeps what stands where it belongs.
    for kept in KEPT:
        top, _, rest = kept.name.partition("/")
        if rest or kept.name.endswith("/"):
            assert top in folder._FOLDERS | folder._NOT_SWEPT, kept.name
        else:
            assert top in folder._FILE_NAMES or top.endswith(folder._FILE_SUFFIXES), kept.name


def test_the_builds_guide_lists_every_entry_with_its_version() -> None:
    guide = (ROOT / "content/guides/builds.md").read_text(encoding="utf-8")
    section = guide.split("## What sitegen keeps", 1)[1].split("\n## ", 1)[0]
    for kept in KEPT:
        version = "none" if isinstance(kept.version, str) and ":" in kept.version else kept.version
        assert f"| `{kept.name}` | {version} |" in section, kept.name


def test_the_builds_guide_names_the_shards_version() -> None:
    guide = (ROOT / "content/guides/builds.md").read_text(encoding="utf-8")
    assert f"`shard_schema_version: {caches.SHARD_SCHEMA_VERSION}`" in guide
