#!/usr/bin/env python3
"""API pages: sitegen's ``:::`` blocks against mkdocs + mkdocstrings-python on the same pages.

    python bench/api_vs_mkdocstrings.py PROJECT --mkdocs-python PYTHON
        [--package DIR ...] [--dependency DIR ...] [--runs 3] [--json OUT]

PROJECT is a folder with an ``mkdocs.yml`` that uses mkdocstrings. mkdocs builds it in place
(into a temporary folder), run by ``--mkdocs-python``: an interpreter with mkdocs,
mkdocstrings-python and the theme installed, since none of them is a sitegen dependency.
sitegen builds a copy of the same pages: the docs folder and ``mkdocs.yml`` (whose handler
options it reads), each ``--package`` folder below ``src/`` (the package's source, when
mkdocs.yml's ``paths`` point outside PROJECT) and a ``sitegen.toml`` saying so; without
``--package`` the copy is the whole of PROJECT. Each ``--dependency`` folder (an installed
package such as Starlette) is copied into a folder put on sitegen's ``PYTHONPATH``: the build
finds installed packages on its interpreter's ``sys.path`` and has no option for others. A
``PYTHONPATH`` already set comes first (an export of another revision of sitegen, say).

Each run, in turn: mkdocs build, then a clean sitegen build (``.sitegen`` removed), then a
sitegen build with nothing changed. Times are CPU seconds (user + system) of the process and
its children; the medians are printed with sitegen / mkdocs. Then, from the last run's
sites, per page: the object ids each side shows (mkdocs: the ``doc-heading`` elements and
the bare anchors a hidden root gets; sitegen: the headings and bare anchors inside the
page's main element whose id is a dotted path below a package the page's ``:::`` blocks
name, a docstring's own ``--`` sub-headings excluded), recall and precision of sitegen's
against mkdocstrings', and the parameters shown: the names of each signature and of each
Parameters table, compared object by object. ``--json`` writes every difference.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import yaml
from common import sitegen

#: A ``:::`` line: the target is the first word after the marker.
BLOCK = re.compile(r"^[ ]{0,3}:::[ \t]+([\w.]+)[ \t]*$", re.M)
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
#: Which element opens an object: (tag, attributes, classes, the open elements) -> its id.
ObjectTest = Callable[[str, dict[str, str], set[str], list[tuple[str, set[str]]]], str | None]


# --- The two builds ------------------------------------------------------------------------


def cpu_of(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    """The CPU seconds (user + system) ``command`` and its children took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def docs_dir(project: Path) -> str:
    config = yaml.load((project / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
    return str(config.get("docs_dir", "docs")) if isinstance(config, dict) else "docs"


class _Loader(yaml.SafeLoader):
    """mkdocs.yml's ``!!python/name:`` tags read as text, never run."""


_Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda _l, _s, _n: None)
_Loader.add_multi_constructor("!", lambda _l, _s, _n: None)


def python_only(folder: str, names: list[str]) -> set[str]:
    """copytree's ignore: keep folders and Python sources."""
    return {n for n in names if not os.path.isdir(os.path.join(folder, n))} - {
        n for n in names if n.endswith((".py", ".pyi"))
    }


def sitegen_project(project: Path, packages: list[Path], dest: Path) -> Path:
    """The copy sitegen builds: the same pages and mkdocs.yml, and the packages below src/."""
    if not packages:
        shutil.copytree(project, dest, ignore=shutil.ignore_patterns(".git", "site", ".sitegen"))
        return dest
    docs = docs_dir(project)
    dest.mkdir(parents=True)
    shutil.copy2(project / "mkdocs.yml", dest / "mkdocs.yml")
    shutil.copytree(project / docs, dest / docs)
    for package in packages:
        shutil.copytree(package, dest / "src" / package.name, ignore=python_only)
    (dest / "sitegen.toml").write_text(f'content = "{docs}"\nsource = ["src"]\n', "utf-8")
    return dest


@dataclass
class Times:
    mkdocs: list[float] = field(default_factory=list)
    sitegen: list[float] = field(default_factory=list)
    sitegen_again: list[float] = field(default_factory=list)


def run_builds(args: argparse.Namespace, tmp: Path) -> tuple[Times, Path, Path, Path]:
    """The runs, in turn; the two sites of the last run and the copy sitegen built."""
    copy = sitegen_project(args.project, args.package, tmp / "project")
    deps = tmp / "dependencies"
    deps.mkdir()
    for dependency in args.dependency:
        shutil.copytree(dependency, deps / dependency.name, ignore=python_only)
    path = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH", ""), str(deps)) if p)
    env = {**os.environ, "PYTHONPATH": path, "PYTHONHASHSEED": "0"}
    mkdocs_site, sitegen_site = tmp / "mkdocs-site", tmp / "sitegen-site"
    mkdocs_cmd = [args.mkdocs_python, "-m", "mkdocs", "build", "-q", "-f", "mkdocs.yml"]
    sitegen_cmd = sitegen("build", "--quiet", "--out", str(sitegen_site))
    times = Times()
    for _ in range(args.runs):
        shutil.rmtree(mkdocs_site, ignore_errors=True)
        mkdocs_env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        times.mkdocs.append(cpu_of([*mkdocs_cmd, "-d", str(mkdocs_site)], args.project, mkdocs_env))
        for name in (".sitegen", str(sitegen_site)):
            shutil.rmtree(copy / name, ignore_errors=True)
        times.sitegen.append(cpu_of(sitegen_cmd, copy, env))
        times.sitegen_again.append(cpu_of(sitegen_cmd, copy, env))
    return times, mkdocs_site, sitegen_site, copy


# --- What a built page shows ---------------------------------------------------------------


@dataclass
class Shown:
    """One object as a page shows it: the parameter names of its signature (None: no
    signature) and of its Parameters table (None: no table)."""

    signature: list[str] | None = None
    table: list[str] | None = None


@dataclass
class Page:
    objects: dict[str, Shown] = field(default_factory=dict)


class PageReader(HTMLParser):
    """Reads one built page into its objects, in order: ``is_object(tag, attrs)`` says which
    elements open an object; the text of headings and ``<pre>`` blocks and the first column
    of tables after a "Parameters" title are kept for the object they follow."""

    def __init__(self, is_object: ObjectTest) -> None:
        super().__init__(convert_charrefs=True)
        self.is_object = is_object
        self.page = Page()
        self.current: str | None = None
        self.blocks = 0  # headings and code blocks read since the object opened
        self.stack: list[tuple[str, set[str]]] = []
        self.text: list[str] | None = None  # a heading's or a signature's text being read
        self.capture_tag = ""
        self.after_title = False  # a "Parameters" title was the last thing read
        self.cells: list[str] | None = None  # the first column of a parameters table
        self.cell: list[str] | None = None
        self.column = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        classes = set(found.get("class", "").split())
        ident = self.is_object(tag, found, classes, self.stack)
        if ident is not None:
            self.current, self.blocks, self.after_title = ident, 0, False
            self.page.objects.setdefault(ident, Shown())
        block = tag in HEADINGS or tag == "pre" or "doc-signature" in classes
        in_source = any(t == "details" for t, _ in self.stack)  # a "Source code" listing
        if block and self.text is None and not in_source:
            self.blocks += 1
            if self.blocks <= 2:  # the heading, and the signature block right after it
                self.text, self.capture_tag = [], tag
        self._table_start(tag)
        if tag not in VOID:
            self.stack.append((tag, classes))

    def _table_start(self, tag: str) -> None:
        if tag == "table" and self.after_title:
            self.cells = []
        elif tag == "tr" and self.cells is not None:
            self.column = 0
        elif tag in ("td", "th") and self.cells is not None:
            self.column += 1
            self.cell = [] if self.column == 1 else None

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if self.text is not None and tag == self.capture_tag:
            self._signature("".join(self.text))
            self.text = None
        if tag in ("td", "th") and self.cell is not None and self.cells is not None:
            self.cells.append(" ".join("".join(self.cell).split()))
            self.cell = None
        if tag == "table" and self.cells is not None:
            self._table(self.cells)
            self.cells, self.after_title = None, False
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data: str) -> None:
        if self.text is not None:
            self.text.append(data)
        if self.cell is not None:
            self.cell.append(data)
        words = data.strip().rstrip(":").strip()
        if words in ("Parameters", "PARAMETER") and self.cells is None:
            self.after_title = True
            if any(tag == "th" for tag, _ in self.stack):
                self.cells, self.column = [], 1  # the spacy style: the title is the header

    def _signature(self, text: str) -> None:
        shown = self.page.objects.get(self.current) if self.current is not None else None
        if shown is None or shown.signature is not None or self.current is None:
            return
        name = self.current.rpartition(".")[2]
        flat = " ".join(text.split())
        found = re.search(rf"(?<![\w.]){re.escape(name)} ?\(", flat)
        if found is not None:
            shown.signature = parameter_names(flat[found.end() :])

    def _table(self, cells: list[str]) -> None:
        shown = self.page.objects.get(self.current) if self.current is not None else None
        if shown is not None and shown.table is None:
            names = [c.split()[0] for c in cells if c and c not in ("Name", "PARAMETER")]
            shown.table = [n for n in names if n not in ("DESCRIPTION", "TYPE", "DEFAULT")]


