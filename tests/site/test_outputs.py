"""The outputs of the site behind one Emitter interface (content/guides/outputs.md): every
file of a built site belongs to exactly one output, the first claim of a path wins (so
sitegen's own files beat the content's), and an output added to the registry is published,
listed in the ownership marker and kept by an incremental rebuild."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.base.paths import OutPath
from sitegen.base.progress import Progress
from sitegen.build import build
from sitegen.config import load_config
from sitegen.records.result import BuildOptions
from sitegen.site import emit
from sitegen.site.emitter import EmitRun, OneFile
from sitegen.site.outputs import OUTPUTS
from sitegen.site.state import SiteState
from sitegen.site.writer import SiteWriter
from sitegen.state.ownership import OUTPUT_MARKER, files_below
from sitegen.state.remembered import SiteRecord

PROJECT = {
    "sitegen.toml": 'base_url = "https://docs.example.com/"\nsource = ["pkg"]\n',
    "content/index.md": (
        "# Home\n\nSee [the guide](guide/intro.md) and [gone](nowhere.md).\n\n"
        "![logo](img/logo.svg)\n"
    ),
    "content/guide/intro.md": "---\ntags: [setup]\n---\n# Intro\n\nBack [home](../index.md).\n",
    "content/img/logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>\n",
    "pkg/a.py": "import pkg.b\n",
    "pkg/b.py": "import pkg.a\n\n\ndef f() -> int:\n    return 1\n",
}


def _project(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _claims(root: Path) -> dict[str, list[OutPath]]:
    """What each output claims for the project as built now (claiming writes nothing)."""
    result = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    site = emit.site_state(result)
    run = EmitRun(site, SiteWriter(result.config.out_dir), Progress(enabled=False))
    return {e.name: e.claim(run) for e in OUTPUTS}


def test_output_names_are_unique() -> None:
    names = [e.name for e in OUTPUTS]
    assert len(names) == len(set(names))


def test_every_file_of_the_site_belongs_to_exactly_one_output(tmp_path: Path) -> None:
    root = _project(tmp_path, PROJECT)
    claims = _claims(root)
    owned = [out for outs in claims.values() for out in outs]
    assert len(owned) == len(set(owned))  # no file claimed twice
    on_disk = set(files_below(root / "site")) - {OUTPUT_MARKER}
    assert set(owned) == on_disk  # nothing written that no output owns, nothing owned unwritten
    assert SiteRecord.read(root / "site" / OUTPUT_MARKER).files == sorted(on_disk)
    # Each kind of file comes from the output named for it.
    assert claims["pages"] == ["guide/intro.html", "guide/intro.md", "index.html", "index.md"]
    assert claims["assets"] == ["img/logo.svg"]
    assert "code/pkg/a.py.html" in claims["source pages"]
    assert claims["sitemap"] == ["sitemap.xml"]
    assert claims["tag pages"] == ["tags/setup.html", "tags/index.html"]


def test_sitegens_own_files_win_a_clash_with_content(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        {
            "content/index.md": "# Home\n\n[My style](style.css)\n",
            "content/broken-links.md": "# A page of mine\n",
            "content/style.css": "body { color: red }\n",
        },
    )
    result = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    lost = sorted(d.path for d in result.diagnostics if d.code == "duplicate-output")
    assert lost == ["content/broken-links.md", "content/style.css"]
    report = (root / "site/broken-links.html").read_text()
    assert "<h1>Broken links</h1>" in report and 'id="a-page-of-mine"' not in report
    assert "color: red" not in (root / "site/style.css").read_text()


class _Hello(OneFile):
    """A new output, as content/guides/outputs.md shows how to add one."""

    name = "hello"

    def path(self, site: SiteState) -> OutPath:
        return OutPath("hello.txt")

    def render(self, run: EmitRun, out: OutPath) -> str:
        return f"{len(run.site.pages_by_node)} pages\n"


def test_an_output_added_to_the_registry_is_published_and_owned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path, {"content/index.md": "# Home\n", "content/a.md": "# A\n"})
    monkeypatch.setattr(emit, "OUTPUTS", (*OUTPUTS, _Hello()))
    config = load_config(root)
    build(config, BuildOptions(jobs=1, quiet=True))
    assert (root / "site/hello.txt").read_text() == "2 pages\n"
    assert "hello.txt" in SiteRecord.read(root / "site" / OUTPUT_MARKER).files
    (root / "content/b.md").write_text("# B\n")
    build(config, BuildOptions(jobs=1, quiet=True))  # incremental: the old site is reused
    assert (root / "site/hello.txt").read_text() == "3 pages\n"
