"""git runs nothing of the repository's (issue 27, defects 1, 2, 23 and part of 25): a
repository's ``.git/config`` filters, diff drivers, fsmonitor, pager and gpg program, the
caller's ``GIT_*`` variables and a parent repository are never used by ``sitegen build``,
``impact`` or ``check --changed-since``; every git call goes through sitegen/base/gitrun.py.

Each trap is first sprung with git itself (``armed``), so a test that finds no marker
proves sitegen kept out of it, not that the trap was broken."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.analyse.stalerepo import git, make_repo, write

pytestmark = pytest.mark.slow  # whole builds in a subprocess

C = "from a import Parser\n\n\ndef use():\n    return Parser()\n"
USES = "# Uses\n\nSee [c](../c.py).\n"


def run(
    root: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``sitegen <args> --root root`` as a user runs it, in ``root``."""
    return subprocess.run(
        [sys.executable, "-m", "sitegen.commands.cli", *args, "--root", str(root), "--jobs", "1"],
        cwd=root,
        env={**os.environ, "PYTHONHASHSEED": "0", **(env or {})},
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def marker_script(folder: Path, name: str, then: str = "cat") -> str:
    """A shell script that leaves ``folder/name`` behind when it runs, then runs ``then``."""
    script = folder / f"trap-{name}.sh"  # not a marker itself
    script.write_text(f'#!/bin/sh\ntouch "{folder / name}"\n{then}\n', encoding="utf-8")
    script.chmod(0o755)
    return str(script)


def markers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("PWNED"))


def armed(folder: Path, root: Path, *args: str) -> None:
    """Plain git, run the way a user would, springs the trap: the marker appears."""
    subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)
    assert markers(folder), f"the trap did not fire for git {' '.join(args)}"
    for name in markers(folder):
        (folder / name).unlink()


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/analyse/stalerepo.py's project, plus c.py importing a.py and a page for it."""
    root = tmp_path_factory.mktemp("gitsafe") / "proj"
    make_repo(root)
    write(root, {"c.py": C, "content/uses.md": USES})
    git(root, "add", "-A", day=8)
    git(root, "commit", "-q", "-m", "c uses a", day=8)
    return root


