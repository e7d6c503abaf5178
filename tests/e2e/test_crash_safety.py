"""Crash safety (issue 5): a build killed with SIGKILL, at random points or at chosen ones,
leaves the previous site or the complete new one, never a mix, and a store that loads; the
next build succeeds and equals a clean build of the same input.

Every build here is a real ``python -m sitegen.commands.cli build`` process on a generated 200-page
project with some source files. Runs its builds only in pytest's temporary folders.
"""

from __future__ import annotations

import os
import posixpath
import random
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

import sitegen
from sitegen.graph.graphjson import dump_graph_json
from sitegen.graph.store import open_store
from sitegen.state.remembered import STATE_FILE, BuildState, load_state

REPO = Path(sitegen.__file__).resolve().parents[1]
N_PAGES = 200
KILLS = 6
SEED = 20260501
FOLDERS = ["guides", "guides/advanced", "reference/api", "tutorials", "adr"]
WORDS = [
    "graph",
    "node",
    "edge",
    "page",
    "link",
    "anchor",
    "build",
    "cache",
    "render",
    "template",
    "index",
    "parser",
    "token",
    "stream",
    "plugin",
    "config",
    "section",
    "module",
    "reference",
    "guide",
    "release",
    "deploy",
]
TMP_GLOB = ".site.tmp-*"


# ---------------------------------------------------------------------------- the project


def page_path(i: int) -> str:
    return f"docs/{FOLDERS[i % len(FOLDERS)]}/p{i:03d}.md"


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def _page(i: int, rng: random.Random) -> str:
    here = posixpath.dirname(page_path(i))
    targets = [rng.randrange(N_PAGES) for _ in range(8)]
    links = [
        f"[page {t}]({posixpath.relpath(page_path(t), here)}{'#usage' if t % 3 == 0 else ''})"
        for t in targets
    ]
    dep = posixpath.relpath(page_path((i + 1) % N_PAGES), here)
    code = posixpath.relpath(f"pkg/mod{i % 10}.py", here)
    parts = [f"---\ntitle: Page {i}\nrel-depends-on: {dep}\n---\n# Page {i}\n"]
    for h, heading in enumerate(["Overview", "Usage", "Details", "Notes"]):
        parts.append(f"## {heading}\n")
        parts += [
            " ".join(_sentence(rng, 12) for _ in range(4)) + " " + links[2 * h + k] + "\n"
            for k in range(2)
        ]
    parts.append(f"| a | b |\n|---|---|\n| {rng.choice(WORDS)} | [code]({code}) |\n")
    parts.append("```python\nprint('x')\n```\n")
    return "\n".join(parts)


def corpus() -> dict[str, str]:
    """The original input: pages linking each other, a home page, ten source modules."""
    rng = random.Random(SEED)
    files = {page_path(i): _page(i, rng) for i in range(N_PAGES)}
    files["docs/index.md"] = "# Home\n\n" + "".join(
        f"- [{f}]({f}/p{i:03d}.md)\n" for i, f in enumerate(FOLDERS)
    )
    for m in range(10):
        files[f"pkg/mod{m}.py"] = (
            f"from pkg import mod{(m + 1) % 10}\n\n\ndef f{m}():\n    return mod{(m + 1) % 10}\n"
        )
    files["pkg/__init__.py"] = ""
    return files


def edited(files: dict[str, str]) -> dict[str, str]:
    """The edit the killed build is building: appended sentences, a new page, a deleted page
    (so the nav changes and every page is rendered again), a changed source file."""
    out = dict(files)
    for i in (3, 50, 120):
        out[page_path(i)] += "\nAn appended sentence.\n"
    out["docs/guides/new.md"] = (
        f"# New page\n\nSee [page 1]({posixpath.relpath(page_path(1), 'docs/guides')}).\n"
    )
    del out[page_path(10)]
    out["pkg/mod3.py"] += "\n\ndef extra():\n    return 3\n"
    return out


def other(files: dict[str, str]) -> dict[str, str]:
    """Neither the old nor the killed build's input: the old one with a different edit."""
    out = dict(files)
    out[page_path(77)] += "\nA different sentence.\n"
    return out


def write_input(root: Path, files: dict[str, str], store: str) -> None:
    """Make the input files under ``root`` exactly ``files`` (outputs and caches untouched)."""
    for old in [root / "docs", root / "pkg"]:
        shutil.rmtree(old, ignore_errors=True)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    (root / "sitegen.toml").write_text(
        f'title = "Crash"\ncontent = "docs"\nsource = ["pkg"]\nstore = "{store}"\n'
    )


