"""The example plugin in whole builds (issue 31, point 2; content/guides/plugins.md): named, its
syntax renders, its output is written and its check's findings appear in ``sitegen check``;
not named, none of them; a plugin that raises is one warning naming it and the build goes on
(exit 1 only under ``--strict``); its version enters the caches' keys; a plugin that is not
fork-safe keeps the build in one process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sitegen.build import BuildOptions, build
from sitegen.commands.cli import main
from sitegen.config import load_config
from sitegen.plugins import CHECKS_GROUP, OUTPUTS_GROUP, SYNTAX_GROUP
from tests.cli.conftest import sitegen, write
from tests.plugins.conftest import EXAMPLE_PACKAGE, Installer

PAGE = "# Home\n\nPress :kbd[Ctrl+C] to copy.\n\nTODO: say what it copies.\n"
KBD = '<kbd class="example-kbd">Ctrl+C</kbd>'


def project(root: Path, plugins: str = '["example"]', extra: str = "") -> Path:
    return write(
        root,
        {
            "sitegen.toml": f'title = "T"\nplugins = {plugins}\n{extra}',
            "docs/index.md": PAGE,
            "docs/other.md": "# Other\n\nNo keys here.\n",
        },
    )


def test_named_the_example_adds_its_syntax_its_output_and_its_check(
    tmp_path: Path, plugins: Installer
) -> None:
    plugins.install_example()
    root = project(tmp_path / "p")
    result = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    assert [d.format() for d in result.diagnostics if d.code == "plugin"] == []
    assert KBD in (root / "site/index.html").read_text()
    assert (root / "site/plugin-pages.txt").read_text() == (
        "docs/index.md\tHome\ndocs/other.md\tOther\n"
    )
    run = sitegen("check", root=root)
    assert "docs/index.md:5:1: warning: a TODO is left in the page [todo-left]" in run.out
    assert "todo-left" in run.out.splitlines()[-1]  # the summary names it among those checked
    assert run.code == 0  # a warning: the check's default severity


def test_its_check_takes_a_severity_like_any_other(tmp_path: Path, plugins: Installer) -> None:
    plugins.install_example()
    root = project(tmp_path / "p", extra='\n[checks]\ntodo-left = "error"\n')
    run = sitegen("check", root=root)
    assert "docs/index.md:5:1: error: a TODO is left in the page [todo-left]" in run.out
    assert run.code == 1


def test_not_named_nothing_of_it_runs_and_its_module_is_never_imported(
    tmp_path: Path, plugins: Installer
) -> None:
    plugins.install_example()
    root = project(tmp_path / "p", plugins="[]")
    build(load_config(root), BuildOptions(jobs=1, quiet=True))
    html = (root / "site/index.html").read_text()
    assert KBD not in html and ":kbd[Ctrl+C]" in html
    assert not (root / "site/plugin-pages.txt").exists()
    run = sitegen("check", root=root)
    assert "todo-left" not in run.out
    assert EXAMPLE_PACKAGE not in sys.modules


BROKEN = """
from sitegen.analyse.checks import Check
from sitegen.base.paths import OutPath
from sitegen.docs.registry import Syntax
from sitegen.site.emitter import OneFile

SITEGEN_FORK_SAFE = True


def _boom(state, silent):
    if state.src.startswith("!boom", state.pos):
        raise ValueError("the rule broke")
    return False


def _install(md):
    md.inline.ruler.before("emphasis", "broken_boom", _boom)


class Out(OneFile):
    name = "broken.txt"
    file = OutPath("broken.txt")

    def render(self, run, out):
        raise KeyError("no such thing")


def _findings(result):
    raise RuntimeError("the check broke")


SYNTAX = Syntax("broken-boom", _install, lambda text: "!boom" in text)
OUTPUT = Out()
CHECK = Check("broken-check", "error", _findings, "a check that breaks")
"""


def _install_broken(plugins: Installer) -> None:
    plugins.install(
        "broken-dist",
        "2.0",
        {
            SYNTAX_GROUP: {"broken": "broken_plugin:SYNTAX"},
            OUTPUTS_GROUP: {"broken": "broken_plugin:OUTPUT"},
            CHECKS_GROUP: {"broken": "broken_plugin:CHECK"},
        },
        {"broken_plugin.py": BROKEN},
    )


def test_a_plugin_that_raises_is_one_warning_naming_it_and_the_build_goes_on(
    tmp_path: Path, plugins: Installer
) -> None:
    plugins.install_example()
    _install_broken(plugins)
    root = write(
        tmp_path / "p",
        {
            "sitegen.toml": 'plugins = ["broken", "example"]\n',
            "docs/index.md": "# Home\n\n:kbd[K] then !boom.\n",
            "docs/other.md": "# Other\n\n:kbd[L], no boom.\n",
        },
    )
    run = sitegen("build", root=root)
    said = [line for line in run.err_lines if "plugin '" in line]
    assert said == [
        "docs/index.md:1:1: warning: plugin 'broken' raised while reading a page "
        "(syntax 'broken-boom'): ValueError: the rule broke; the page was read without "
        "plugin syntaxes",
        "sitegen.toml:1:1: warning: plugin 'broken' raised while writing its files "
        "(output 'broken.txt'): KeyError: 'no such thing'; the site goes on without them",
    ]
    assert run.code == 0
    # the page is there, read without the plugins' syntaxes; the other page has them
    assert "!boom" in (root / "site/index.html").read_text()
    assert '<kbd class="example-kbd">L</kbd>' in (root / "site/other.html").read_text()
    assert (root / "site/plugin-pages.txt").is_file()
    assert not (root / "site/broken.txt").exists()
    assert sitegen("build", "--strict", "--clean", root=root).code == 1
    check = sitegen("check", root=root)
    assert [line for line in check.err_lines if "plugin '" in line] == [
        "sitegen.toml:1:1: warning: plugin 'broken': check 'broken-check' failed and was "
        "skipped (RuntimeError: the check broke)"
    ]
    assert check.code == 0


def test_a_new_version_reads_the_pages_again_and_changes_the_site_fingerprint(
    tmp_path: Path, plugins: Installer
) -> None:
    from sitegen.state.ownership import OUTPUT_MARKER
    from sitegen.state.remembered import SiteRecord

    plugins.install_example("1.0.0")
    root = project(tmp_path / "p")

    def once() -> tuple[str, str, bool]:
        result = build(load_config(root), BuildOptions(jobs=1, quiet=True))
        marker = SiteRecord.read(root / "site" / OUTPUT_MARKER)
        key = next((p.content_hash for p in result.pages if p.path == "docs/index.md"), "")
        return key, marker.fingerprint, bool(result.unchanged)

    first = once()
    assert once()[1:] == (first[1], True)  # the same version: nothing redone
    plugins.install_example("1.0.1")
    newer = once()
    assert newer[0] != first[0] and newer[0]  # the page's record is another
    assert newer[1] != first[1] and not newer[2]  # and the site is written again


FORK_PROBE = """
import os
from sitegen.docs.registry import Syntax

