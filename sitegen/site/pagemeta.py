"""What a page shows below its content: the "Edit this page" link, the last-modified date
from git, its tags (content/guides/site.md, "Below each page"), and the tag pages' paths.

Reads nothing but git's history of the project root's own checkout, once per build; never
writes, and gives no date at all outside a git checkout (never the file's mtime).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sitegen.base.gitrun import GitError, is_checkout, run_git
from sitegen.base.paths import OutPath, content_relative
from sitegen.config import Config
from sitegen.docs.slug import github_slug

TAGS_FOLDER = "tags"
_HOSTS_WITH_EDIT = ("github.com", "gitlab.com")


def edit_href(config: Config, page_path: str) -> str:
    """``repo_url`` + ``edit_uri`` + the page's path inside the content folder (MkDocs'
    rule); "" when no repo_url is set, or no edit_uri for a host whose default is unknown.

    A page outside the content folder (a source folder's README) is edited at its own path:
    with the host's default, ``edit/main/<its path>``; an ``edit_uri`` names the content
    folder, so such a page then gets no link rather than a wrong one."""
    if not config.repo_url:
        return ""
    content = config.content_rel
    rel = content_relative(content, page_path)
    default = any(host in config.repo_url for host in _HOSTS_WITH_EDIT)
    if config.edit_uri:
        if rel is None:
            return ""
        uri = config.edit_uri
    elif not default:
        return ""
    elif rel is None:
        uri, rel = "edit/main/", page_path
    else:
        uri = f"edit/main/{content}/" if content else "edit/main/"
    if uri.startswith(("http://", "https://")):
        return uri.rstrip("/") + "/" + rel
    return config.repo_url.rstrip("/") + "/" + uri.strip("/") + "/" + rel


def page_tags(front_matter: dict[str, Any]) -> tuple[str, ...]:
    """The page's tags from front matter (``tags: [a, b]`` or ``tags: a``), in order, once each."""
    raw = front_matter.get("tags")
    values = [raw] if isinstance(raw, (str, int, float)) else raw if isinstance(raw, list) else []
    seen: dict[str, None] = {}
    for value in values:
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            tag = " ".join(str(value).split())
            if tag:
                seen.setdefault(tag, None)
    return tuple(seen)


def tag_out(tag: str) -> OutPath:
    """The page listing every page with ``tag``: ``tags/<slug>.html``."""
    return OutPath(f"{TAGS_FOLDER}/{github_slug(tag) or 'tag'}.html")


def git_dates(root: Path, folder: str = "") -> dict[str, str]:
    """Repository path -> the date (YYYY-MM-DD) of the last commit that changed it, from one
    ``git log`` over the history of ``folder``: deterministic for a commit. Empty when the root is not the
    top of a git checkout (sitegen reads nothing above the root) or git is unavailable.
    git runs as every git call runs it (sitegen/base/gitrun.py: the root's own checkout, a clean
    environment, nothing of the repository's configuration applied)."""
    if not is_checkout(root):
        return {}
    try:
        out = run_git(
            root,
            [
                "log",
                "--format=%x00%cs",
                "--name-only",
                "--no-renames",
                "HEAD",
                "--",
                folder.strip("/") or ".",
            ],
        )
    except GitError:
        return {}
    return _last_dates(out.decode("utf-8", errors="replace"))


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _last_dates(log: str) -> dict[str, str]:
    dates: dict[str, str] = {}
    date = ""
    for line in log.splitlines():
        if line.startswith("\0"):
            date = line[1:] if _DATE.fullmatch(line[1:]) else ""
        elif line and date:
            dates.setdefault(line, date)  # newest first: the first date seen is the last change
    return dates


def git_head(root: Path) -> str:
    """The checked-out commit (part of the build's input: dates change with it), or ""."""
    if not is_checkout(root):
        return ""
    try:
        return run_git(root, ["rev-parse", "HEAD"]).decode().strip()
    except GitError:
        return ""
