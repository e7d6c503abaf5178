"""Build one project with two versions of sitegen and say which outputs differ, and how.

Issue 19 asks that a clean build's output stay the same bytes as before the speed work,
except where a change is named (bench/README.md, "Where issue 19 ends"). This script gives
that comparison:

    git archive a01830a | tar -x -C /tmp/before    # each version a snapshot of its own
    git archive HEAD | tar -x -C /tmp/after
    python bench/same_bytes.py --before /tmp/before --after /tmp/after --project /tmp/c300

Each version runs from its snapshot (its package first on ``sys.path``, its own templates),
in the same interpreter and libraries, on a fresh copy of the project. Every output file
is then one of: the same bytes, different only inside the page tree (``<nav class="tree">``),
different, or present in one build only. Nothing is timed.
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: The command line of either layout: ``sitegen.commands.cli`` since issue 31, ``sitegen.cli`` before.
RUN = """import importlib, sys
sys.path.insert(0, sys.argv.pop(1))
try:
    cli = importlib.import_module("sitegen.commands.cli")
except ImportError:
    cli = importlib.import_module("sitegen.cli")
cli.main()
"""


def build(code: Path, project: Path, work: Path, out: str, extra: list[str]) -> Path:
    """A clean build of a copy of ``project`` with the sitegen snapshot at ``code``.

    ``extra`` holds ``FILE:LINE`` settings appended to the copy's config files first: an
    option that only the new code knows (``sitegen.toml:slugs = "github"``) keeps a named
    change out of the comparison.
    """
    templates = code / "sitegen" / "templates"
    if not templates.exists():  # the wheel's layout: the templates are sitegen.templates
        templates.symlink_to(code / "templates", target_is_directory=True)
    copy = work / code.name
    shutil.copytree(project, copy, symlinks=True, ignore=shutil.ignore_patterns(".sitegen"))
    shutil.rmtree(copy / out, ignore_errors=True)
    for setting in extra:
        name, _, line = setting.partition(":")
        with open(copy / name, "a", encoding="utf-8") as config:
            config.write(f"\n{line}\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(code), "build", "--quiet"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1):  # 1: the build finished with errors in the content
        sys.exit(f"{code}: the build exited with {done.returncode}:\n{done.stderr[-2000:]}")
    return copy / out


def without_tree(html: bytes) -> bytes:
    """The page with its page tree cut out (everything from ``<nav class="tree"`` to ``</nav>``)."""
    start = html.find(b'<nav class="tree"')
    end = html.find(b"</nav>", start)
    return html if start < 0 or end < 0 else html[:start] + html[end:]


def compare(before: Path, after: Path) -> dict[str, list[str]]:
    """Each output file's class: same, tree only, different, before only, after only."""
    names = {
        p.relative_to(root).as_posix()
        for root in (before, after)
        for p in root.rglob("*")
        if p.is_file()
    }
    classes: dict[str, list[str]] = collections.defaultdict(list)
    for name in sorted(names):
        a, b = before / name, after / name
        if not a.exists() or not b.exists():
            classes["after only" if b.exists() else "before only"].append(name)
            continue
        x, y = a.read_bytes(), b.read_bytes()
        if x == y:
            kind = "same"
        elif name.endswith(".html") and without_tree(x) == without_tree(y):
            kind = "page tree only"
        else:
            kind = "different"
        classes[kind].append(name)
    return classes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="a snapshot of the old code")
    parser.add_argument("--after", type=Path, required=True, help="a snapshot of the new code")
    parser.add_argument("--project", type=Path, required=True, help="the project to build")
    parser.add_argument("--out", default="site", help="its output folder (default: site)")
    parser.add_argument(
        "--after-setting",
        action="append",
        default=[],
        metavar="FILE:LINE",
        help='a line appended to a config file for the new build only, e.g. sitegen.toml:slugs = "github"',
    )
    parser.add_argument("--show", type=int, default=20, help="names to list per class")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "before").mkdir()
        (work / "after").mkdir()
        old = build(args.before.resolve(), args.project, work / "before", args.out, [])
        new = build(
            args.after.resolve(), args.project, work / "after", args.out, args.after_setting
        )
        classes = compare(old, new)
    for kind in ("same", "page tree only", "different", "before only", "after only"):
        names = classes.get(kind, [])
        print(f"{kind}: {len(names)}")
        if kind != "same":
            for name in names[: args.show]:
                print(f"  {name}")
            if len(names) > args.show:
                print(f"  ... and {len(names) - args.show} more")


if __name__ == "__main__":
    main()