def parameter_names(text: str) -> list[str]:
    """The names in ``a: int = 1, *, b=(1, 2)) -> X``: up to the closing parenthesis, split
    at top-level commas; ``*`` and ``/`` markers left out, ``*args`` kept with its stars."""
    names, depth, piece, quote = [], 0, [], ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            names.append("".join(piece))
            piece = []
            continue
        piece.append(ch)
    names.append("".join(piece))
    out = [re.split(r"[:=]", n, maxsplit=1)[0].strip() for n in names]
    return [n for n in out if n and n not in ("*", "/")]


def mkdocstrings_object(
    tag: str, attrs: dict[str, str], classes: set[str], stack: list[tuple[str, set[str]]]
) -> str | None:
    """mkdocstrings' objects: a ``doc-heading`` (a parameter heading is no object), or a bare
    anchor right inside a ``doc-object`` div (a hidden root)."""
    ident = attrs.get("id")
    if not ident or "doc-heading-parameter" in classes:
        return None
    if "doc-heading" in classes:
        return ident
    if tag == "a" and "href" not in attrs and stack and "doc-object" in stack[-1][1]:
        return ident
    return None


def sitegen_object_test(tops: set[str]) -> ObjectTest:
    """sitegen's objects on a page whose blocks name the packages ``tops``: a heading or a
    bare anchor inside ``<main>`` with a dotted id below one of them (not ``path--slug``)."""

    def test(
        tag: str, attrs: dict[str, str], classes: set[str], stack: list[tuple[str, set[str]]]
    ) -> str | None:
        ident = attrs.get("id", "")
        if not ident or "--" in ident or not any(t == "main" for t, _ in stack):
            return None
        if tag not in HEADINGS and not (tag == "a" and "href" not in attrs):
            return None
        top = ident.partition(".")[0]
        return ident if top in tops else None

    return test


