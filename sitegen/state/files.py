"""State that heals: every file sitegen reads back from ``.sitegen/`` is read through here,
bounded and checked, and one that cannot be read is set aside with one warning and rebuilt.

Knows no file's meaning (each reader checks its own fields against its own format); never
deletes a file but an older set-aside copy of sitegen's own
(content/guides/safety.md#nothing-read-back-is-run).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, BinaryIO

from sitegen.base.diagnostics import Diagnostic, Level, cut

#: A file of ``.sitegen/`` larger than this is not read (a page cache of 5,000 pages, the
#: largest file sitegen keeps, is about 70 MB): it is set aside like a corrupt one.
MAX_STATE_BYTES = 1 << 30
#: What a file that cannot be read is renamed to: its name with this added, beside it.
ASIDE_SUFFIX = ".unreadable"
#: The codes of the diagnostics about ``.sitegen/``'s own files. They describe the build that
#: found them, so a build that changes nothing does not repeat them (``replayable``).
STATE_CODES = frozenset({"cache", "store", "shard-version"})
#: How much of a reason a message shows (a reason can quote the file's own bytes).
_SHOWN = 80
#: Where the folder sitegen keeps its state is named in messages.
_CACHE_FOLDER = ".sitegen"


class Unreadable(Exception):
    """A state file that cannot be used; the message is why, in a few words."""


def open_state(path: Path, limit: int = MAX_STATE_BYTES) -> BinaryIO | None:
    """The state file ``path`` opened for reading; None when there is none. ``Unreadable``
    when it is a link, a folder or anything but a regular file (a FIFO would block: it is
    opened without waiting), cannot be opened, or holds more than ``limit`` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise Unreadable(_os_reason(err)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable("a folder, not a file" if stat.S_ISDIR(info.st_mode) else "not a file")
        if info.st_size > limit:
            raise Unreadable(f"{info.st_size} bytes, more than the {limit} sitegen reads")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_state(path: Path, limit: int = MAX_STATE_BYTES) -> bytes | None:
    """The bytes of the state file ``path`` (``open_state``'s rules); None when there is none."""
    fh = open_state(path, limit)
    if fh is None:
        return None
    try:
        with fh:
            data = fh.read(limit + 1)
    except OSError as err:
        raise Unreadable(_os_reason(err)) from None
    if len(data) > limit:  # it grew while it was read
        raise Unreadable(f"more than the {limit} bytes sitegen reads")
    return data


def parse_json(
    data: bytes | str,
    object_hook: Callable[[dict[str, Any]], Any] | None = None,
    surrogates: bool = False,
) -> Any:
    """A JSON document sitegen wrote, or ``Unreadable``: bytes that are not UTF-8, text that
    is not JSON, nesting deeper than the decoder's limit (Python's recursion limit, 1,000
    levels), an integer of more than 4,300 digits (Python's own limit), a number that is not
    finite, or a lone surrogate (``"\\ud800"`` decodes to a string no file can hold).
    ``surrogates`` lets them through, for a file whose records may hold them by design (the
    page cache writes them with ``surrogatepass``)."""
    try:
        errors = "surrogatepass" if surrogates else "strict"
        text = data.decode("utf-8", errors) if isinstance(data, bytes) else data
        doc = json.loads(
            text,
            object_hook=object_hook,
            parse_constant=_refuse_constant,
            parse_float=_finite_float,
        )
    except UnicodeDecodeError as err:
        raise Unreadable(f"not UTF-8 text: byte {err.start}") from None
    except RecursionError:
        raise Unreadable("not valid JSON: nested too deep") from None
    except ValueError as err:
        raise Unreadable(f"not valid JSON: {err}") from None
    # A lone surrogate can only come from a \ud800-\udfff escape (the text itself is strict
    # UTF-8), so the values are walked only when the text holds such an escape.
    if not surrogates and ("\\ud" in text or "\\uD" in text):
        _refuse_lone_surrogates(doc)
    return doc


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"non-finite number {name}")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {cut(text, 20)} is not finite")
    return value


def _refuse_lone_surrogates(doc: Any) -> None:
    """Every string of ``doc`` (keys too) encodes as UTF-8; one pass, no recursion."""
    stack = [doc]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            _encodable(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                _encodable(key)
                stack.append(item)
        elif isinstance(value, list):
            stack.extend(value)


def _encodable(text: str) -> None:
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as err:
            raise Unreadable(f"a lone surrogate at character {err.start} of a string") from None


def read_json(path: Path, limit: int = MAX_STATE_BYTES) -> Any:
    """``parse_json`` of the state file ``path``; None when there is none."""
    data = read_state(path, limit)
    return None if data is None else parse_json(data)


def set_aside(
    path: Path,
    what: str,
    reason: str,
    *,
    code: str = "cache",
    lost: str = "",
    companions: Iterable[str] = (),
) -> Diagnostic:
    """Rename the state file (or folder) ``path`` that cannot be read to its name with
    ``.unreadable`` added, replacing an older set-aside copy, and say so in one warning:
    ``{what} cannot be read ({reason}); it was set aside as … and rebuilt. Lost: {lost}``.
    ``companions`` are suffixes of files that go with it (SQLite's ``-wal`` and ``-shm``)."""
    aside = path.with_name(path.name + ASIDE_SUFFIX)
    try:
        for extra in ("", *companions):
            part = path.with_name(path.name + extra)
            if extra and not os.path.lexists(part):
                continue
            target = aside.with_name(aside.name + extra)
            _discard(target)
            os.replace(part, target)
        done = f"it was set aside as {shown(aside)} and rebuilt"
    except OSError as err:
        done = f"it could not be set aside ({_os_reason(err)})"
    message = f"{what} cannot be read ({cut(reason, _SHOWN)}); {done}"
    if lost:
        message += f". Lost: {lost}"
    return Diagnostic(shown(path), 1, 1, Level.WARNING, message, code)


def _discard(aside: Path) -> None:
    """Remove an older set-aside copy (sitegen's own, in its own folder), folder or file; a
    folder left unreadable is made readable by its owner first."""
    if not os.path.lexists(aside):
        return
    if aside.is_dir() and not aside.is_symlink():
        os.chmod(aside, stat.S_IRWXU)
        for folder, subfolders, _files in os.walk(aside):  # top-down: opened before listed
            for name in subfolders:
                if not os.path.islink(os.path.join(folder, name)):
                    os.chmod(os.path.join(folder, name), stat.S_IRWXU)
        shutil.rmtree(aside)
    else:
        aside.unlink()


def replayable(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """What a build that changes nothing repeats of the last build's diagnostics: all but
    those about ``.sitegen/``'s files, which that build set right."""
    return [d for d in diagnostics if d.code not in STATE_CODES]


def shown(path: Path) -> str:
    """``path`` as messages name it: from the ``.sitegen`` folder on (``.sitegen/pages.json``),
    never the absolute path; its own name when it lies in no such folder."""
    parts = path.parts
    if _CACHE_FOLDER in parts:
        start = len(parts) - 1 - parts[::-1].index(_CACHE_FOLDER)
        return "/".join(parts[start:])
    return path.name


def _os_reason(err: OSError) -> str:
    """An operating system error in words, without the path (the message names the file)."""
    return err.strerror or type(err).__name__
