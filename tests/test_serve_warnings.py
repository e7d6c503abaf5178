"""``sitegen serve`` prints what changed in a rebuild's diagnostics, not every one again
(issue 30, point 7; content/reference/cli.md#sitegen-serve): the new ones in full, a count of those
gone and of those as before. A diagnostic that only moved (an edit above it) is the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.config import load_config
from sitegen.serve.schedule import Builder, Warned


def _w(path: str, line: int, message: str, level: Level = Level.WARNING) -> Diagnostic:
    return Diagnostic(path, line, 1, level, message, "broken-link")


A = _w("a.md", 3, "link target 'x.md' does not exist")
B = _w("b.md", 7, "link target 'y.md' does not exist")
C = _w("c.md", 1, "link target 'z.md' does not exist")


def test_the_first_build_prints_every_diagnostic() -> None:
    assert Warned().changes([A, B]) == [A.format(), B.format()]


def test_a_rebuild_prints_the_new_ones_and_counts_the_rest() -> None:
    warned = Warned()
    warned.changes([A, B])
    assert warned.changes([A, B]) == [
        "sitegen: 2 as before, not repeated (sitegen build prints every one)"
    ]
    # B fixed, C new, A moved two lines down by an edit above it
    moved = _w("a.md", 5, A.message)
    assert warned.changes([moved, C]) == [
        C.format(),
        "sitegen: 1 message of the last build gone; 1 as before, not repeated "
        "(sitegen build prints every one)",
    ]
    assert warned.changes([]) == ["sitegen: 2 messages of the last build gone"]
    assert warned.changes([]) == []


def test_a_diagnostic_repeated_is_new_past_its_count() -> None:
    warned = Warned()
    warned.changes([A])
    twice = _w("a.md", 9, A.message)
    assert warned.changes([A, twice]) == [
        twice.format(),
        "sitegen: 1 as before, not repeated (sitegen build prints every one)",
    ]
    # the same words at another level are another diagnostic
    info = _w("a.md", 3, A.message, Level.INFO)
    assert warned.changes([info])[0] == info.format()


@pytest.mark.slow  # two whole builds, in process
def test_serve_rebuild_prints_only_what_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "p"
    (project / "content").mkdir(parents=True)
    page = project / "content" / "index.md"
    page.write_text("# Home\n\n[one](gone-1.md) [two](gone-2.md)\n")
    (project / "sitegen.toml").write_text('title = "T"\n')
    builder = Builder(lambda: load_config(project, jobs=1), load_config(project, jobs=1), False)
    builder.rebuild()
    first = capsys.readouterr().err
    assert "gone-1.md' does not exist" in first and "gone-2.md' does not exist" in first
    page.write_text("# Home\n\nAn edit above.\n\n[one](gone-1.md) [three](gone-3.md)\n")
    builder.rebuild()
    second = capsys.readouterr().err
    assert "gone-3.md' does not exist" in second
    assert "gone-1.md" not in second and "gone-2.md" not in second
    same = len(first.splitlines()) - 2  # all but gone-2's line and the summary
    assert f"1 message of the last build gone; {same} as before" in second
    assert "sitegen: " in second.splitlines()[-1]  # the build's summary still ends it
