"""Plugins are loaded only when named, and a plugin that cannot be loaded is one warning
naming it (issue 31, point 2; content/guides/plugins.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sitegen.base.diagnostics import Level
from sitegen.config import ConfigError, load_config
from sitegen.plugins import (
    CHECKS_GROUP,
    OUTPUTS_GROUP,
    SYNTAX_GROUP,
    Place,
    jobs_for,
    load_configured,
    load_plugins,
    plugins_key,
    plugins_place,
)
from tests.plugins.conftest import EXAMPLE_PACKAGE, Installer

WHERE = Place("sitegen.toml", 3)


def _spy(plugins: Installer, name: str, body: str, group: str = SYNTAX_GROUP) -> None:
    """A plugin ``name`` whose module ``<name>_plugin`` is ``body``; its entry point is
    ``OBJ`` in ``group``."""
    module = f"{name}_plugin"
    plugins.install(f"{name}-dist", "0.1", {group: {name: f"{module}:OBJ"}}, {f"{module}.py": body})


def test_the_named_example_loads_with_its_version_and_its_three_kinds(plugins: Installer) -> None:
    plugins.install_example()
    loaded, said = load_plugins(["example"], WHERE)
    assert said == []
    (plugin,) = loaded
    assert (plugin.name, plugin.version, plugin.fork_safe) == ("example", "1.0.0", True)
    assert [s.name for s in plugin.syntaxes] == ["example-kbd"]
    assert [s.version for s in plugin.syntaxes] == ["1.0.0"]
    assert [e.name for e in plugin.outputs] == ["plugin-pages.txt"]
    assert [(c.name, c.plugin, c.version) for c in plugin.checks] == [
        ("todo-left", "example", "1.0.0")
    ]


def test_a_plugin_not_named_is_never_imported(plugins: Installer) -> None:
    plugins.install_example()
    _spy(plugins, "spy", "raise SystemExit('imported')\n")
    loaded, said = load_plugins(["example"], WHERE)
    assert [p.name for p in loaded] == ["example"] and said == []
    assert "spy_plugin" not in sys.modules
    assert load_plugins([], WHERE) == ((), [])
    assert EXAMPLE_PACKAGE in sys.modules  # the named one was


def test_a_plugin_named_but_not_installed_is_one_warning_at_the_option(
    plugins: Installer,
) -> None:
    loaded, said = load_plugins(["nope"], WHERE)
    assert loaded == ()
    assert [d.format() for d in said] == [
        "sitegen.toml:3:1: warning: plugin 'nope' is not installed (no entry point of that "
        "name in sitegen.syntax, sitegen.outputs, sitegen.checks); the build goes on without it"
    ]


@pytest.mark.parametrize(
    ("body", "group", "why"),
    [
        (
            "raise ImportError('no module named gone')\n",
            SYNTAX_GROUP,
            "ImportError: no module named gone",
        ),
        ("raise SystemExit(3)\n", CHECKS_GROUP, "SystemExit: 3"),
        (
            "OBJ = 42\n",
            SYNTAX_GROUP,
            "must be a Syntax (sitegen.docs.registry) or a sequence of them, not a int",
        ),
        (
            "from sitegen.site.emitter import Emitter\nOBJ = Emitter\n",
            OUTPUTS_GROUP,
            "must be an Emitter instance (sitegen.site.emitter) or a sequence of them, not the class Emitter",
        ),
        ("OBJ = []\n", CHECKS_GROUP, "not an empty sequence"),
        (
            "from sitegen.analyse.checks import CHECKS\nOBJ = CHECKS[0]\n",
            CHECKS_GROUP,
            "its check 'broken-links' has a name already taken",
        ),
        (
            "from sitegen.docs.registry import Syntax\n"
            "def boom(md):\n    raise RuntimeError('cannot install')\n"
            "OBJ = Syntax('boom', boom, None)\n",
            SYNTAX_GROUP,
            "its syntax could not be installed: RuntimeError: cannot install",
        ),
    ],
)
def test_a_plugin_that_cannot_be_loaded_is_one_warning_naming_it(
    plugins: Installer, body: str, group: str, why: str
) -> None:
    plugins.install_example()
    _spy(plugins, "broken", body, group)
    loaded, said = load_plugins(["broken", "example"], WHERE)
    assert [p.name for p in loaded] == ["example"]  # the others go on
    assert len(said) == 1
    (d,) = said
    assert (d.path, d.line, d.level, d.code) == ("sitegen.toml", 3, Level.WARNING, "plugin")
    assert d.message.startswith("plugin 'broken' could not be loaded (")
    assert why in d.message
    assert d.message.endswith("the build goes on without it")


def test_a_plugin_without_the_declaration_is_not_fork_safe_and_the_build_uses_one_process(
    plugins: Installer,
) -> None:
    plugins.install_example()
    _spy(
        plugins,
        "unsafe",
        "from sitegen_example_plugin import CHECKS as _c\nimport dataclasses\n"
        "OBJ = dataclasses.replace(_c[0], name='unsafe-check')\n",
        CHECKS_GROUP,
    )
    loaded, said = load_plugins(["example", "unsafe"], WHERE)
    assert said == [] and [p.fork_safe for p in loaded] == [True, False]
    assert jobs_for(4, loaded[:1], WHERE) == (4, [])
    jobs, told = jobs_for(4, loaded, WHERE)
    assert jobs == 1
    assert [d.format() for d in told] == [
        "sitegen.toml:3:1: info: plugin 'unsafe' does not declare SITEGEN_FORK_SAFE = True; "
        "the build runs in one process"
    ]


def test_the_key_follows_the_version_and_is_empty_without_plugins(plugins: Installer) -> None:
    assert plugins_key(()) == ""
    plugins.install_example("1.0.0")
    first, _ = load_plugins(["example"], WHERE)
    again, _ = load_plugins(["example"], WHERE)
    plugins.install_example("1.0.1")
    newer, _ = load_plugins(["example"], WHERE)
    assert newer[0].version == "1.0.1"
    assert plugins_key(first) == plugins_key(again) != plugins_key(newer) != ""


def test_the_option_is_a_list_of_names(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "sitegen.toml").write_text(
        'title = "T"\n\nplugins = ["example", "b.c-d", "example"]\n'
    )
    config = load_config(tmp_path)
    assert config.plugins == ("example", "b.c-d")
    assert plugins_place(config) == Place("sitegen.toml", 3)
    for bad in ('plugins = "a b"', "plugins = [1]", 'plugins = ["../x"]', "plugins = {a = 1}"):
        (tmp_path / "sitegen.toml").write_text(bad + "\n")
        with pytest.raises(ConfigError, match="option 'plugins'"):
            load_config(tmp_path)


def test_the_place_is_the_option_in_pyproject_too(tmp_path: Path, plugins: Installer) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "p"\nplugins = 1\n\n[tool.sitegen]\ntitle = "T"\nplugins = ["nope"]\n'
    )
    config = load_config(tmp_path)
    assert plugins_place(config) == Place("pyproject.toml", 7)
    _, said = load_configured(config)
    assert [d.format().split(": warning")[0] for d in said] == ["pyproject.toml:7:1"]