# ---------------------------------------------------------------------------- observations


def site_bytes(site: Path) -> dict[str, bytes]:
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


def store_dump(root: Path, store: str) -> str:
    """The stored graph, serialized; raises if the store does not load."""
    return dump_graph_json(open_store(store, root / ".sitegen").load())


def assert_state_loads_or_is_absent(root: Path) -> None:
    path = root / ".sitegen" / STATE_FILE
    if path.exists():
        state = load_state(root / ".sitegen", clean=False)
        assert isinstance(state, BuildState) and state.dropped == 0


def which_site(site: dict[str, bytes], old: dict[str, bytes], new: dict[str, bytes]) -> str:
    """``old``, ``new``, or a description of how the folder is neither."""
    if site == old:
        return "old"
    if site == new:
        return "new"

    def diff(ref: dict[str, bytes]) -> str:
        bad = sorted(k for k in site.keys() | ref.keys() if site.get(k) != ref.get(k))
        return f"{len(bad)} files differ (e.g. {bad[:3]})"

    return f"neither: vs old {diff(old)}; vs new {diff(new)}"


# ---------------------------------------------------------------------------- builds


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    return env


def build_command(*extra: str) -> list[str]:
    return [sys.executable, "-m", "sitegen.commands.cli", "build", "--quiet", *extra]


def run_build(root: Path, *extra: str) -> None:
    done = subprocess.run(
        build_command(*extra),
        cwd=root,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]


@dataclass
class Project:
    store: str
    template: Path  # the original input built once: site and .sitegen of the previous build
    old_site: dict[str, bytes]
    old_store: str
    new_site: dict[str, bytes]  # a clean build of the edited input
    new_store: str
    other_site: dict[str, bytes]  # a clean build of other(corpus())
    other_store: str
    seconds: float  # how long the build of the edit takes when nobody kills it

    def copy(self, dest: Path, files: dict[str, str] | None = None) -> Path:
        """A fresh copy of the previously built project, its input replaced by ``files``."""
        root = dest / "proj"
        shutil.copytree(self.template, root, symlinks=True)
        if files is not None:
            write_input(root, files, self.store)
        return root


def clean_build(dest: Path, files: dict[str, str], store: str) -> tuple[dict[str, bytes], str]:
    root = dest / "proj"
    write_input(root, files, store)
    run_build(root, "--clean")
    return site_bytes(root / "site"), store_dump(root, store)


