"""One way to run git (issue 27, Deliver 2): sitegen/base/gitrun.py is the only module of sitegen
that starts a program. Read from the source (the syntax tree), so a new module that imports
``subprocess`` or names ``git`` as a command fails here before it ships.

What counts as starting a program: importing ``subprocess``, ``pty``, ``webbrowser`` (it
starts a browser) or ``asyncio``'s subprocess functions, calling ``os.system``,
``os.popen``, ``os.exec*``, ``os.spawn*`` or ``os.posix_spawn*``, and a list or tuple whose
first item is the string ``"git"``. ``multiprocessing`` (sitegen/base/parallel.py forks Python
workers that run sitegen's own functions) starts no program and is allowed."""

from __future__ import annotations

import ast
from pathlib import Path

import sitegen

PACKAGE = Path(sitegen.__file__).parent
WRAPPER = PACKAGE / "base" / "gitrun.py"
_MODULES = {"subprocess", "pty", "webbrowser", "pexpect", "sh", "plumbum"}
_OS_CALLS = ("system", "popen", "exec", "spawn", "posix_spawn", "startfile")
_ASYNC = {"create_subprocess_exec", "create_subprocess_shell"}


def program_starts(tree: ast.AST) -> list[str]:
    """What in ``tree`` starts (or could start) a program, as ``line: what``."""
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            found += [f"{line}: import {a.name}" for a in node.names if _banned(a.name)]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if _banned(module) or (module == "os" and any(_os_call(a.name) for a in node.names)):
                found.append(f"{line}: from {module} import …")
            if module.startswith("asyncio") and any(a.name in _ASYNC for a in node.names):
                found.append(f"{line}: from {module} import a subprocess function")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "os" and _os_call(node.attr):
                found.append(f"{line}: os.{node.attr}")
            if node.attr in _ASYNC:
                found.append(f"{line}: {node.value.id}.{node.attr}")
        elif isinstance(node, (ast.List, ast.Tuple)) and node.elts:
            first = node.elts[0]
            if isinstance(first, ast.Constant) and first.value == "git":
                found.append(f'{line}: a command line ["git", …]')
    return found


def _banned(module: str) -> bool:
    return module.split(".")[0] in _MODULES


def _os_call(name: str) -> bool:
    return name.startswith(_OS_CALLS)


def test_only_the_wrapper_starts_a_program() -> None:
    offenders = {
        str(path.relative_to(PACKAGE.parent)): starts
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != WRAPPER
        and (starts := program_starts(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert offenders == {}, "only sitegen/base/gitrun.py may start a program (git)"


def test_the_wrapper_is_seen_starting_git() -> None:
    """The check finds what it looks for: the wrapper itself is caught by it."""
    starts = program_starts(ast.parse(WRAPPER.read_text(encoding="utf-8")))
    assert any("import subprocess" in s for s in starts)
    assert any('["git", …]' in s for s in starts)


def test_the_check_catches_each_way() -> None:
    code = (
        "import subprocess\nfrom os import system\nimport os\nos.execvp('x', [])\n"
        "cmd = ['git', 'log']\nimport webbrowser\nfrom asyncio import create_subprocess_exec\n"
    )
    assert len(program_starts(ast.parse(code))) == 6
