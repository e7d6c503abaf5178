"""Bad input never stops a build, and the crawler reads only what it should (issue 2, point 10)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from sitegen.build import BuildOptions, build
from sitegen.config import load_config
from sitegen.crawl import crawl


def _write(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, data in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return root


def _codes(diags) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {d.path: d.code for d in diags}


def test_bad_files_are_diagnosed_and_the_build_goes_on(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "content/index.md": "# Home\n\n[bad](bad-utf8.md) [yaml](yaml.md)\n",
            "content/bad-utf8.md": b"# Caf\xe9\n\ntext \xff\n",
            "content/binary.md": b"# x\x00\x01\x02",
            "content/yaml.md": "---\ntitle: [unclosed\n---\n# Still renders\n",
            "content/huge.md": "# big\n" + "x" * 5000,
            "content/a.md": "# A\n",
            "content/a.markdown": "# A too\n",
            "sitegen.toml": "max_file_size = 4000\n",
        },
    )
    result = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    codes = _codes(result.diagnostics)
    assert codes["content/bad-utf8.md"] == "utf8"
    assert codes["content/binary.md"] == "binary"
    assert codes["content/huge.md"] == "huge"
    assert any(d.path == "content/yaml.md" and d.level == "warning" for d in result.diagnostics)
    assert (
        codes.get("content/a.md") == "duplicate-output"
        or codes.get("content/a.markdown") == "duplicate-output"
    )
    site = root / "site"
    assert "Still renders" in (site / "yaml.html").read_text()
    assert "Caf\ufffd" in (site / "bad-utf8.html").read_text()
    assert not (site / "binary.html").exists() and not (site / "huge.html").exists()
    # the deterministic winner of the duplicate output is the .md page
    assert "A too" not in (site / "a.html").read_text()
    for d in result.diagnostics:
        assert d.format().startswith(f"{d.path}:{d.line}:{d.col}: {d.level}: ")


def test_symlinks_outside_the_root_and_loops_are_ignored(tmp_path: Path) -> None:
    outside = _write(tmp_path / "outside", {"secret.md": "# Secret\n"})
    root = _write(tmp_path / "proj", {"content/index.md": "# Home\n"})
    os.symlink(outside / "secret.md", root / "content/secret.md")
    os.symlink(root / "content", root / "content/loop")
    os.symlink(root / "content/index.md", root / "content/alias.md")
    found = crawl(load_config(root))
    paths = [p.path for p in found.pages]
    assert "content/secret.md" not in paths
    assert "content/alias.md" in paths  # a link inside the root is followed
    codes = _codes(found.diagnostics)
    assert codes["content/secret.md"] == "symlink"
    assert codes["content/loop"] == "symlink"


def test_crawler_skips_output_cache_hidden_and_ignored(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "content/index.md": "# Home\n",
            "content/.hidden/x.md": "# hidden\n",
            "content/ignored.md": "# ignored\n",
            ".gitignore": "content/ignored.md\nbuild/\n",
            "build/gen.py": "x = 1\n",
            "pkg/mod.py": "x = 1\n",
            ".git/config.py": "x = 1\n",
        },
    )
    config = load_config(root)
    build(config, BuildOptions(jobs=1, quiet=True))
    # a second build into another folder must not read the first one's output
    (root / "site" / "stray.py").write_text("y = 2\n")
    other = load_config(root, out="public")
    found = crawl(other)
    assert [p.path for p in found.pages] == ["content/index.md"]
    assert [c.path for c in found.code] == ["pkg/mod.py"]
    assert not any(p.startswith((".sitegen", "site/", ".git/", "build/")) for p in found.all_paths)


class _Listing:
    """A shuffled directory listing that, like os.scandir's iterator, is an iterator and a
    context manager (os.walk uses both)."""

    def __init__(self, entries: list[os.DirEntry[str]]) -> None:
        self._it = iter(entries)

    def __iter__(self) -> _Listing:
        return self

    def __next__(self) -> os.DirEntry[str]:
        return next(self._it)

    def __enter__(self) -> _Listing:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def close(self) -> None:
        return None


def test_two_builds_are_byte_identical_whatever_the_listing_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        f"content/s{i % 3}/p{i}.md": f"# Page {i}\n\n[next](../s{(i + 1) % 3}/p{(i + 1) % 9}.md) "
        f"[home](/index.md)\n"
        for i in range(9)
    }
    files["content/index.md"] = "---\nrel-depends-on: s0/p0.md, s1/p1.md\n---\n# Home\n"
    files["pkg/a.py"] = "from pkg import b\n\ndef f():\n    return b.g()\n"
    files["pkg/b.py"] = "def g():\n    return 1\n"
    files["pkg/__init__.py"] = ""
    files["sitegen.toml"] = 'title = "Same"\n'  # the default title is the root folder's name
    outputs = []
    real_scandir = os.scandir
    for seed in (1, 2):
        root = _write(tmp_path / f"run{seed}", files)
        rng = random.Random(seed)

        def shuffled(path, _rng=rng):  # type: ignore[no-untyped-def]
            with real_scandir(path) as it:
                entries = list(it)
            _rng.shuffle(entries)
            return _Listing(entries)

        monkeypatch.setattr(os, "scandir", shuffled)
        build(load_config(root), BuildOptions(jobs=1, quiet=True))
        monkeypatch.setattr(os, "scandir", real_scandir)
        site = root / "site"
        outputs.append(
            {
                p.relative_to(site).as_posix(): p.read_bytes()
                for p in sorted(site.rglob("*"))
                if p.is_file()
            }
        )
    assert outputs[0].keys() == outputs[1].keys()
    for name in outputs[0]:
        assert outputs[0][name] == outputs[1][name], name


def test_a_virtual_environment_inside_the_project_is_not_read(tmp_path: Path) -> None:
    """`python3 -m venv v` in the project (any name, not ignored): its links to the system
    interpreter and its copies of packages are neither docs nor code, and say nothing."""
    (tmp_path / "content").mkdir()
    (tmp_path / "content/index.md").write_text("# Home\n")
    venv = tmp_path / "v"
    (venv / "lib/site-packages/pkg").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (venv / "lib/site-packages/pkg/mod.py").write_text("x = 1\n")
    (venv / "bin").mkdir()
    os.symlink("/usr/bin/python3", venv / "bin/python")
    found = crawl(load_config(tmp_path))
    assert [c.path for c in found.code] == []
    assert not any(p.startswith("v/") for p in found.all_paths)
    assert found.diagnostics == []