{declaration}


def _probe(state, silent):
    if state.src.startswith("%pid%", state.pos):
        with open(os.environ["SITEGEN_TEST_PIDS"], "a") as f:
            f.write(f"{{os.getpid()}}\\n")
    return False


SYNTAX = Syntax("probe", lambda md: md.inline.ruler.before("emphasis", "probe", _probe), lambda t: "%pid%" in t)
"""


@pytest.mark.parametrize("safe", [False, True])
def test_a_plugin_not_fork_safe_keeps_the_build_in_one_process(
    tmp_path: Path, plugins: Installer, monkeypatch: pytest.MonkeyPatch, safe: bool
) -> None:
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: the build never forks")
    declaration = "SITEGEN_FORK_SAFE = True" if safe else ""
    plugins.install(
        "probe-dist",
        "1",
        {SYNTAX_GROUP: {"probe": "probe_plugin:SYNTAX"}},
        {"probe_plugin.py": FORK_PROBE.format(declaration=declaration)},
    )
    pids = tmp_path / "pids.txt"
    monkeypatch.setenv("SITEGEN_TEST_PIDS", str(pids))
    files = {f"docs/p{i:03}.md": f"# P{i}\n\nA %pid% here.\n" for i in range(80)}
    root = write(tmp_path / "p", {"sitegen.toml": 'plugins = ["probe"]\n', **files})
    result = build(load_config(root), BuildOptions(jobs=2, quiet=True))
    seen = set(pids.read_text().split())
    told = [d.format() for d in result.diagnostics if d.code == "plugin"]
    if safe:
        assert told == [] and seen - {str(os.getpid())}  # workers read pages
    else:
        assert seen == {str(os.getpid())}
        assert told == [
            "sitegen.toml:1:1: info: plugin 'probe' does not declare SITEGEN_FORK_SAFE = True; "
            "the build runs in one process"
        ]


def test_installed_as_pip_would_a_subprocess_build_finds_it(
    tmp_path: Path, plugins: Installer
) -> None:
    plugins.install_example()
    root = project(tmp_path / "p")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([plugins.path, str(Path.cwd())])}
    command = f"import sys\nfrom {main.__module__} import main\nsys.exit(main())"
    done = subprocess.run(
        [sys.executable, "-c", command, "build", "--root", str(root), "--jobs", "1", "--strict"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert KBD in (root / "site/index.html").read_text()
    assert (root / "site/plugin-pages.txt").is_file()


def test_serve_leaves_a_page_of_a_project_with_plugins_to_the_build(
    tmp_path: Path, plugins: Installer
) -> None:
    from sitegen.site.preview import Preview

    plugins.install_example()
    root = project(tmp_path / "p")
    preview = Preview.of(build(load_config(root), BuildOptions(jobs=1, quiet=True)))
    assert preview is not None
    # the preview reads no plugin's syntax: the build that follows shows the page
    assert preview.render("docs/index.md", PAGE.encode() + b"\nMore.\n") is None


OUTSIDE = """
from sitegen.base.paths import OutPath
from sitegen.site.emitter import Emitter

SITEGEN_FORK_SAFE = True


class Out(Emitter):
    name = "outside"

    def claim(self, run):
        return [OutPath("../outside.txt")]

    def emit(self, run, outputs):
        for out in outputs:
            run.writer.write(out, "written outside")


OUTPUT = Out()
"""


def test_a_plugin_output_may_not_write_outside_the_site(tmp_path: Path, plugins: Installer) -> None:
    plugins.install(
        "outside-dist",
        "1",
        {OUTPUTS_GROUP: {"outside": "outside_plugin:OUTPUT"}},
        {"outside_plugin.py": OUTSIDE},
    )
    root = write(tmp_path / "p", {"sitegen.toml": 'plugins = ["outside"]\n', "docs/a.md": "# A\n"})
    result = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    assert [d.format() for d in result.diagnostics if d.code == "plugin"] == [
        "sitegen.toml:1:1: warning: plugin 'outside' raised while claiming its files "
        "(output 'outside'): ValueError: '../outside.txt' lies outside the output folder; "
        "the site goes on without them"
    ]
    assert not list(root.rglob("outside.txt"))