@pytest.fixture(scope="module", params=["json", "sqlite"])
def project(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Project:
    store, base = request.param, tmp_path_factory.mktemp(f"crash-{request.param}")
    files = corpus()
    old_site, old_store = clean_build(base / "template", files, store)
    new_site, new_store = clean_build(base / "clean-new", edited(files), store)
    other_site, other_store = clean_build(base / "clean-other", other(files), store)
    assert len({str(sorted(s.items())) for s in (old_site, new_site, other_site)}) == 3
    proj = Project(
        store,
        base / "template" / "proj",
        old_site,
        old_store,
        new_site,
        new_store,
        other_site,
        other_store,
        0.0,
    )
    timing = proj.copy(base / "timing", edited(files))
    start = time.perf_counter()
    run_build(timing)
    proj.seconds = time.perf_counter() - start
    assert site_bytes(timing / "site") == new_site  # the incremental build is the clean one
    return proj


def assert_intact(root: Path, proj: Project) -> str:
    """The site is the old one or the new one, whole; the store and state load."""
    assert (root / "site").is_dir(), "the output folder is missing"
    seen = which_site(site_bytes(root / "site"), proj.old_site, proj.new_site)
    assert seen in ("old", "new"), seen
    store_dump(root, proj.store)
    assert_state_loads_or_is_absent(root)
    return seen


def assert_recovers(
    root: Path, proj: Project, files: dict[str, str], site: dict[str, bytes], store: str
) -> None:
    """The next normal build of ``files`` succeeds and equals a clean build of them."""
    write_input(root, files, proj.store)
    run_build(root)
    got = site_bytes(root / "site")
    bad = sorted(k for k in got.keys() | site.keys() if got.get(k) != site.get(k))
    assert not bad, f"after the next build {len(bad)} files differ from a clean build's: {bad[:5]}"
    assert store_dump(root, proj.store) == store, "the store differs from a clean build's"


# ---------------------------------------------------------------------------- random kills


def test_sigkill_at_random_points_leaves_the_old_or_the_new_site(
    project: Project, tmp_path: Path
) -> None:
    rng = random.Random(SEED)
    span = project.seconds  # from the interpreter's start to the build's end
    seen = []
    for i in range(KILLS):
        root = project.copy(tmp_path / f"kill-{i}", edited(corpus()))
        delay = (i + rng.random()) / KILLS * span  # one kill in each sixth of the build
        proc = subprocess.Popen(
            build_command(),
            cwd=root,
            env=_env(),
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the build and any workers it forked
        except ProcessLookupError:
            pass  # it had finished: the site must then be the new one
        code = proc.wait()  # -9 if killed, 0 if the build had finished
        seen.append((round(delay, 2), code, assert_intact(root, project)))
        assert_recovers(root, project, edited(corpus()), project.new_site, project.new_store)
    print(f"kills ({project.store}): {seen}")


# ---------------------------------------------------------------------------- chosen kills

#: Where a build dies (with --jobs 1, so the store is saved before emit starts): the
#: function or method that SIGKILLs the build's process group instead of running.
KILL_POINTS = {
    "writer-exit": ("sitegen.site.writer", "SiteWriter.__exit__"),  # all written, not moved
    "after-store-merge": ("sitegen.site.emit", "emit_site"),  # store saved, site untouched
    "before-swap": ("sitegen.site.writer", "_exchange"),  # new site complete in the tmp folder
    "after-swap": ("sitegen.build", "save_state"),  # new site in place, state not yet saved
}
DIE_AT = """
import importlib, os, signal, sys
owner = importlib.import_module(sys.argv[1])
*path, name = sys.argv[2].split(".")
for part in path:
    owner = getattr(owner, part)
setattr(owner, name, lambda *a, **k: os.killpg(0, signal.SIGKILL))
sys.argv = ["sitegen", *sys.argv[3:]]
from sitegen.commands.cli import main
main()
"""


def build_dying_at(root: Path, point: str, *extra: str) -> None:
    module, name = KILL_POINTS[point]
    cmd = [sys.executable, "-c", DIE_AT, module, name, "build", "--quiet", "--jobs", "1", *extra]
    done = subprocess.run(
        cmd,
        cwd=root,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        start_new_session=True,
    )  # its own group, killed whole
    assert done.returncode == -signal.SIGKILL, (
        f"the build did not reach {point}: {done.stderr[-2000:]}"
    )


@pytest.mark.parametrize(
    "point,follow",
    [
        pytest.param("after-store-merge", "edited"),
        pytest.param("after-store-merge", "original"),
        pytest.param("after-store-merge", "other"),
        pytest.param("before-swap", "edited"),
        pytest.param("before-swap", "original"),
        pytest.param("before-swap", "other"),
        pytest.param("after-swap", "edited"),
        pytest.param("after-swap", "original"),
        pytest.param("after-swap", "other"),
    ],
)
def test_build_killed_at_a_chosen_point_then_any_input_builds_right(
    project: Project, tmp_path: Path, point: str, follow: str
) -> None:
    """Killed at ``point`` while building the edit; the next build is of the same edited
    input, of the original input (the author undid the edit), or of some other input."""
    root = project.copy(tmp_path / "kill", edited(corpus()))
    build_dying_at(root, point)
    assert assert_intact(root, project) == ("new" if point == "after-swap" else "old")
    if follow == "edited":
        assert_recovers(root, project, edited(corpus()), project.new_site, project.new_store)
        return
    if follow == "original":
        assert_recovers(root, project, corpus(), project.old_site, project.old_store)
    else:
        assert_recovers(root, project, other(corpus()), project.other_site, project.other_store)


def test_killed_first_build_leaves_no_output_folder(project: Project, tmp_path: Path) -> None:
    root = tmp_path / "first" / "proj"
    write_input(root, edited(corpus()), project.store)
    build_dying_at(root, "writer-exit")
    assert not (root / "site").exists()
    assert_recovers(root, project, edited(corpus()), project.new_site, project.new_store)


def test_leftover_temp_folder_does_not_break_the_next_build(
    project: Project, tmp_path: Path
) -> None:
    root = project.copy(tmp_path / "kill", edited(corpus()))
    build_dying_at(root, "before-swap")
    assert list(root.glob(TMP_GLOB)), "the killed build left no temporary folder to test with"
    assert_recovers(root, project, edited(corpus()), project.new_site, project.new_store)


def test_next_build_removes_temp_folders_of_killed_builds(project: Project, tmp_path: Path) -> None:
    root = project.copy(tmp_path / "kill", edited(corpus()))
    build_dying_at(root, "before-swap")
    run_build(root)
    assert list(root.glob(TMP_GLOB)) == []
