"""Docusaurus found beside the content and its configuration read as literals
(sitegen/generators/docusaurus.py), never run."""

from __future__ import annotations

from pathlib import Path

from sitegen.config import load_config
from sitegen.generators import Dialect, find_generator
from sitegen.generators.docusaurus import (
    DEFAULT_EXCLUDE,
    DocusaurusSidebars,
    find_docusaurus,
    read_site,
)

REDUX_LIKE = """import { resolve } from 'path'
const config = {
  title: 'Redux',
  baseUrl: '/redux/',
  i18n: { defaultLocale: 'en', locales: ['en', 'fr'] },
  presets: [
    [
      '@docusaurus/preset-classic',
      {
        docs: {
          path: '../docs',
          routeBasePath: '/',
          sidebarPath: require.resolve('./sidebars.js'),
          include: ['{api,faq}/**/*.{md,mdx}', 'FAQ.md'],
          remarkPlugins: [[linkDocblocks, { tsconfig: resolve(__dirname, './tsconfig.json') }]],
        },
        blog: false,
      } satisfies Options,
    ],
  ],
}
export default config
"""


def _project(tmp_path: Path, config: str, where: str = "website/docusaurus.config.ts") -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "intro.md").write_text("# Intro\n")
    path = tmp_path / where
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(config)
    return tmp_path


def test_a_website_folder_beside_the_docs_is_found(tmp_path: Path) -> None:
    root = _project(tmp_path, REDUX_LIKE)
    (root / "website" / "sidebars.js").write_text("module.exports = { docs: ['intro'] }\n")
    (root / "website" / "static" / "img").mkdir(parents=True)
    found = find_generator(root, "docs")
    assert found is not None and found.config_file == "website/docusaurus.config.ts"
    assert found.docs_dir == "docs" and found.route_base == ""
    assert found.dialect is Dialect.MDX
    assert ".mdx" in found.page_extensions
    assert found.static == ("website/static",)
    assert (
        isinstance(found.nav, DocusaurusSidebars)
        and found.nav.sidebars_file == "website/sidebars.js"
    )
    assert [path for path, _ in found.sources] == [
        "website/docusaurus.config.ts",
        "website/sidebars.js",
    ]
    assert found.page_include == ("{api,faq}/**/*.{md,mdx}", "FAQ.md")
    assert found.page_exclude == DEFAULT_EXCLUDE


def test_a_config_about_another_folder_is_not_the_docs_generator(tmp_path: Path) -> None:
    root = _project(tmp_path, "export default { presets: [['classic', {docs: {path: 'guides'}}]] }")
    assert find_docusaurus(root, "docs") is None


def test_the_defaults_are_docusaurus_own(tmp_path: Path) -> None:
    root = _project(tmp_path, "module.exports = { title: 'Site' }\n", "docusaurus.config.js")
    found = find_generator(root, "docs")
    assert found is not None and found.config_file == "docusaurus.config.js"
    assert (found.docs_dir, found.route_base, found.static) == ("docs", "docs", ())
    assert isinstance(found.nav, DocusaurusSidebars) and found.nav.sidebars_file == ""


def test_the_settings_read() -> None:
    site = read_site("website/docusaurus.config.ts", REDUX_LIKE)
    assert (site.title, site.base_url, site.default_locale, site.locales) == (
        "Redux",
        "/redux/",
        "en",
        ("en", "fr"),
    )
    assert site.blog_dir == ""  # blog: false
    assert site.static == ("website/static",)
    plugin = read_site(
        "docusaurus.config.js",
        "module.exports = { staticDirectories: ['public', 'assets'], plugins: ["
        "['@docusaurus/plugin-content-docs', {path: 'guides', routeBasePath: 'g/'}],"
        "['@docusaurus/plugin-content-docs', {id: 'other', path: 'x'}]] }",
    )
    assert (plugin.docs_dir, plugin.route_base, plugin.static) == (
        "guides",
        "g",
        ("public", "assets"),
    )
    assert plugin.blog_dir == "blog"


def test_a_docs_path_above_the_root_is_never_read(tmp_path: Path) -> None:
    root = _project(tmp_path, "export default {presets: [['classic', {docs: {path: '../../x'}}]]}")
    assert find_docusaurus(root, "docs") is None


def test_category_files_are_read_with_the_config(tmp_path: Path) -> None:
    root = _project(tmp_path, "module.exports = {}\n", "docusaurus.config.js")
    (root / "docs" / "01-guide").mkdir()
    (root / "docs" / "01-guide" / "_category_.json").write_text('{"label": "Guide"}')
    found = find_docusaurus(root, "docs")
    assert found is not None
    assert found.source("docs/01-guide/_category_.json") == '{"label": "Guide"}'


