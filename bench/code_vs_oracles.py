#!/usr/bin/env python3
"""sitegen's file-level import graph against each language's own tools, on real repositories.

    python bench/code_vs_oracles.py python ~/src/httpx --package httpx
    python bench/code_vs_oracles.py js ~/src/pinia --entry packages/pinia/src
    python bench/code_vs_oracles.py go ~/src/cobra
    python bench/code_vs_oracles.py c ~/src/hiredis -I .
    python bench/code_vs_oracles.py all /tmp/repos     # every repository below it it knows

For ``all``, fetch the repositories into one folder under their GitHub names (vuejs/core as
``vuejs-core``): httpx, typer, pinia, ky, vuejs-core, cobra, gin, ripgrep, hiredis, zstd.

Oracles: grimp (Python, ``pip install grimp``), madge (TS/JS: ``npm install madge typescript``
into a temporary folder when node is present), Go's own ``go/parser`` (a 20-line program run
with ``go run`` when go is installed), ``gcc -MM -MG`` (C: the project headers each ``.c``
file reaches, compared with sitegen's include edges followed transitively). Each side is
restricted to the files both know. Prints recall and precision of sitegen against the
oracle, the first differences both ways and a verdict line. The repository is copied to a
temporary folder first; nothing is written anywhere else, and no repository file is kept.
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from common import REPO

sys.path.insert(0, str(REPO))

Edge = tuple[str, str]
LANGUAGES = {
    "python": ["python"],
    "js": ["javascript", "typescript", "tsx"],
    "go": ["go"],
    "c": ["c", "cpp"],
    "rust": ["rust"],
}
#: ``all`` mode: folder name -> (language, options) of the repositories this knows.
KNOWN = {
    "httpx": ("python", {"package": "httpx"}),
    "typer": ("python", {"package": "typer"}),
    "pinia": ("js", {"entry": "packages"}),
    "ky": ("js", {"entry": "source"}),
    "vuejs-core": ("js", {"entry": "packages"}),  # vuejs/core, in a folder of that name
    "cobra": ("go", {}),
    "gin": ("go", {}),
    "ripgrep": ("rust", {}),
    "hiredis": ("c", {"include": ["."]}),
    "zstd": ("c", {"include": ["lib", "lib/common"], "entry": "lib"}),
}


@dataclass
class Comparison:
    name: str
    oracle: str
    ours: set[Edge]
    theirs: set[Edge]
    note: str = ""

    @property
    def recall(self) -> float:
        return len(self.ours & self.theirs) / len(self.theirs) if self.theirs else 1.0

    @property
    def precision(self) -> float:
        return len(self.ours & self.theirs) / len(self.ours) if self.ours else 1.0

    def report(self, shown: int = 8) -> str:
        lines = [
            f"## {self.name} vs {self.oracle}",
            "",
            (
                f"oracle edges {len(self.theirs)}, sitegen edges {len(self.ours)}, "
                f"recall {self.recall:.3f}, precision {self.precision:.3f}"
            ),
        ]
        for title, diff in (
            ("only the oracle has", self.theirs - self.ours),
            ("only sitegen has", self.ours - self.theirs),
        ):
            lines.append(f"{title} ({len(diff)}):")
            lines += [f"  {a} -> {b}" for a, b in sorted(diff)[:shown]]
        agree = self.recall >= 0.99 and self.precision >= 0.99
        lines.append(
            "verdict: "
            + ("agrees" if agree else "differs; read the differences above")
            + (f" ({self.note})" if self.note else "")
        )
        return "\n".join(lines) + "\n"

    def row(self) -> str:
        return (
            f"| {self.name} | {self.oracle} | {len(self.theirs)} | {len(self.ours)} | "
            f"{self.recall:.3f} | {self.precision:.3f} |"
        )


# ---------------------------------------------------------------- sitegen's side


def sitegen_graph(root: Path, languages: list[str], include: list[str]):  # type: ignore[no-untyped-def]
    """The code graph of ``root`` as a build makes it (only the shard cache in ``.sitegen/``
    is written)."""
    import dataclasses

    from sitegen.base.diagnostics import Sink
    from sitegen.base.progress import Progress
    from sitegen.build import extract_code, link_code
    from sitegen.config import load_config
    from sitegen.crawl import crawl
    from sitegen.records.result import BuildContext, BuildOptions

    # A content folder that does not exist, so every file is source (docs/ examples
    # included). Set after loading, since a configured content folder must exist.
    config = dataclasses.replace(
        load_config(root, languages=tuple(languages), include_dirs=tuple(include) or None),
        content="__no_content__",
    )
    found = crawl(config)
    options = BuildOptions(jobs=1, clean=True, quiet=True)
    ctx = BuildContext(config, options, Progress(enabled=False), Sink(), jobs=1)
    records = extract_code(ctx, found)
    return link_code(ctx, found, records)


def import_edges(graph) -> set[Edge]:  # type: ignore[no-untyped-def]
    from sitegen.records.code_graph import EdgeKind

    out = set()
    for e in graph.edges(EdgeKind.IMPORT):
        src, dst = graph.file_of(e.src), graph.file_of(e.dst)
        if src is not None and dst is not None and src.path != dst.path:
            out.add((src.path, dst.path))
    return out


# ---------------------------------------------------------------- Python: grimp


def compare_python(name: str, root: Path, package: str) -> Comparison:
    import grimp

    graph = sitegen_graph(root, LANGUAGES["python"], [])
    files = {f.path for f in graph.files.values() if f.path.startswith(package + "/")}
    module_of = {p: p.rsplit(".", 1)[0].removesuffix("/__init__").replace("/", ".") for p in files}
    file_of = {m: p for p, m in module_of.items()}
    sys.path.insert(0, str(root))
    oracle = grimp.build_graph(package, cache_dir=None)
    theirs = {
        (file_of[a], file_of[b])
        for a in oracle.modules
        for b in oracle.find_modules_directly_imported_by(a)
        if a in file_of and b in file_of
    }
    ours = {(a, b) for a, b in import_edges(graph) if a in files and b in files}
    return Comparison(name, "grimp", ours, theirs)


# ---------------------------------------------------------------- JS / TS: madge


def madge_bin(tmp: Path) -> Path | None:
    if shutil.which("node") is None or shutil.which("npm") is None:
        return None
    folder = Path(os.environ.get("MADGE_DIR", tmp / "madge"))
    binary = folder / "node_modules" / ".bin" / "madge"
    if not binary.exists():
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--silent", "--no-audit", "--no-fund", "madge", "typescript"],
            cwd=folder,
            check=True,
            capture_output=True,
        )
    return binary


def compare_js(name: str, root: Path, entry: str, tmp: Path) -> Comparison | str:
    binary = madge_bin(tmp)
    if binary is None:
        return f"{name}: node/npm not installed; madge not run"
    graph = sitegen_graph(root, LANGUAGES["js"], [])
    base = root / entry
    args = [str(binary), "--json", "--extensions", "ts,tsx,js,jsx,mjs,cjs,mts,cts"]
    tsconfig = next(
        (p for p in (base / "tsconfig.json", root / "tsconfig.json") if p.exists()), None
    )
    if tsconfig is not None:
        args += ["--ts-config", str(tsconfig)]
    # Into a file: node cuts a large JSON written to a pipe at 64 KB when it exits.
    out = tmp / f"madge-{name}.json"
    with out.open("w") as sink:
        subprocess.run(
            [*args, str(base)], stdout=sink, stderr=subprocess.DEVNULL, cwd=root, check=False
        )
    deps = json.loads(out.read_text() or "{}")
    prefix = entry.strip("/")

    def rel(p: str) -> str:
        return posixpath.normpath(posixpath.join(prefix, p))

    theirs = {(rel(a), rel(b)) for a, bs in deps.items() for b in bs}
    # Files both know: madge reads .vue and hidden folders, sitegen neither.
    files = ({rel(a) for a in deps} | {b for _, b in theirs}) & {
        f.path for f in graph.files.values()
    }
    ours = {(a, b) for a, b in import_edges(graph) if a in files and b in files}
    theirs = {(a, b) for a, b in theirs if a in files and b in files}
    return Comparison(name, "madge", ours, theirs, "madge drops type-only imports")


# ---------------------------------------------------------------- Go: go/parser

_GO_LISTER = """package main

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	root := os.Args[1]
	out := map[string][]string{}
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, e := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if e != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		for _, im := range f.Imports {
			v, _ := strconv.Unquote(im.Path.Value)
			out[filepath.ToSlash(rel)] = append(out[filepath.ToSlash(rel)], v)
		}
		return nil
	})
	json.NewEncoder(os.Stdout).Encode(out)
}
"""


def compare_go(name: str, root: Path, tmp: Path) -> Comparison | str:
    if shutil.which("go") is None:
        return f"{name}: go not installed; Go's parser not run"
    lister = tmp / "golister" / "main.go"
    lister.parent.mkdir(parents=True, exist_ok=True)
    lister.write_text(_GO_LISTER)
    env = {
        **os.environ,
        "GOFLAGS": "-mod=mod",
        "GO111MODULE": "off",
        "GOCACHE": str(tmp / "gocache"),
    }
    proc = subprocess.run(
        ["go", "run", str(lister), str(root)], capture_output=True, text=True, env=env, check=True
    )
    imports: dict[str, list[str]] = json.loads(proc.stdout)
    module = next(
        line.split()[1]
        for line in (root / "go.mod").read_text().splitlines()
        if line.startswith("module ")
    )
    graph = sitegen_graph(root, LANGUAGES["go"], [])
    files = {f.path for f in graph.files.values()}
    folders = {posixpath.dirname(p) for p in files if not p.endswith("_test.go")}
    theirs = set()
    for path, specs in imports.items():
        for spec in specs:
            if path in files and (spec == module or spec.startswith(module + "/")):
                folder = spec[len(module) :].strip("/")
                if folder in folders:
                    theirs.add((path, folder or "."))
    ours = {(a, posixpath.dirname(b) or ".") for a, b in import_edges(graph)}
    return Comparison(name, "go/parser", ours, theirs, "edges are file -> imported package folder")


# ---------------------------------------------------------------- Rust: cargo metadata


def compare_rust(name: str, root: Path) -> Comparison | str:
    """Package -> package edges: the path dependencies ``cargo metadata`` lists between the
    workspace's packages, against sitegen's imports between files of different packages."""
    if shutil.which("cargo") is None:
        return f"{name}: cargo not installed"
    proc = subprocess.run(
        ["cargo", "metadata", "--no-deps", "--offline", "--format-version", "1"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        return f"{name}: cargo metadata failed: {proc.stderr.strip()[:200]}"
    packages = json.loads(proc.stdout)["packages"]
    folder_of = {
        p["name"]: posixpath.dirname(os.path.relpath(p["manifest_path"], root)) for p in packages
    }
    folder_of = {k: ("" if v == "." else v) for k, v in folder_of.items()}
    theirs = {
        (folder_of[p["name"]] or ".", folder_of[d["name"]] or ".")
        for p in packages
        for d in p["dependencies"]
        if d.get("path") and d["name"] in folder_of
    }
    folders = sorted(set(folder_of.values()), key=len, reverse=True)

    def package(path: str) -> str:
        return next((f for f in folders if not f or path.startswith(f + "/")), "") or "."

    graph = sitegen_graph(root, LANGUAGES["rust"], [])
    ours = {(package(a), package(b)) for a, b in import_edges(graph)}
    ours = {(a, b) for a, b in ours if a != b}
    return Comparison(
        name,
        "cargo metadata",
        ours,
        theirs,
        "package edges; a declared dependency may be unused in code",
    )


# ---------------------------------------------------------------- C: gcc -MM


def compare_c(name: str, root: Path, include: list[str], entry: str) -> Comparison | str:
    if shutil.which("gcc") is None:
        return f"{name}: gcc not installed"
    graph = sitegen_graph(root, LANGUAGES["c"], include)
    files = {f.path for f in graph.files.values()}
    sources = sorted(p for p in files if p.endswith(".c") and p.startswith(entry.strip("/")))
    flags = [f"-I{d}" for d in include]
    theirs: set[Edge] = set()
    for path in sources:
        proc = subprocess.run(
            ["gcc", "-MM", "-MG", *flags, path],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        )
        deps = proc.stdout.replace("\\\n", " ").split(":", 1)[-1].split()
        for dep in deps[1:]:
            norm = posixpath.normpath(dep)
            if norm in files and norm != path:
                theirs.add((path, norm))
    direct = import_edges(graph)
    reach = _closure(direct)
    ours = {(p, h) for p in sources for h in reach(p) if h != p}
    return Comparison(
        name,
        "gcc -MM",
        ours,
        theirs,
        "transitive project headers; sitegen ignores #if, gcc evaluates it",
    )


def _closure(edges: set[Edge]) -> Callable[[str], set[str]]:
    out: dict[str, list[str]] = {}
    for a, b in edges:
        out.setdefault(a, []).append(b)

    def reach(start: str) -> set[str]:
        seen, stack = set(), [start]
        while stack:
            for nxt in out.get(stack.pop(), []):
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return seen

    return reach


# ---------------------------------------------------------------- driver


def run_one(lang: str, source: Path, tmp: Path, **options) -> Comparison | str:  # type: ignore[no-untyped-def]
    name = source.name
    root = tmp / name
    shutil.copytree(source, root, ignore=shutil.ignore_patterns(".git", "node_modules", ".sitegen"))
    if lang == "python":
        return compare_python(name, root, options.get("package") or name)
    if lang == "js":
        return compare_js(name, root, options.get("entry") or ".", tmp)
    if lang == "go":
        return compare_go(name, root, tmp)
    if lang == "rust":
        return compare_rust(name, root)
    return compare_c(name, root, options.get("include") or [], options.get("entry") or "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lang", choices=[*LANGUAGES, "all"])
    parser.add_argument("root", type=Path, help="a repository, or with 'all' a folder of them")
    parser.add_argument(
        "--package", help="python: the package to compare (default: the folder name)"
    )
    parser.add_argument(
        "--entry", default="", help="js: the folder madge reads; c: the .c files' folder"
    )
    parser.add_argument("-I", dest="include", action="append", default=[], help="c: include folder")
    args = parser.parse_args()
    jobs = [
        (
            args.lang,
            args.root,
            {"package": args.package, "entry": args.entry, "include": args.include},
        )
    ]
    if args.lang == "all":
        jobs = [
            (lang, args.root / name, opts)
            for name, (lang, opts) in KNOWN.items()
            if (args.root / name).is_dir()
        ]
    rows = []
    with tempfile.TemporaryDirectory(prefix="sitegen-oracles-") as tmp:
        for lang, source, opts in jobs:
            result = run_one(lang, source.resolve(), Path(tmp), **opts)
            if isinstance(result, str):
                print(result + "\n")
                rows.append(f"| {source.name} | (not run) | | | | |")
                continue
            print(result.report())
            rows.append(result.row())
    print("| repository | oracle | oracle edges | sitegen edges | recall | precision |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
