#!/usr/bin/env python3
"""Scale benchmark (issues 5 and 19): sitegen full builds (one job and the default), no-change,
one-page-edit and title-change rebuilds vs mkdocs small-nav, Hugo and the markdown-it floors,
with peak memory, on generated corpora.

    python bench/scale.py [--pages 1000 5000] [--runs 3] [--jobs 0] [--profile]

For each size, generates a corpus with ../shared/bench/gen_corpus.py into a temporary folder,
then times, side by side in each run, every command in a fresh wrapper process (its max RSS
is ``getrusage(RUSAGE_CHILDREN)`` after the command exits): ``sitegen build --clean --jobs 1``
and ``sitegen build --clean`` (site and .sitegen removed first), a no-change rebuild, a
one-page-edit rebuild (twice), a rebuild after a page's title changed, ``mkdocs build -f
mkdocs-smallnav.yml``, ``hugo`` pinned to one core and on all cores (when it is on the
PATH), and markdown-it-py parse + render of the same pages in one process and in a pool over
all cores. Prints the medians as one markdown table per size and the
issue's targets, met or missed by how much. Writes only in its temporary folder.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from common import REPO, generate, mkdocs_build
from common import sitegen as sitegen_cmd

SITE, CACHE = "site-sitegen", ".sitegen"  # gen_corpus.py's sitegen.toml: out = "site-sitegen"
EDIT = "\nOne more sentence, appended by the benchmark.\n"

#: Runs one command (argv[3:]) in argv[1], its output to the file argv[2]; prints wall time
#: and the max RSS of the command and every process it waited for.
WRAPPER = """
import json, resource, subprocess, sys, time
with open(sys.argv[2], "wb") as log:
    start = time.perf_counter()
    code = subprocess.call(sys.argv[3:], cwd=sys.argv[1], stdout=log, stderr=log)
    seconds = time.perf_counter() - start
print(json.dumps({"code": code, "seconds": seconds,
                  "rss_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""

#: ``python -m sitegen.commands.cli ARGS`` that also writes, at exit, the max RSS of the main process
#: and of its worker processes apart (argv[1] is the file; forked workers skip atexit).
SITEGEN = """
import atexit, json, os, resource, sys, threading, time
path, sys.argv = sys.argv[1], ["sitegen", *sys.argv[2:]]
me, peak = os.getpid(), [0]
def tree_pss():
    # The proportional set size of this process and every process below it: a page shared
    # by a forked worker and its parent counts once, split between them (RSS counts it twice).
    kids, total = {}, 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as fh:
                    kids.setdefault(int(fh.read().rsplit(")", 1)[1].split()[1]), []).append(int(name))
            except (OSError, IndexError, ValueError):
                pass
    todo = [me]
    while todo:
        pid = todo.pop()
        todo += kids.get(pid, [])
        try:
            with open(f"/proc/{pid}/smaps_rollup") as fh:
                total += next(int(l.split()[1]) for l in fh if l.startswith("Pss:"))
        except (OSError, StopIteration):
            pass
    return total
def sample():
    while True:
        peak[0] = max(peak[0], tree_pss())
        time.sleep(0.05)
if os.path.exists("/proc/self/smaps_rollup"):
    threading.Thread(target=sample, daemon=True).start()
def report():
    if os.getpid() != me:
        return
    peak[0] = max(peak[0], tree_pss() if os.path.exists("/proc/self/smaps_rollup") else 0)
    with open(path, "w") as f:
        json.dump({"main_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                   "workers_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
                   "pss_kb": peak[0]}, f)
atexit.register(report)
from sitegen.commands.cli import main
main()
"""

#: markdown-it-py parse + render of every page under argv[1], in argv[2] processes; prints
#: the seconds of the rendering alone (files are read before the clock starts).
FLOOR = """
import json, os, pathlib, sys, time
from multiprocessing import get_context
from markdown_it import MarkdownIt
MD = None
def init():
    global MD
    MD = MarkdownIt("commonmark").enable("table")
def render(text):
    return len(MD.render(text))
texts = [p.read_text(encoding="utf-8") for p in sorted(pathlib.Path(sys.argv[1]).rglob("*.md"))]
procs = int(sys.argv[2])
start = time.perf_counter()
if procs == 1:
    init()
    sizes = [render(t) for t in texts]
else:
    with get_context("fork").Pool(procs, initializer=init) as pool:
        sizes = pool.map(render, texts, chunksize=max(1, len(texts) // (procs * 8)))
print(json.dumps({"seconds": time.perf_counter() - start, "pages": len(sizes)}))
"""


@dataclass
class Sample:
    seconds: float
    rss_kb: int  # the command and every process it waited for
    main_kb: int = 0  # sitegen only: the main process ...
    workers_kb: int = 0  # ... and the largest of its workers
    pss_kb: int = 0  # sitegen only: peak PSS of the main process and its workers together
    wall: float = 0.0  # floors: the whole process; ``seconds`` is the rendering alone


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(REPO), env.get("PYTHONPATH", "")] if p)
    return env


def measure(cmd: list[str], cwd: Path, log: Path) -> tuple[dict[str, float], str]:
    """One command in a fresh wrapper process: its wall time, max RSS, and output."""
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, str(cwd), str(log), *cmd],
        capture_output=True,
        text=True,
        env=_env(),
        check=True,
    )
    out = json.loads(done.stdout.strip().splitlines()[-1])
    text = log.read_text(encoding="utf-8", errors="replace")
    if out["code"] != 0:
        raise SystemExit(f"failed ({out['code']}): {' '.join(cmd)}\n{text[-3000:]}")
    return out, text