def trapped(base: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A copy whose ``.gitattributes`` sends every .py file through filter ``x`` and diff
    driver ``x``, whose ``.git/config`` makes every program it names leave a marker in the
    returned folder, and whose work tree changes feed and close of a.py."""
    traps = tmp_path / "traps"
    traps.mkdir()
    root = tmp_path / "proj"
    shutil.copytree(base, root)
    write(root, {".gitattributes": "*.py filter=x diff=x\n"})
    git(root, "add", ".gitattributes", day=9)
    git(root, "commit", "-q", "-m", "attributes", day=9)
    settings = {
        "filter.x.clean": marker_script(traps, "PWNED-clean"),
        "filter.x.smudge": marker_script(traps, "PWNED-smudge"),
        "filter.x.process": marker_script(traps, "PWNED-process", "exit 1"),
        "filter.x.required": "false",
        "diff.x.textconv": marker_script(traps, "PWNED-textconv", 'cat "$1"'),
        "diff.x.command": marker_script(traps, "PWNED-diffcommand", "true"),
        "diff.external": marker_script(traps, "PWNED-external", "true"),
        "core.fsmonitor": marker_script(traps, "PWNED-fsmonitor", "true"),
        "core.pager": marker_script(traps, "PWNED-pager"),
        "core.hooksPath": str(traps),
    }
    for key, value in settings.items():
        git(root, "config", key, value)
    a = root / "a.py"
    text = a.read_text().replace("return data.strip().lower()", "return data.lower()")
    a.write_text(text.replace("return None", "return 0"))
    return root, traps


def test_a_filter_or_driver_in_git_config_never_runs(base: Path, tmp_path: Path) -> None:
    root, traps = trapped(base, tmp_path)
    armed(traps, root, "diff", "HEAD~1")  # git's own diff against the work tree runs them
    built = run(root, "build")
    proc = run(root, "impact", "--since", "HEAD~1")
    proc_check = run(root, "check", "--changed-since", "HEAD~1")
    assert markers(traps) == []
    assert not list(root.rglob("PWNED*"))
    assert built.returncode == 0, built.stderr
    assert proc.returncode == 0, proc.stderr
    # and the change is still seen: a.py's feed (line 9) and close (line 12), .gitattributes
    lines = proc.stdout.splitlines()
    assert lines[0].endswith(
        "2 changed files; 3 pages document what changed (2 direct, 1 indirect)."
    ), lines[0]
    assert "  content/calm.md:5:1: directive to a.py:Parser.close: a.py changed at line 12" in lines
    assert "  content/parser.md:3:10: autoref to a.py:Parser.feed: a.py changed at line 9" in lines
    assert "content/uses.md [indirect]" in lines
    assert proc_check.returncode == 1, proc_check.stdout + proc_check.stderr
    assert "content/parser.md:3:10: error: a.py:Parser.feed changed since" in proc_check.stdout


def test_the_callers_git_variables_are_not_used(base: Path, tmp_path: Path) -> None:
    root = tmp_path / "proj"
    shutil.copytree(base, root)
    trace = tmp_path / "trace"
    elsewhere = tmp_path / "elsewhere"
    env = {
        "GIT_TRACE": str(trace),
        "GIT_TRACE2": str(trace) + "2",
        "GIT_TRACE_PERFORMANCE": str(trace) + "-perf",
        "GIT_DIR": str(elsewhere),  # another repository: sitegen reads the root's own
        "GIT_CONFIG_PARAMETERS": "'core.pager'='touch " + str(tmp_path / "PWNED") + "'",
    }
    subprocess.run(
        ["git", "-C", str(root), "log", "-1"],
        env={**os.environ, "GIT_TRACE": str(trace)},
        capture_output=True,
        check=False,
    )
    assert trace.exists()  # armed: git itself writes the trace
    trace.unlink()
    proc = run(root, "build", env=env)
    assert proc.returncode == 0, proc.stderr
    assert not list(tmp_path.glob("trace*")) and not elsewhere.exists()
    assert not (tmp_path / "PWNED").exists()
    pages = (root / "site" / "stale-docs.html").read_text(encoding="utf-8")
    assert "parser.md" in pages or "Parser" in pages  # the root's own history was read


def _signed_head(root: Path) -> None:
    """HEAD becomes a copy of itself with a ``gpgsig`` header (git parses it, whoever signed)."""
    raw = git(root, "cat-file", "commit", "HEAD")
    header, _, message = raw.partition("\n\n")
    signature = "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEz\n -----END PGP SIGNATURE-----"
    body = f"{header}\n{signature}\n\n{message}\n"
    made = subprocess.run(
        ["git", "-C", str(root), "hash-object", "-t", "commit", "-w", "--stdin"],
        input=body,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    git(root, "update-ref", "HEAD", made)


def test_a_signed_commit_never_runs_the_configured_gpg(base: Path, tmp_path: Path) -> None:
    root = tmp_path / "proj"
    shutil.copytree(base, root)
    _signed_head(root)
    traps = tmp_path / "traps"
    traps.mkdir()
    for key in ("gpg.program", "gpg.openpgp.program", "gpg.ssh.program", "gpg.x509.program"):
        git(root, "config", key, marker_script(traps, "PWNED-" + key.replace(".", "-"), "true"))
    git(root, "config", "log.showSignature", "true")
    armed(traps, root, "log", "-1")
    for args in (("build",), ("impact", "--since", "HEAD~1")):
        proc = run(root, *args)
        assert proc.returncode == 0, proc.stderr
    assert markers(traps) == []


def test_a_project_inside_a_parent_repository_runs_no_git(tmp_path: Path) -> None:
    """The root has no .git of its own: sitegen reads nothing above the root, so git does
    not even start (a stand-in ``git`` first on PATH would leave a marker)."""
    parent = tmp_path / "parent"
    make_repo(parent)
    root = parent / "content"  # a project of its own, inside the parent's checkout
    (root / "sitegen.toml").write_text('title = "Nested"\n', encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    real = shutil.which("git")
    assert real
    fake = bin_dir / "git"
    fake.write_text(f'#!/bin/sh\ntouch "{tmp_path}/PWNED-git-ran"\nexec "{real}" "$@"\n')
    fake.chmod(0o755)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(["git", "-C", str(root), "log", "-1"], env={**os.environ, **env}, check=False)
    assert (tmp_path / "PWNED-git-ran").exists()  # armed: the stand-in is the git found
    (tmp_path / "PWNED-git-ran").unlink()
    proc = run(root, "build", env=env)
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / "PWNED-git-ran").exists()


def test_a_shallow_clone_says_staleness_cannot_be_told(base: Path, tmp_path: Path) -> None:
    """Defect 23: one commit of history makes every page as new as the code it documents;
    the report says the history is shallow instead of "no stale pages"."""
    full = run(base, "build")
    assert full.returncode == 0, full.stderr
    assert "content/parser.md" in (base / "site" / "stale-docs.html").read_text(encoding="utf-8")
    root = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", base.resolve().as_uri(), str(root)],
        check=True,
        capture_output=True,
    )
    assert (root / ".git" / "shallow").is_file()
    proc = run(root, "build")
    assert proc.returncode == 0, proc.stderr
    said = [line for line in proc.stderr.splitlines() if "stale-doc" in line]
    assert len(said) == 1 and "the git history is shallow" in said[0], proc.stderr
    page = (root / "site" / "stale-docs.html").read_text(encoding="utf-8")
    assert "the git history is shallow" in page
    assert "every page is newer" not in page
    checked = run(root, "check")
    summary = checked.stdout.strip().splitlines()[-1]
    assert "Not checked: stale-doc, because the git history is shallow" in summary, summary
    assert "stale-doc" not in summary.split("checked ", 1)[1].split(".")[0], summary
    as_json = json.loads(run(root, "check", "--format", "json").stdout)
    assert "shallow" in as_json["unchecked"]["stale-doc"]


def test_a_huge_revision_is_cut_in_messages(base: Path) -> None:
    """Defect 25 (part): a 100 KB revision is shown as its first 80 characters."""
    huge = "x" * 100_000
    for args in (("impact", "--since", huge), ("check", "--changed-since", huge)):
        proc = run(base, *args)
        assert proc.returncode == 2, proc.stderr[-300:]
        assert "Traceback" not in proc.stderr
        assert len(proc.stderr) < 400 and "x" * 79 + "…" in proc.stderr, proc.stderr[:300]
    long_but_real = "HEAD" + "^0" * 300  # a revision git knows, 604 characters long
    proc = run(base, "impact", "--since", long_but_real)
    assert proc.returncode == 0, proc.stderr[-300:]
    first = proc.stdout.splitlines()[0]
    assert "HEAD^0^0" in first and len(first) < 250, first
