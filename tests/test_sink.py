"""One diagnostics sink handed to every step (issue 31, point 4; content/reference/cli.md,
"Diagnostics"): steps report into the build's ``Sink``, the driver sorts it once into
``BuildResult.diagnostics``, and no step or emitter appends to the result. What a forked
extraction reports arrives in the same order as what one process reports."""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from pathlib import Path

import pytest

from sitegen.base.diagnostics import Diagnostic, Level, Sink
from sitegen.base.parallel import MIN_PARALLEL
from sitegen.base.paths import OutPath
from sitegen.build import build
from sitegen.config import load_config
from sitegen.records.result import BuildOptions, BuildResult
from sitegen.site import emit
from sitegen.site.emitter import EmitRun, Emitter
from sitegen.site.outputs import OUTPUTS
from sitegen.state.ownership import OUTPUT_MARKER
from sitegen.state.remembered import SiteRecord

#: A project whose every stage says something: a page that is not UTF-8, front matter that
#: is not YAML, broken links and anchors, two pages on one address, a theme's broken
#: symbolic link, raw HTML allowed, and no base_url (so no sitemap).
PROJECT = {
    "sitegen.toml": 'title = "W"\nraw_html = "allow"\ntheme_dir = "theme"\nsource = ["pkg"]\n',
    "content/index.md": (
        "# Home\n\nSee [missing](nope.md), [b](b.md#nothere) and [sub](sub/c.md).\n\n"
        "<div>raw</div>\n"
    ),
    "content/b.md": "# B\n\n[[Wiki Link]] and ![img](missing.png) and [code](../pkg/gone.py)\n",
    "content/sub/c.md": "---\ntitle: [unclosed\n---\n# C\n\n[home](../index.md#nope)\n",
    "content/a.md": "# A\n",
    "content/a.markdown": "# A2\n",
    "pkg/a.py": "import pkg.b\n",
    "pkg/b.py": "import pkg.a\n",
}
PAGES = 40  # pages that each say something of their own


def _project(root: Path, pages: int = PAGES) -> Path:
    files = dict(PROJECT)
    for i in range(pages):  # each page says something of its own
        files[f"content/many/p{i:02d}.md"] = f"# P{i}\n\n[broken](gone{i}.md)\n"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (root / "content/bad.md").write_bytes(b"\xff\xfe not UTF-8\n")
    (root / "theme").mkdir()
    (root / "theme/broken.html").symlink_to("/nonexistent/x.html")
    return root


def _d(path: str, line: int, message: str, level: Level = Level.WARNING) -> Diagnostic:
    return Diagnostic(path, line, 1, level, message, "test")


def test_sink_sorts_once_and_keeps_each_diagnostic_once() -> None:
    sink = Sink()
    late, early, info = (
        _d("b.md", 3, "late"),
        _d("a.md", 9, "early"),
        _d("a.md", 1, "i", Level.INFO),
    )
    sink.add(late)
    sink.extend([early, late, info])
    sink.extend(iter([early]))  # any iterable, a generator too
    assert sink.sorted() == [info, early, late]
    assert len(sink) == 5  # everything added is kept; sorted() drops the repeats
    # sorting is a view: it never changes what was added, and a second view is the same
    assert sink.sorted() == sorted({late, early, info})
    # equal in every field is one diagnostic; another code is another
    sink.add(Diagnostic("a.md", 1, 1, Level.INFO, "i", "other"))
    assert len(sink.sorted()) == 4


def test_the_result_holds_the_sinks_sorted_list_set_once(tmp_path: Path) -> None:
    root = _project(tmp_path)
    result = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    said = list(result.diagnostics)
    assert said == sorted(set(said))  # sorted, each once
    codes = {d.code for d in said}
    # every stage reported into the one sink: crawl (utf8), extract (front matter), link,
    # addresses, the emit step (theme, sitemap) and the driver's notice
    messages = "\n".join(d.format() for d in said)
    assert "not valid UTF-8" in messages
    assert "front matter is not valid YAML" in messages
    assert "'nope.md' does not exist" in messages
    assert "are both published as 'a.html'" in messages
    assert "symbolic link points outside the project root" in messages
    assert "sitemap.xml not written" in messages
    assert "raw-html" in codes
    # the site marker keeps what the emit step saw of the sink: the same list
    assert SiteRecord.read(root / "site" / OUTPUT_MARKER).diagnostics == said


def test_an_emitter_cannot_append_to_the_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The result is finished before the emitters run: an emitter reports into the sink it
    is given (``run.sink``); appending to ``result.diagnostics`` fails."""
    root = _project(tmp_path)
    seen: list[Sequence[Diagnostic]] = []

    class Appends(Emitter):
        name = "appends"

        def claim(self, run: EmitRun) -> list[OutPath]:
            seen.append(run.site.result.diagnostics)
            run.site.result.diagnostics.append(_d("x.md", 1, "appended"))  # type: ignore[attr-defined]
            return []

        def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
            pass

    monkeypatch.setattr(emit, "OUTPUTS", (*OUTPUTS, Appends()))
    with pytest.raises(AttributeError):
        build(load_config(root), BuildOptions(jobs=1, quiet=True))
    assert seen == [()]  # empty while the emitters run: the driver sets it once, at the end


def test_an_emitters_report_goes_through_the_sink(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path)
    said = _d("content/index.md", 1, "an output's own word")

    class Reports(Emitter):
        name = "reports"

        def claim(self, run: EmitRun) -> list[OutPath]:
            run.sink.add(said)
            run.sink.add(said)  # said twice, printed once
            return []

        def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
            pass

    monkeypatch.setattr(emit, "OUTPUTS", (*OUTPUTS, Reports()))
    result = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    assert list(result.diagnostics).count(said) == 1
    assert list(result.diagnostics) == sorted(set(result.diagnostics))
    # a rebuild of the same input replays it from the marker, in the same place
    again = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    assert again.unchanged and list(again.diagnostics) == list(result.diagnostics)


def _said(result: BuildResult) -> list[str]:
    return [d.format() for d in result.diagnostics]


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="no forked workers here"
)
def test_a_forked_extraction_reports_in_the_same_order(tmp_path: Path) -> None:
    pages = MIN_PARALLEL + 16  # enough that two forked workers each extract some
    one, two = _project(tmp_path / "one", pages), _project(tmp_path / "two", pages)
    alone = build(load_config(one), BuildOptions(jobs=1, quiet=True, clean=True))
    forked = build(load_config(two), BuildOptions(jobs=2, quiet=True, clean=True))
    assert len(alone.diagnostics) > pages  # every page's broken link is there
    assert _said(forked) == _said(alone)
    assert alone.counts() == forked.counts()


def test_the_copied_cache_notice_comes_after_the_sorted_lines(tmp_path: Path) -> None:
    """The one line the driver adds after the sort (a page cache made in another folder) is
    printed last, as it always was; the sink's lines before it are sorted."""
    import shutil

    root = _project(tmp_path / "here")
    build(load_config(root), BuildOptions(jobs=1, quiet=True))
    copy = tmp_path / "there"
    shutil.copytree(root, copy, symlinks=True)
    said = list(build(load_config(copy), BuildOptions(jobs=1, quiet=True)).diagnostics)
    *sorted_part, last = said
    assert last.path == ".sitegen" and "not made in this folder" in last.message
    assert sorted_part == sorted(set(sorted_part))
    assert last < sorted_part[-1]  # out of order on purpose: it is said after the rest
