"""Which generator the docs were written for (sitegen/generators/: mkdocs.py, vitepress.py),
and the ``slugs`` option: mkdocs.yml's toc slugify read as text, a VitePress configuration
found in or above the content folder, the option winning over both, and a bad value one
sentence (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.base.diagnostics import Diagnostic
from sitegen.config import Config, ConfigError, load_config
from sitegen.generators import SlugStyle, find_generator, mkdocs_generator
from sitegen.layout import layout_diagnostics, layout_line
from sitegen.records.crawl import Crawl
from tests.cli.conftest import sitegen, write


def _mkdocs(toc: str, docs_dir: str = "") -> tuple[SlugStyle, str] | None:
    text = f"site_name: X\n{docs_dir}markdown_extensions:\n  - admonition\n{toc}"
    found = mkdocs_generator(text, "docs")
    return None if found is None else (found.slugs, found.approximated)


@pytest.mark.parametrize(
    ("toc", "style"),
    [
        ("", SlugStyle.MKDOCS),
        ("  - toc:\n      permalink: true\n", SlugStyle.MKDOCS),
        (
            "  - toc:\n      slugify: !!python/name:markdown.extensions.toc.slugify\n",
            SlugStyle.MKDOCS,
        ),
        (
            "  - toc:\n      slugify: !!python/name:markdown.extensions.toc.slugify_unicode\n",
            SlugStyle.MKDOCS_UNICODE,
        ),
        ("  - toc:\n      slugify: !!python/name:pymdownx.slugs.uslugify\n", SlugStyle.PYMDOWNX),
        (
            "  - markdown.extensions.toc:\n"
            "      slugify: !!python/name:pymdownx.slugs.uslugify_cased\n",
            SlugStyle.PYMDOWNX_CASED,
        ),
        (
            "  - toc:\n      slugify: !!python/object/apply:pymdownx.slugs.slugify\n"
            "        kwds:\n          case: lower\n",
            SlugStyle.PYMDOWNX,
        ),
        (
            "  - toc:\n      slugify: !!python/object/apply:pymdownx.slugs.slugify {}\n",
            SlugStyle.PYMDOWNX_CASED,
        ),
    ],
)
def test_the_toc_slugify_of_mkdocs_yml_decides(toc: str, style: SlugStyle) -> None:
    assert _mkdocs(toc) == (style, "")


def test_markdown_extensions_as_one_table() -> None:
    text = "markdown_extensions:\n  toc:\n    slugify: !!python/name:pymdownx.slugs.uslugify\n"
    found = mkdocs_generator(text, "docs")
    assert found is not None and found.slugs == SlugStyle.PYMDOWNX


@pytest.mark.parametrize(
    ("toc", "style", "asked"),
    [
        (
            "  - toc:\n      slugify: !!python/object/apply:pymdownx.slugs.slugify\n"
            "        kwds: {case: fold, percent_encode: true}\n",
            SlugStyle.PYMDOWNX,
            "pymdownx.slugs.slugify(case: fold, percent_encode: True)",
        ),
        (
            "  - toc:\n      slugify: !!python/name:my_project.slugs.custom\n",
            SlugStyle.MKDOCS,
            "the slugify my_project.slugs.custom",
        ),
        ("  - toc:\n      separator: _\n", SlugStyle.MKDOCS, "separator '_'"),
        (
            '  - toc:\n      slugify: !!python/object/apply:os.system ["touch /tmp/x"]\n',
            SlugStyle.MKDOCS,
            "the slugify os.system(...)",
        ),
    ],
)
def test_what_sitegen_cannot_make_is_said(toc: str, style: SlugStyle, asked: str) -> None:
    assert _mkdocs(toc) == (style, asked)


def test_tags_are_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = (
        "markdown_extensions:\n  - toc:\n"
        f'      slugify: !!python/object/apply:os.system ["touch {marker}"]\n'
        "extra: !ENV [HOME, x]\n"
    )
    assert mkdocs_generator(text, "docs") is not None
    assert not marker.exists()


def test_mkdocs_yml_about_another_folder_is_not_the_docs_generator() -> None:
    assert _mkdocs("", "docs_dir: site_src\n") is None
    assert mkdocs_generator("docs_dir: ./docs/\n", "docs/en") is not None
    assert mkdocs_generator(": not yaml: [", "docs") is not None  # MkDocs' defaults


def test_vitepress_is_found_in_or_above_the_content_folder(tmp_path: Path) -> None:
    root = write(tmp_path, {"site/docs/.vitepress/config.mts": "export default {}\n"})
    found = find_generator(root, "site/docs/guide")
    assert found is not None
    assert (found.name, found.config_file, found.slugs, found.public) == (
        "VitePress",
        "site/docs/.vitepress/config.mts",
        SlugStyle.VITEPRESS,
        "",
    )
    write(tmp_path, {"site/docs/guide/public/logo.png": "x"})
    assert find_generator(root, "site/docs/guide").public == "site/docs/guide/public"  # type: ignore[union-attr]
    assert find_generator(root, "elsewhere") is None


def test_a_vitepress_config_folder_counts(tmp_path: Path) -> None:
    root = write(tmp_path, {"docs/.vitepress/config/index.ts": "export default {}\n"})
    found = find_generator(root, "docs")
    assert found is not None and found.config_file == "docs/.vitepress/config/index.ts"
    assert found.approximated == ""


def test_a_vitepress_slugify_of_its_own_is_said(tmp_path: Path) -> None:
    shared = "export const c = { markdown: { anchor: {\n  slugify,\n} } }\n"
    root = write(
        tmp_path,
        {
            "docs/.vitepress/config/index.ts": "import { c } from './shared'\n",
            "docs/.vitepress/config/shared.ts": shared,
            "docs/index.md": "# Home\n",
        },
    )
    config = load_config(root, content=None)
    assert config.slugs == "vitepress"
    (warning,) = [d for d in layout_diagnostics_of(config) if d.code == "slugs"]
    assert "markdown.anchor.slugify in docs/.vitepress/config/shared.ts" in warning.message
    write(root, {"sitegen.toml": 'slugs = "vitepress"\n'})
    assert [d for d in layout_diagnostics_of(load_config(root)) if d.code == "slugs"] == []


def layout_diagnostics_of(config: Config) -> list[Diagnostic]:
    return layout_diagnostics(config, Crawl())


def test_load_config_takes_the_style_of_the_generator_found(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "mkdocs.yml": "markdown_extensions:\n  - toc:\n"
            "      slugify: !!python/name:pymdownx.slugs.uslugify\n",
            "docs/index.md": "# Home\n",
        },
    )
    config = load_config(root)
    assert (config.slugs, config.generator.name) == ("pymdownx", "MkDocs")  # type: ignore[union-attr]
    assert layout_line(config).endswith("; heading ids in the pymdownx style (found mkdocs.yml)")
    write(root, {"sitegen.toml": 'slugs = "github"\n'})
    config = load_config(root)
    assert config.slugs == "github"
    assert layout_line(config).endswith(
        "; heading ids in the github style (slugs set in sitegen.toml)"
    )


def test_without_a_generator_the_ids_are_githubs(tmp_path: Path) -> None:
    root = write(tmp_path, {"docs/index.md": "# Home\n"})
    config = load_config(root)
    assert (config.slugs, config.generator, config.public_rel) == ("github", None, "")
    assert "heading ids" not in layout_line(config)


def test_a_bad_slugs_value_is_one_sentence_and_exit_2(tmp_path: Path) -> None:
    root = write(tmp_path, {"sitegen.toml": 'slugs = "hugo"\n', "docs/index.md": "# D\n"})
    with pytest.raises(ConfigError):
        load_config(root)
    run = sitegen("build", root=root)
    assert run.code == 2
    assert run.err_lines == [
        f"error: {root / 'sitegen.toml'}: option 'slugs' must be one of 'github', "
        "'vitepress', 'mkdocs', 'mkdocs-unicode', 'pymdownx', 'pymdownx-cased', not 'hugo'"
    ]