def test_a_config_that_cannot_be_read_is_one_warning(tmp_path: Path) -> None:
    root = _project(tmp_path, "module.exports = { title: 'a' \n", "docusaurus.config.js")
    found = find_docusaurus(root, "docs")
    assert found is not None and found.docs_dir == "docs"
    [said] = found.diagnostics
    assert said.path == "docusaurus.config.js" and "syntax error" in said.message


def test_the_title_and_the_address_are_the_sites(tmp_path: Path) -> None:
    config = "export default { title: 'Redux', url: 'https://redux.js.org', baseUrl: '/r/' }"
    found = find_docusaurus(_project(tmp_path, config, "docusaurus.config.ts"), "docs")
    assert found is not None and (found.title, found.base_url) == (
        "Redux",
        "https://redux.js.org/r/",
    )
    other = "export default { url: packageJson.homepage, baseUrl: '/' }"
    (tmp_path / "docusaurus.config.ts").write_text(other)
    found = find_docusaurus(tmp_path, "docs")
    assert found is not None and found.base_url == ""  # not a literal: the option's default


def test_the_blog_and_its_options_are_read(tmp_path: Path) -> None:
    root = _project(tmp_path, "module.exports = {}\n", "website/docusaurus.config.js")
    (root / "website/docusaurus.config.js").write_text(
        "module.exports = { presets: [['classic', { docs: { path: '../docs' }, blog: {"
        " routeBasePath: '/news/', blogTitle: 'News', postsPerPage: 'ALL',"
        " authorsMapPath: 'people.yml' } }]] }\n"
    )
    (root / "website/blog/2021-05-01-hello").mkdir(parents=True)
    (root / "website/blog/2021-05-01-hello/index.md").write_text("# Hello\n")
    (root / "website/blog/people.yml").write_text("a:\n  name: A\n")
    found = find_docusaurus(root, "docs")
    assert found is not None and found.blog is not None
    blog = found.blog
    assert (blog.folder, blog.route_base, blog.title, blog.posts_per_page) == (
        "website/blog",
        "news",
        "News",
        0,
    )
    assert (
        blog.authors_file == "website/blog/people.yml" and blog.tags_file == "website/blog/tags.yml"
    )
    assert found.source("website/blog/people.yml") == "a:\n  name: A\n"
    assert blog.post_path("website/blog/2021-05-01-hello/index.md") == "2021-05-01-hello/index.md"
    assert blog.post_path("website/blog/_draft.md") is None  # a partial, as for docs
    assert not [d for d in found.diagnostics if d.code == "docusaurus-blog"]


def test_no_blog_without_its_folder_or_with_blog_false(tmp_path: Path) -> None:
    found = find_docusaurus(
        _project(tmp_path, "module.exports = {}", "docusaurus.config.js"), "docs"
    )
    assert found is not None and found.blog is None  # no blog/ folder
    (tmp_path / "blog").mkdir()
    found = find_docusaurus(tmp_path, "docs")
    assert found is not None and found.blog is not None and found.blog.folder == "blog"
    (tmp_path / "docusaurus.config.js").write_text(
        "module.exports = { presets: [['classic', { blog: false }]] }"
    )
    found = find_docusaurus(tmp_path, "docs")
    assert found is not None and found.blog is None


def test_static_folders_outside_the_root_are_never_read(tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    root = tmp_path / "project"
    root.mkdir()
    (root / "linked").symlink_to(tmp_path / "outside")
    (root / "static").mkdir()
    config = "module.exports = { staticDirectories: ['../outside', 'linked', 'static', 'none'] }"
    found = find_docusaurus(_project(root, config, "docusaurus.config.js"), "docs")
    assert found is not None and found.static == ("static",)


def test_big_category_files_are_not_read(tmp_path: Path) -> None:
    root = _project(tmp_path, "module.exports = {}\n", "docusaurus.config.js")
    (root / "docs" / "big").mkdir()
    (root / "docs" / "big" / "_category_.json").write_text('{"label": "' + "x" * 70_000 + '"}')
    found = find_docusaurus(root, "docs")
    assert found is not None and found.source("docs/big/_category_.json") is None


def test_the_default_locale_is_the_pages_language(tmp_path: Path) -> None:
    config = "export default { i18n: { defaultLocale: 'pt-BR', locales: ['pt-BR', 'en'] } }"
    root = _project(tmp_path, config, "docusaurus.config.ts")
    assert load_config(root).lang == "pt-BR"
    assert load_config(root, lang="fr").lang == "fr"  # the option wins
    (root / "docusaurus.config.ts").write_text("export default { i18n: { defaultLocale: '<x>' } }")
    assert load_config(root).lang == "en"  # not a language tag: the default