def sitegen(corpus: Path, tmp: Path, args: list[str]) -> Sample:
    usage = tmp / "sitegen-rusage.json"
    out, _ = measure([sys.executable, "-c", SITEGEN, str(usage), *args], corpus, tmp / "log")
    own = json.loads(usage.read_text())
    return Sample(
        out["seconds"], int(out["rss_kb"]), own["main_kb"], own["workers_kb"], own.get("pss_kb", 0)
    )


def mkdocs(corpus: Path, tmp: Path) -> Sample:
    dest = tmp / "mkdocs-site"
    shutil.rmtree(dest, ignore_errors=True)
    out, _ = measure(mkdocs_build(dest), corpus, tmp / "log")
    return Sample(out["seconds"], int(out["rss_kb"]))


def floor(corpus: Path, tmp: Path, procs: int) -> Sample:
    out, text = measure(
        [sys.executable, "-c", FLOOR, str(corpus / "docs"), str(procs)], corpus, tmp / "log"
    )
    inner = json.loads(text.strip().splitlines()[-1])
    return Sample(inner["seconds"], int(out["rss_kb"]), wall=out["seconds"])


def edit_page(corpus: Path) -> Path:
    """The page the one-page edit changes: the middle one in path order, not the home page."""
    pages = sorted(p for p in (corpus / "docs").rglob("*.md") if p.name != "index.md")
    return pages[len(pages) // 2]


def retitled(text: bytes) -> bytes:
    """The page with its title changed (front matter and first heading): the nav moves."""
    return re.sub(rb'(title: "|\n# )', rb"\1Renamed ", text, count=2)


def one_run(corpus: Path, tmp: Path, jobs: int, cores: int) -> dict[str, Sample]:
    """Every measurement once, side by side; the corpus is as generated afterwards."""
    build = ["build", "--quiet", "--jobs", str(jobs)]
    got = {}
    for key, args in (("full1", ["build", "--quiet", "--jobs", "1"]), ("full", build)):
        for d in (SITE, CACHE):
            shutil.rmtree(corpus / d, ignore_errors=True)
        got[key] = sitegen(corpus, tmp, args + ["--clean"])
    got["nochange"] = sitegen(corpus, tmp, build)
    page = edit_page(corpus)
    original = page.read_bytes()
    page.write_bytes(original + EDIT.encode())
    try:
        got["edit"] = sitegen(corpus, tmp, build)
        page.write_bytes(original + EDIT.encode() * 2)  # the author saves once more
        got["edit2"] = sitegen(corpus, tmp, build)
        page.write_bytes(retitled(original))
        got["title"] = sitegen(corpus, tmp, build)
    finally:
        page.write_bytes(original)
    got["mkdocs"] = mkdocs(corpus, tmp)
    got["floor1"] = floor(corpus, tmp, 1)
    got["floorN"] = floor(corpus, tmp, cores)
    if shutil.which("hugo"):
        got["hugo1"] = hugo(corpus, tmp, one_core=True)
        got["hugoN"] = hugo(corpus, tmp, one_core=False)
    return got


#: A Hugo site over a copy of the corpus's pages, with the least a page needs to be written:
#: its content in a page. Hugo highlights fences by default, as sitegen does.
HUGO_CONFIG = """baseURL = "https://example.org/"
publishDir = "{out}"
disableKinds = ["taxonomy", "term", "RSS", "sitemap"]
"""
HUGO_LAYOUT = "<!doctype html><title>{{ .Title }}</title><main>{{ .Content }}</main>\n"


def hugo(corpus: Path, tmp: Path, one_core: bool) -> Sample:
    """``hugo`` (Debian's, when on the PATH) on the same pages, pinned to one core or not."""
    site = tmp / "hugo"
    shutil.rmtree(site, ignore_errors=True)
    (site / "layouts" / "_default").mkdir(parents=True)
    for name in ("single.html", "list.html"):
        (site / "layouts" / "_default" / name).write_text(HUGO_LAYOUT)
    (site / "hugo.toml").write_text(HUGO_CONFIG.format(out=tmp / "hugo-public"))
    # A folder's index.md is Hugo's leaf bundle (the rest of the folder its resources): it
    # is the folder's page as _index.md, as MkDocs and sitegen read it.
    shutil.copytree(corpus / "docs", site / "content")
    for index in sorted((site / "content").rglob("index.md")):
        index.rename(index.with_name("_index.md"))
    cmd = ["hugo", "--quiet", "--source", str(site)]
    out, _ = measure(["taskset", "-c", "0", *cmd] if one_core else cmd, site, tmp / "log")
    return Sample(out["seconds"], int(out["rss_kb"]))


def median_of(runs: list[dict[str, Sample]]) -> dict[str, Sample]:
    """Median seconds per measurement; memory is the peak over the runs."""
    out = {}
    for key in runs[0]:
        samples = [r[key] for r in runs]
        out[key] = Sample(
            statistics.median(s.seconds for s in samples),
            max(s.rss_kb for s in samples),
            max(s.main_kb for s in samples),
            max(s.workers_kb for s in samples),
            pss_kb=max(s.pss_kb for s in samples),
            wall=statistics.median(s.wall for s in samples),
        )
    return out


# ---------------------------------------------------------------------------- report

ROWS = [
    ("full1", "sitegen build --clean --jobs 1"),
    ("full", "sitegen build --clean"),
    ("mkdocs", "mkdocs build (small nav)"),
    ("hugo1", "hugo, pinned to 1 core"),
    ("hugoN", "hugo, all cores"),
    ("floor1", "markdown-it floor, 1 process"),
    ("floorN", "markdown-it floor, {cores} processes"),
    ("nochange", "sitegen rebuild, no change"),
    ("edit", "sitegen rebuild, one page edited"),
    ("edit2", "sitegen rebuild, same page again"),
    ("title", "sitegen rebuild, a title changed"),
]
#: Rows whose time is a share of the full build.
_SHARES = ("nochange", "edit", "edit2", "title")


def _mb(kb: int) -> str:
    return f"{kb / 1024:.0f}"


def table(pages: int, med: dict[str, Sample], cores: int) -> list[str]:
    full, mk = med["full"].seconds, med["mkdocs"].seconds
    lines = [
        (
            f"| {'measurement':<34} | {'seconds':>7} | {'pages/s':>7} | {'vs mkdocs':>9} "
            f"| {'of full':>7} | {'max RSS MB':>10} | {'main / workers MB':>17} | {'PSS MB':>6} |"
        ),
        f"|{'-' * 36}|{'-' * 9}|{'-' * 9}|{'-' * 11}|{'-' * 9}|{'-' * 12}|{'-' * 19}|{'-' * 8}|",
    ]
    for key, label in ROWS:
        if key not in med:  # hugo, when it is not on the PATH
            continue
        s = med[key]
        rate = pages / s.seconds
        frac = f"{s.seconds / full * 100:6.1f}%" if key in _SHARES else ""
        split = f"{_mb(s.main_kb)} / {_mb(s.workers_kb)}" if s.main_kb else ""
        lines.append(
            f"| {label.format(cores=cores):<34} | {s.seconds:7.2f} | {rate:7.0f} "
            f"| {mk / s.seconds:8.2f}x | {frac:>7} | {_mb(s.rss_kb):>10} | {split:>17} "
            f"| {_mb(s.pss_kb) if s.pss_kb else '':>6} |"
        )
    return lines


def _verdict(ok: bool, miss: str) -> str:
    return "met" if ok else f"MISSED: {miss}"


def _target(label: str, value: float, limit: float, unit: str, at_most: bool = True) -> str:
    """One line: the figure, the target and met or missed (by how much)."""
    ok = value <= limit if at_most else value >= limit
    sign = "<=" if at_most else ">="
    miss = f"{value / limit:.2f}x the limit" if at_most else f"{limit / value:.2f}x short"
    return f"- {label}: {value:.2f}{unit} (target {sign} {limit:g}{unit}) -> " + _verdict(ok, miss)


def targets(pages: int, med: dict[str, Sample]) -> list[str]:
    """Issue 19's targets, each met or missed."""
    full, full1 = med["full"].seconds, med["full1"].seconds
    sitegen_rows = ("full1", "full", "nochange", "edit", "title")
    peak = max(med[k].main_kb + med[k].workers_kb for k in sitegen_rows)
    # RSS counts a page a forked worker shares with its parent in both; PSS splits it.
    pss = max(med[k].pss_kb for k in sitegen_rows)
    return [
        _target(
            "--jobs 1 build vs markdown-it floor (1 process)",
            full1 / med["floor1"].seconds,
            1.5,
            "x",
        ),
        _target(
            "build vs mkdocs small-nav, pages/s",
            med["mkdocs"].seconds / full,
            3,
            "x",
            at_most=False,
        ),
        _target("default-jobs build vs the --jobs 1 build, time", full / full1, 0.6, "x"),
        _target(
            "one-page body edit, share of the full build", med["edit"].seconds / full * 100, 5, " %"
        ),
        _target(
            "title change, share of the full build", med["title"].seconds / full * 100, 25, " %"
        ),
        _target(
            "no change, share of the full build", med["nochange"].seconds / full * 100, 3, " %"
        ),
        _target("peak RSS, main + largest worker", peak / 1024, 500, " MB"),
        _target("peak PSS, main and workers together", pss / 1024, 500, " MB"),
    ]


def header(args: argparse.Namespace, cores: int) -> list[str]:
    import markdown_it
    import mkdocs

    cmd = "python bench/scale.py " + " ".join(sys.argv[1:])
    return [
        f"{datetime.date.today().isoformat()} (machine date): `{cmd}`; sitegen {_revision()}",
        (
            f"python {platform.python_version()}, mkdocs {mkdocs.__version__}, markdown-it-py "
            f"{markdown_it.__version__}; {cores} cores; sitegen --jobs {args.jobs}; "
            f"median of {args.runs} runs (max RSS: peak over the runs)"
        ),
    ]


def _revision() -> str:
    """The commit measured, and whether sitegen's files differ from it."""
    try:
        head = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(REPO), "status", "--porcelain", "sitegen", "templates"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return f"from {REPO} (not a git checkout)"
    return f"at {head}" + (" with uncommitted changes" if dirty else "")


# ---------------------------------------------------------------------------- profile


def profile(corpus: Path, tmp: Path, top: int = 15) -> list[str]:
    """A cProfile of one in-process full build (--jobs 1): top entries and time by module."""
    import pstats

    for d in (SITE, CACHE):
        shutil.rmtree(corpus / d, ignore_errors=True)
    prof = tmp / "build.prof"
    python, *module = sitegen_cmd("build", "--jobs", "1", "--quiet", "--clean")
    subprocess.run(
        [python, "-m", "cProfile", "-o", str(prof), *module],  # module: -m sitegen.commands.cli ...
        cwd=corpus,
        env=_env(),
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    entries = pstats.Stats(str(prof)).stats  # type: ignore[attr-defined]
    build = max(
        ct
        for (path, _, name), (_, _, _, ct, _) in entries.items()
        if name == "build" and path.endswith("sitegen/build.py")
    )
    lines = [f"profile of `sitegen build --jobs 1 --clean` (cProfile): build() {build:.2f} s"]
    # Callers of build() (cli, click, runpy) are left out: they only wrap it.
    below = {k: v for k, v in entries.items() if v[3] <= build}
    for col, title in ((3, "cumulative"), (2, "tottime")):
        lines += [
            "",
            f"top {top} by {title}:",
            "| seconds | calls | function |",
            "|--------:|------:|----------|",
        ]
        for (path, line, name), stat in sorted(below.items(), key=lambda kv: -kv[1][col])[:top]:
            lines.append(f"| {stat[col]:7.2f} | {stat[1]} | {_where(path, line, name)} |")
    by_module: dict[str, float] = {}
    for (path, _, name), (_, _, tt, _, _) in entries.items():
        mod = name if path == "~" else _short(path)
        by_module[mod] = by_module.get(mod, 0.0) + tt
    total = sum(by_module.values())
    lines += [
        "",
        f"top {top} modules by own time (of {total:.2f} s in all):",
        "| seconds | share | module |",
        "|--------:|------:|--------|",
    ]
    for mod, tt in sorted(by_module.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"| {tt:7.2f} | {tt / total * 100:4.1f}% | {mod} |")
    return lines


def phases(corpus: Path, jobs: int) -> list[str]:
    """sitegen's own phase timings (SITEGEN_TIMINGS=1) of a full, a no-change and two edit
    builds."""
    for d in (SITE, CACHE):  # --clean ignores the cache; a previous site would still be used
        shutil.rmtree(corpus / d, ignore_errors=True)
    page = edit_page(corpus)
    original = page.read_bytes()
    lines = []
    runs = (
        ("full (from nothing)", ["--clean"], 0),
        ("no change", [], 0),
        ("one page edited", [], 1),
        ("same page again", [], 2),
    )
    for label, extra, edits in runs:
        if edits:
            page.write_bytes(original + EDIT.encode() * edits)
        env = {**_env(), "SITEGEN_TIMINGS": "1"}
        done = subprocess.run(
            sitegen_cmd("build", "--quiet", "--jobs", str(jobs), *extra),
            cwd=corpus,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        marks = [
            ln.removeprefix("sitegen timing: ")
            for ln in done.stderr.splitlines()
            if ln.startswith("sitegen timing:")
        ]
        lines.append(f"- {label}: " + ", ".join(marks))
    page.write_bytes(original)
    return lines


def _where(path: str, line: int, name: str) -> str:
    return name if path == "~" else f"{_short(path)}:{line} {name}"


def _short(path: str) -> str:
    """A path from its package on: site-packages, the repository, or the standard library."""
    for marker in ("site-packages/", str(REPO) + "/"):
        if marker in path:
            return path.split(marker, 1)[1]
    return re.sub(r"^.*/lib/python3\.\d+/", "", path)


# ---------------------------------------------------------------------------- main


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, nargs="+", default=[1000, 5000])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=0, help="sitegen --jobs (0 = one per core)")
    ap.add_argument(
        "--profile", action="store_true", help="also profile a --jobs 1 build of the largest corpus"
    )
    args = ap.parse_args()
    cores = (
        len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    )
    print("\n".join(header(args, cores)), flush=True)
    with tempfile.TemporaryDirectory(prefix="sitegen-scale-") as name:
        tmp = Path(name)
        for n in args.pages:
            corpus = tmp / f"corpus-{n}"
            pages = generate(corpus, n)
            load = os.getloadavg()
            runs = [one_run(corpus, tmp, args.jobs, cores) for _ in range(args.runs)]
            after = os.getloadavg()
            print(
                f"\n### {pages} pages\n\nload average (1 min) before {load[0]:.2f}, "
                f"after {after[0]:.2f}\n",
                flush=True,
            )
            med = median_of(runs)
            print("\n".join(table(pages, med, cores)))
            print(
                f"\nfloor processes' wall time (interpreter, imports, reading): "
                f"1 process {med['floor1'].wall:.2f} s, "
                f"{cores} processes {med['floorN'].wall:.2f} s"
            )
            print(f"\ntargets (issue 19, stated for 5,000 pages) at {pages} pages:")
            print("\n".join(targets(pages, med)), flush=True)
        if args.profile:
            corpus = tmp / f"corpus-{args.pages[-1]}"
            print(f"\nphase timings at {args.pages[-1]} pages (--jobs {args.jobs}):")
            print("\n".join(phases(corpus, args.jobs)))
            print("\n" + "\n".join(profile(corpus, tmp)))


if __name__ == "__main__":
    main()
