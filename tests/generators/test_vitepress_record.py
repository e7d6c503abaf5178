"""What sitegen/generators/vitepress.py reads of a VitePress project, once, as literals, into
the record the rest of the build asks (issue 29, point 1): every configuration file for the
page tree, the locales (a root moved into its folder by a rewrite), ``srcDir`` and
``rewrites`` for the routes, the folder VitePress runs from, and its output folders."""

from __future__ import annotations

from pathlib import Path

from sitegen.generators import OutputFolder, VitePressNavSpec, find_generator
from sitegen.generators.vitepress import vitepress_generator, vitepress_outputs

CONFIG = "docs/.vitepress/config.ts"
TEXT = """\
export default {
  srcDir: 'src',
  rewrites: { 'en/:rest*': ':rest*', 'x': 1 },
  locales: {
    root: { label: 'English', lang: 'en-US' },
    fr: { lang: 'fr' },
  },
  themeConfig: { sidebar: [{ text: 'A', link: '/a' }] },
}
"""


def test_the_record_holds_what_the_configuration_says() -> None:
    found = vitepress_generator(CONFIG, "docs", "docs", ((CONFIG, TEXT),))
    assert (found.docs_dir, found.project_folder, found.slugs) == ("docs", "docs", "vitepress")
    assert found.route_root == "docs/src"
    assert found.rewrites == (("en/:rest*", ":rest*"),)  # string values only
    # folders relative to the content folder; a label not given is None (the switcher names it)
    assert found.locales == (("en", "en-US", "English"), ("fr", "fr", None))
    spec = found.nav
    assert isinstance(spec, VitePressNavSpec) and len(spec.configs) == 1
    assert spec.configs[0].path == CONFIG
    assert spec.configs[0].data["themeConfig"]["sidebar"] == [{"text": "A", "link": "/a"}]
    assert found.directory_urls is None and found.include_base == ""


def test_no_srcdir_routes_from_the_project_root() -> None:
    found = vitepress_generator(CONFIG, "docs", "docs", ((CONFIG, "export default {}\n"),))
    assert (found.route_root, found.rewrites, found.locales) == ("docs", (), ())


def test_found_in_the_tree_with_each_config_read(tmp_path: Path) -> None:
    (tmp_path / "docs/.vitepress").mkdir(parents=True)
    (tmp_path / CONFIG).write_text(TEXT)
    (tmp_path / "docs/fr").mkdir()
    (tmp_path / "docs/fr/config.ts").write_text("export default { themeConfig: {} }\n")
    found = find_generator(tmp_path, "docs")
    assert found is not None and isinstance(found.nav, VitePressNavSpec)
    assert [c.path for c in found.nav.configs] == [CONFIG, "docs/fr/config.ts"]
    assert found.locales[1] == ("fr", "fr", None)


def test_the_output_folders_it_names() -> None:
    files = {".vitepress": "", ".vitepress/config.mts": "export default { outDir: '../dist' }"}
    assert vitepress_outputs("docs", files.__contains__, files.get) == [
        OutputFolder("../dist", "VitePress", "output", "outDir"),
        OutputFolder(".vitepress/cache", "VitePress", "cache", "cacheDir"),
    ]
    assert vitepress_outputs("", {}.__contains__, {}.get) == []