def read_site(
    site: Path, docs: Path, test_of_page: Callable[[str], ObjectTest | None]
) -> dict[str, Page]:
    """Each page of ``site`` that shows objects, by its source page (``reference/x.md``)."""
    pages: dict[str, Page] = {}
    for html in sorted(site.rglob("*.html")):
        source = source_page(html.relative_to(site).as_posix(), docs)
        if source is None:
            continue
        test = test_of_page(source)
        if test is None:
            continue
        reader = PageReader(test)
        reader.feed(html.read_text(encoding="utf-8", errors="replace"))
        reader.close()
        if reader.page.objects:
            pages[source] = reader.page
    return pages


def source_page(rel: str, docs: Path) -> str | None:
    """``reference/x/index.html`` -> ``reference/x.md`` (or ``reference/x/index.md``)."""
    stem = rel.removesuffix(".html")
    folder = stem.removesuffix("index").rstrip("/")
    for candidate in (f"{stem}.md", f"{folder}.md" if folder else "", f"{folder}/index.md"):
        if candidate and (docs / candidate.lstrip("/")).is_file():
            return candidate.lstrip("/")
    return None


def block_tops(docs: Path) -> dict[str, set[str]]:
    """The top-level packages each page's ``:::`` blocks name."""
    tops: dict[str, set[str]] = {}
    for md in sorted(docs.rglob("*.md")):
        names = {t.partition(".")[0] for t in BLOCK.findall(md.read_text(encoding="utf-8"))}
        if names:
            tops[md.relative_to(docs).as_posix()] = names
    return tops


# --- The comparison ------------------------------------------------------------------------


