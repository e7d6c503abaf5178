"""C and C++ include search paths from a ``compile_commands.json`` (content/guides/code-graph.md).

Turns each entry's ``-I`` / ``-isystem`` / ``-iquote`` flags into project folders. Pure: the
database's text in, repository paths out; never reads files, never returns a folder outside
the project (a flag naming ``/usr/include`` is dropped).
"""

from __future__ import annotations

import json
import posixpath
import shlex
from dataclasses import dataclass, field

_FLAGS = ("-I", "-isystem", "-iquote", "-idirafter")


@dataclass
class IncludePaths:
    """Folders per compiled file, and all of them (first seen first) for the other files."""

    by_file: dict[str, tuple[str, ...]] = field(default_factory=dict)
    everywhere: tuple[str, ...] = ()

    def for_file(self, path: str) -> tuple[str, ...]:
        return self.by_file.get(path, self.everywhere)


def read_compile_commands(text: str, paths: frozenset[str], dirs: frozenset[str]) -> IncludePaths:
    """The include folders of one compilation database; empty when it does not parse.

    Its absolute paths come from the machine that wrote it, so the project root is found by
    matching each entry's ``file`` against the project's files (the longest suffix that is a
    project path), and folders are kept only when they lie under that root.
    """
    try:
        entries = json.loads(text)
    except json.JSONDecodeError:
        return IncludePaths()
    if not isinstance(entries, list):
        return IncludePaths()
    commands = [c for c in (_command(e) for e in entries) if c is not None]
    root = next(
        (
            r
            for r in (
                _root_of(posixpath.join(directory, file), paths) for directory, file, _ in commands
            )
            if r is not None
        ),
        None,
    )
    if root is None:
        return IncludePaths()
    out = IncludePaths()
    seen: dict[str, None] = {}
    for directory, file, args in commands:
        found = tuple(
            d
            for d in (
                _inside(root, posixpath.join(directory, flag), dirs)
                for flag in _include_flags(args)
            )
            if d is not None
        )
        rel = _inside(root, posixpath.join(directory, file), paths)
        if rel is not None:
            out.by_file.setdefault(rel, found)
        seen.update(dict.fromkeys(found))
    out.everywhere = tuple(seen)
    return out


def _command(entry: object) -> tuple[str, str, list[str]] | None:
    """(directory, file, arguments) of one entry; None for a malformed one."""
    if not isinstance(entry, dict):
        return None
    directory, file = entry.get("directory", ""), entry.get("file")
    if not isinstance(directory, str) or not isinstance(file, str):
        return None
    args = entry.get("arguments")
    if not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
        command = entry.get("command")
        if not isinstance(command, str):
            return None
        try:
            args = shlex.split(command)
        except ValueError:
            return None
    return directory.replace("\\", "/"), file.replace("\\", "/"), args


def _include_flags(args: list[str]) -> list[str]:
    """The folders of ``-I dir``, ``-Idir``, ``-isystem dir`` … in command-line order."""
    out = []
    for i, arg in enumerate(args):
        flag = next((f for f in _FLAGS if arg.startswith(f)), None)
        if flag is None:
            continue
        if arg == flag:
            if i + 1 < len(args):
                out.append(args[i + 1])
        else:
            out.append(arg[len(flag) :])
    return out


def _root_of(file: str, paths: frozenset[str]) -> str | None:
    """The absolute project root, if the absolute ``file`` ends with a project path."""
    parts = posixpath.normpath(file).split("/")
    for i in range(1, len(parts)):
        if "/".join(parts[i:]) in paths:
            return "/".join(parts[:i]) or "/"
    return None


def _inside(root: str, absolute: str, known: frozenset[str]) -> str | None:
    """``absolute`` as a repository path when it lies under ``root`` and is ``known``."""
    norm = posixpath.normpath(absolute)
    if norm == root:
        return ""
    prefix = root.rstrip("/") + "/"
    if not norm.startswith(prefix):
        return None
    rel = norm[len(prefix) :]
    return rel if rel in known else None
