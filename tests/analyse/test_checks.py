"""The registry of checks (sitegen/analyse/checks.py): one ``Check`` per check, from which the
defaults, the names the ``checks`` option accepts, the summary and the docs' tables follow
(content/guides/configuration.md#checks, content/guides/ci.md), and through which a plugin's
check goes as sitegen's own do."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.analyse.check import (
    Finding,
    anchor_moved_findings,
    code_cycle_findings,
    evaluate,
    link_findings,
)
from sitegen.analyse.checks import (
    CHECKS,
    DEFAULT_CHECKS,
    PLUGIN_FAILED,
    Check,
    run_checks,
    severities_of,
    validate_checks,
)
from sitegen.build import build
from sitegen.config import OPTION_NAMES, ConfigError, load_config
from sitegen.records.result import BuildOptions, BuildResult

CONTENT = Path(__file__).resolve().parents[2] / "content"


def _table(page: str, heading: str) -> list[list[str]]:
    """The cells of the first table after ``heading`` in a content page, header row left out."""
    text = (CONTENT / page).read_text(encoding="utf-8")
    block: list[list[str]] = []
    for line in text[text.index(heading) :].splitlines()[1:]:
        if line.startswith("|"):
            block.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
        elif block:
            break
    assert block, f"no table after {heading!r} in {page}"
    return [cells for cells in block[1:] if not set("".join(cells)) <= set("-:| ")]


def test_default_checks_are_derived_from_the_registry() -> None:
    names = [c.name for c in CHECKS]
    assert len(set(names)) == len(names)
    assert list(DEFAULT_CHECKS) == names
    assert {c.name: c.default_severity for c in CHECKS} == DEFAULT_CHECKS
    assert severities_of({}) == DEFAULT_CHECKS


def test_the_configuration_table_is_the_registry() -> None:
    """A check without its row (or with another default or sentence) fails here."""
    rows = _table("guides/configuration.md", "### checks")
    assert rows == [[f"`{c.name}`", f"`{c.default_severity}`", c.doc] for c in CHECKS]


def test_the_ci_guide_lists_every_check_in_order() -> None:
    rows = _table("guides/ci.md", "## What sitegen check does")
    assert [cells[0] for cells in rows] == [f"`{c.name}`" for c in CHECKS]


def test_every_check_reads_only_options_that_exist() -> None:
    for check in CHECKS:
        assert set(check.options) <= set(OPTION_NAMES), check.name
        assert check.doc and not check.plugin and not check.version


def test_a_check_with_an_unknown_default_severity_is_refused() -> None:
    with pytest.raises(ValueError, match="default severity must be one of"):
        Check("spelling", "fatal", lambda result: [], "misspelt words")


# --- validation of the checks option, once the plugins are known ----------------------------


def _never(result: BuildResult) -> list[Finding]:
    return []


SPELLING = Check("spelling", "warn", _never, "misspelt words", version="1.0", plugin="words")


def test_an_unknown_check_is_the_same_sentence_as_before() -> None:
    with pytest.raises(ConfigError) as raised:
        validate_checks({"spelling": "warn"}, origin="sitegen.toml")
    assert str(raised.value) == (
        "sitegen.toml: unknown check 'spelling'; valid: broken-links, broken-anchors, "
        "missing-rel-targets, code-cycles, relation-cycles, missing-links, loopback-link, "
        "stale-doc, anchor-moved"
    )
    with pytest.raises(ConfigError, match="severity must be one of error, warn, info, ignore"):
        validate_checks({"code-cycles": "fatal"})


def test_a_plugins_check_is_a_valid_name_with_its_default() -> None:
    validate_checks({"spelling": "error"}, (SPELLING,))
    with pytest.raises(ConfigError, match=r"valid: broken-links, .*, anchor-moved, spelling$"):
        validate_checks({"grammar": "error"}, (SPELLING,))
    assert severities_of({}, (SPELLING,)) == {**DEFAULT_CHECKS, "spelling": "warn"}
    assert severities_of({"spelling": "ignore"}, (SPELLING,))["spelling"] == "ignore"
    # a plugin cannot take a built-in's name: the built-in's default holds
    clash = Check("broken-links", "ignore", _never, "x", plugin="bad")
    assert severities_of({}, (clash,)) == DEFAULT_CHECKS


def test_the_command_line_refuses_an_unknown_check_with_exit_2(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from sitegen.commands.cli import main

    (tmp_path / "content").mkdir()
    (tmp_path / "sitegen.toml").write_text('[checks]\nbroken-link = "warn"\n')
    result = CliRunner().invoke(main, ["check", "--root", str(tmp_path)])
    assert result.exit_code == 2
    assert f"error: {tmp_path / 'sitegen.toml'}: unknown check 'broken-link'; valid: " in (
        result.output
    )


def test_the_command_line_knows_the_checks_of_the_plugins_it_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from sitegen import plugins
    from sitegen.commands.cli import main

    def words(result: BuildResult) -> list[Finding]:
        return [Finding("spelling", "content/index.md", 1, 3, "'Hoem'?", "index: Hoem")]

    spelling = Check("spelling", "warn", words, "misspelt words", version="1.0", plugin="words")
    loaded = (plugins.Plugin("words", "1.0", True, checks=(spelling,)),)
    monkeypatch.setattr(plugins, "load_configured", lambda config: (loaded, []))
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "index.md").write_text("# Hoem\n")
    config = tmp_path / "sitegen.toml"
    config.write_text('plugins = ["words"]\n[checks]\nspelling = "error"\n')
    result = CliRunner().invoke(main, ["check", "--root", str(tmp_path), "--jobs", "1"])
    assert result.exit_code == 1, result.output
    assert "content/index.md:1:3: error: 'Hoem'? [spelling]" in result.output
    assert "anchor-moved, spelling." in result.output
    config.write_text('plugins = ["words"]\n[checks]\ngrammar = "error"\n')
    result = CliRunner().invoke(main, ["check", "--root", str(tmp_path), "--jobs", "1"])
    assert result.exit_code == 2
    assert "unknown check 'grammar'; valid: broken-links," in result.output
    assert "anchor-moved, spelling" in result.output


# --- findings through the registry ----------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    root = tmp_path_factory.mktemp("checks")
    (root / "content").mkdir()
    (root / "content" / "index.md").write_text(
        "# Home\n\n[gone](gone.md) and [no anchor](other.md#nowhere) and "
        "[local](http://localhost:8000/)\n"
    )
    (root / "content" / "other.md").write_text("# Other\n\n[home](index.md)\n")
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text("import b\n")
    (root / "src" / "b.py").write_text("import a\n")
    (root / "sitegen.toml").write_text('source = ["src"]\n')
    return build(load_config(root), BuildOptions(write_site=False, quiet=True, jobs=1))


def test_the_built_ins_findings_go_through_the_registry(built: BuildResult) -> None:
    findings, failed = run_checks(built)
    assert failed == []
    assert built.cycles is not None
    by_hand = sorted(
        link_findings(built.linked.broken + built.linked.loopback)
        + code_cycle_findings(built.cycles.code)
        + anchor_moved_findings(built.diagnostics)
    )
    assert findings == by_hand
    assert {f.check for f in findings} >= {
        "broken-links",
        "broken-anchors",
        "loopback-link",
        "code-cycles",
    }
    for check in CHECKS:
        assert all(f.check == check.name for f in check.findings(built))


def test_a_plugins_check_adds_findings_and_one_that_raises_is_one_diagnostic(
    built: BuildResult,
) -> None:
    def words(result: BuildResult) -> list[Finding]:
        return [Finding("spelling", "content/index.md", 1, 3, "'Hoem'?", "index: Hoem")]

    def broken(result: BuildResult) -> list[Finding]:
        raise RuntimeError("dictionary missing")

    spelling = Check("spelling", "warn", words, "misspelt words", version="1.0", plugin="words")
    grammar = Check("grammar", "error", broken, "bad grammar", version="0.1", plugin="style")
    own, _ = run_checks(built)
    findings, failed = run_checks(built, (spelling, grammar))
    assert findings == sorted([*own, *words(built)])
    [diagnostic] = failed
    assert diagnostic.code == PLUGIN_FAILED
    assert "plugin 'style': check 'grammar' failed" in diagnostic.message
    assert "RuntimeError: dictionary missing" in diagnostic.message
    outcome = evaluate(
        findings, severities_of({}, (spelling, grammar)), github_actions=False, unchecked={}
    )
    assert "content/index.md:1:3: warning: 'Hoem'? [spelling]" in outcome.lines
    assert outcome.summary.endswith("anchor-moved, spelling, grammar.")


def test_a_built_in_check_that_raises_is_a_bug_not_a_diagnostic(built: BuildResult) -> None:
    def broken(result: BuildResult) -> list[Finding]:
        raise RuntimeError("a bug")

    with pytest.raises(RuntimeError):
        run_checks(built, (Check("mine", "error", broken, "x"),))