@dataclass
class Compared:
    """One page (or the total): ids on each side and the parameters both show."""

    theirs: int = 0
    ours: int = 0
    both: int = 0
    signatures: int = 0
    signatures_same: int = 0
    tables: int = 0
    tables_same: int = 0
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    parameter_diffs: list[dict[str, object]] = field(default_factory=list)

    def add(self, other: Compared) -> None:
        for name in ("theirs", "ours", "both", "signatures", "signatures_same"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.tables += other.tables
        self.tables_same += other.tables_same
        self.missing += other.missing
        self.extra += other.extra
        self.parameter_diffs += other.parameter_diffs

    def recall(self) -> float:
        return self.both / self.theirs if self.theirs else 1.0

    def precision(self) -> float:
        return self.both / self.ours if self.ours else 1.0


def compare(theirs: Page | None, ours: Page | None) -> Compared:
    mine = ours.objects if ours else {}
    reference = theirs.objects if theirs else {}
    out = Compared(len(reference), len(mine), len(set(reference) & set(mine)))
    out.missing = [i for i in reference if i not in mine]
    out.extra = [i for i in mine if i not in reference]
    for ident in (i for i in reference if i in mine):
        for part in ("signature", "table"):
            want, got = getattr(reference[ident], part), getattr(mine[ident], part)
            if want is None or got is None:
                if want != got:
                    out.parameter_diffs.append({"id": ident, part: [want, got]})
                continue
            same = want == got
            if part == "signature":
                out.signatures, out.signatures_same = out.signatures + 1, out.signatures_same + same
            else:
                out.tables, out.tables_same = out.tables + 1, out.tables_same + same
            if not same:
                out.parameter_diffs.append({"id": ident, part: [want, got]})
    return out


def report(results: dict[str, Compared], times: Times, runs: int) -> Compared:
    total = Compared()
    print(
        "| page | mkdocstrings ids | sitegen ids | recall | precision | "
        "signatures same | tables same |"
    )
    print("|---|---|---|---|---|---|---|")
    for page, found in results.items():
        total.add(found)
        print(row(page, found))
    print(row("**total**", total))
    mk, sg = statistics.median(times.mkdocs), statistics.median(times.sitegen)
    again = statistics.median(times.sitegen_again)
    print(f"\nbuild CPU seconds (user + sys), median of {runs}:")
    print(f"  mkdocs + mkdocstrings  {mk:7.2f}")
    print(f"  sitegen, clean         {sg:7.2f}   sitegen / mkdocs = {sg / mk:.2f}")
    print(f"  sitegen, no change     {again:7.2f}   sitegen / mkdocs = {again / mk:.2f}")
    print(f"  per run: mkdocs {fmt(times.mkdocs)}; sitegen {fmt(times.sitegen)}")
    return total


def row(page: str, c: Compared) -> str:
    return (
        f"| {page} | {c.theirs} | {c.ours} | {c.recall():.3f} | {c.precision():.3f} | "
        f"{c.signatures_same}/{c.signatures} | {c.tables_same}/{c.tables} |"
    )


def fmt(values: list[float]) -> str:
    return " / ".join(f"{v:.2f}" for v in values)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("project", type=Path, help="a folder with mkdocs.yml using mkdocstrings")
    ap.add_argument("--mkdocs-python", required=True, help="a Python with mkdocstrings")
    ap.add_argument("--package", type=Path, action="append", default=[], help="source package")
    ap.add_argument("--dependency", type=Path, action="append", default=[], help="installed one")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", type=Path, help="write every difference here")
    args = ap.parse_args()
    args.project = args.project.resolve()
    with tempfile.TemporaryDirectory(prefix="sitegen-api-bench-") as name:
        tmp = Path(name)
        times, mkdocs_site, sitegen_site, copy = run_builds(args, tmp)
        docs = copy / docs_dir(copy)
        tops = block_tops(docs)
        theirs = read_site(mkdocs_site, docs, lambda page: mkdocstrings_object)
        ours = read_site(
            sitegen_site, docs, lambda p: sitegen_object_test(tops[p]) if p in tops else None
        )
    results = {p: compare(theirs.get(p), ours.get(p)) for p in sorted(set(theirs) | set(ours))}
    total = report(results, times, args.runs)
    if args.json:
        detail = {p: vars(c) for p, c in results.items()}
        args.json.write_text(json.dumps({"total": vars(total), "pages": detail}, indent=1))


if __name__ == "__main__":
    sys.exit(main())
