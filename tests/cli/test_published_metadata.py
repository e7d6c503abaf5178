"""Point 4 of issue 14: base_url is an absolute http(s) URL or a configuration error (exit 2);
without it no sitemap.xml is written (the protocol forbids relative <loc>s), and a line says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import sitegen, write

NO_SITEMAP = (
    "sitegen.toml:1:1: info: sitemap.xml not written: a sitemap holds absolute URLs, "
    'and base_url is not set (base_url = "https://docs.example.com/" publishes one)'
)


@pytest.mark.parametrize("url", ["example.com/docs", "/docs", "ftp://example.com/", "https://"])
def test_a_base_url_that_is_not_absolute_http_is_exit_2(tmp_path: Path, url: str) -> None:
    root = write(
        tmp_path / "p", {"content/index.md": "# Home\n", "sitegen.toml": f'base_url = "{url}"\n'}
    )
    run = sitegen("build", root=root)
    assert run.code == 2
    assert run.err_lines == [
        (
            f"error: {root / 'sitegen.toml'}: option 'base_url' must be an "
            f"absolute http(s) URL such as 'https://docs.example.com/', not '{url}'"
        )
    ]
    assert not (root / "site").exists()


def test_with_base_url_the_sitemap_holds_absolute_urls(tmp_path: Path) -> None:
    root = write(
        tmp_path / "p",
        {
            "content/index.md": "# Home\n\n[g](guide.md)\n",
            "content/guide.md": "# Guide\n",
            "sitegen.toml": 'base_url = "https://docs.example.com/x"\n',
        },
    )
    run = sitegen("build", root=root)
    assert run.code == 0, run.err
    sitemap = (root / "site/sitemap.xml").read_text()
    assert "<loc>https://docs.example.com/x/guide.html</loc>" in sitemap
    assert "<loc>https://docs.example.com/x/index.html</loc>" in sitemap
    assert all(
        line.strip().startswith("<url><loc>https://docs.example.com/x/")
        for line in sitemap.splitlines()
        if "<loc>" in line
    )
    assert NO_SITEMAP not in run.err_lines


def test_without_base_url_no_sitemap_and_an_info_line(tmp_path: Path) -> None:
    root = write(tmp_path / "p", {"content/index.md": "# Home\n"})
    run = sitegen("build", root=root)
    assert run.code == 0
    assert NO_SITEMAP in run.err_lines
    assert not (root / "site/sitemap.xml").exists()
    # the line is an info, not a warning: --strict still passes
    assert sitegen("build", "--strict", root=root).code == 0


def test_removing_base_url_removes_the_sitemap(tmp_path: Path) -> None:
    root = write(
        tmp_path / "p",
        {"content/index.md": "# Home\n", "sitegen.toml": 'base_url = "https://x.org/"\n'},
    )
    assert sitegen("build", root=root).code == 0
    assert (root / "site/sitemap.xml").is_file()
    (root / "sitegen.toml").write_text("")
    run = sitegen("build", root=root)
    assert NO_SITEMAP in run.err_lines
    assert not (root / "site/sitemap.xml").exists()
