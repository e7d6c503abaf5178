"""Issue 8, point 4: nothing outside the project root is published. Templates, theme files
and assets go through the crawl's root and symlink guard; a theme is only the configured
``theme_dir`` (a Flask project's own templates/ is left alone); a template error is one line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import run_cli

SECRET = "root:x:0:0:SECRET-OUTSIDE-THE-ROOT"


def _project(tmp_path: Path, toml: str = "") -> tuple[Path, Path]:
    root = tmp_path / "proj"
    (root / "content").mkdir(parents=True)
    (root / "content" / "index.md").write_text("# Home\n\nHello.\n")
    (root / "sitegen.toml").write_text(toml)
    secret = tmp_path / "passwd"
    secret.write_text(SECRET + "\n")
    return root, secret


def _published(site: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in sorted(site.rglob("*")) if p.is_file())


@pytest.mark.parametrize("folder", ["templates", "theme"])
def test_a_symlinked_stylesheet_outside_the_root_is_not_published(
    tmp_path: Path, folder: str
) -> None:
    root, secret = _project(tmp_path, 'theme_dir = "theme"\n')
    (root / "theme").mkdir()
    (root / folder).mkdir(exist_ok=True)
    (root / folder / "style.css").symlink_to(secret)
    (root / folder / "extra.css").symlink_to(secret)
    proc = run_cli("build", "--root", str(root), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert SECRET not in _published(root / "site")
    assert not (root / "site" / "extra.css").exists()
    assert "body" in (root / "site" / "style.css").read_text()  # the shipped stylesheet
    assert (
        f"{folder}/style.css:1:1: warning: symbolic link points outside the project root"
        in proc.stderr
    )


def test_a_symlinked_template_outside_the_root_is_not_used(tmp_path: Path) -> None:
    root, _ = _project(tmp_path, 'theme_dir = "theme"\n')
    (root / "theme").mkdir()
    outside = tmp_path / "evil.html"
    outside.write_text('{% extends "base.html" %}{% block content %}EVIL-TEMPLATE{% endblock %}')
    (root / "theme" / "page.html").symlink_to(outside)
    proc = run_cli("build", "--root", str(root), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "EVIL-TEMPLATE" not in _published(root / "site")
    assert "Hello." in (root / "site" / "index.html").read_text()


def test_a_theme_dir_that_is_a_symlink_out_of_the_root_is_refused(tmp_path: Path) -> None:
    root, _ = _project(tmp_path, 'theme_dir = "theme"\n')
    (tmp_path / "elsewhere").mkdir()
    (root / "theme").symlink_to(tmp_path / "elsewhere")
    proc = run_cli("build", "--root", str(root), "--jobs", "1")
    assert proc.returncode == 2
    assert "theme_dir 'theme' lies outside the project root" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (root / "site").exists()


def test_a_symlinked_asset_outside_the_root_is_not_published(tmp_path: Path) -> None:
    root, secret = _project(tmp_path)
    (root / "content" / "passwd.css").symlink_to(secret)
    proc = run_cli("build", "--root", str(root), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert not (root / "site" / "passwd.css").exists()
    assert SECRET not in _published(root / "site")


def test_a_flask_projects_templates_folder_is_not_a_theme(tmp_path: Path) -> None:
    root, _ = _project(tmp_path)
    (root / "templates").mkdir()
    (root / "templates" / "page.html").write_text(
        "{% extends 'layout.html' %}{% block body %}{{ url_for('index') }}{% endblock %}"
    )
    (root / "templates" / "base.html").write_text("{% if user %}<p>{{ user.name }</p>{% endif %}")
    proc = run_cli("build", "--root", str(root), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    html = (root / "site" / "index.html").read_text()
    assert "Hello." in html and 'class="site-header"' in html


def test_a_configured_theme_overrides_templates_and_publishes_its_files(tmp_path: Path) -> None:
    root, _ = _project(tmp_path, 'theme_dir = "theme"\n')
    (root / "theme" / "img").mkdir(parents=True)
    (root / "theme" / "page.html").write_text(
        '{% extends "base.html" %}{% block content %}<p id="own">{{ page.title }}</p>{% endblock %}'
    )
    (root / "theme" / "img" / "logo.svg").write_text("<svg/>")
    proc = run_cli("build", "--root", str(root), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert '<p id="own">Home</p>' in (root / "site" / "index.html").read_text()
    assert (root / "site" / "img" / "logo.svg").read_text() == "<svg/>"


@pytest.mark.parametrize(
    ("template", "line", "message"),
    [
        (
            '{% extends "base.html" %}\n{% block content %}\n{{ page.title }\n{% endblock %}',
            3,
            "unexpected '}'",
        ),
        (
            '{% extends "base.html" %}\n{% block content %}\n\n{{ page.nope.deeper }}{% endblock %}',
            4,
            "has no attribute 'nope'",
        ),
        # Issue 27, defect 16: runtime errors and the sandbox's bounds, not internal errors.
        (
            '{% extends "base.html" %}\n{% block content %}\n\n{% for i in range(10**8) %}'
            "{% endfor %}{% endblock %}",
            4,
            "range() of 100,000,000 numbers",
        ),
        (
            '{% extends "base.html" %}\n{% block content %}\n'
            "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}{% endblock %}",
            3,
            "calls nested more than 50 deep",
        ),
        (
            '{% extends "base.html" %}\n{% block content %}\n{{ "a" * 10000000000 }}{% endblock %}',
            3,
            "the operator * would make a value of about 10,000,000,000 characters",
        ),
    ],
)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_template_error_is_one_line_with_path_and_line(
    tmp_path: Path, template: str, line: int, message: str, jobs: str
) -> None:
    root, _ = _project(tmp_path, 'theme_dir = "theme"\n')
    (root / "theme").mkdir()
    (root / "theme" / "page.html").write_text(template)
    proc = run_cli("build", "--root", str(root), "--jobs", jobs)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"error: theme/page.html:{line}: ") and message in lines[0]


def test_a_theme_dir_that_does_not_exist_is_a_configuration_error(tmp_path: Path) -> None:
    root, _ = _project(tmp_path, 'theme_dir = "overrides"\n')
    proc = run_cli("build", "--root", str(root))
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: theme_dir 'overrides' is not a folder"


@pytest.mark.parametrize("theme_dir", [".", "site", "./"])
def test_a_theme_dir_that_would_publish_the_project_or_the_site_is_refused(
    tmp_path: Path, theme_dir: str
) -> None:
    root, _ = _project(tmp_path, f'theme_dir = "{theme_dir}"\n')
    (root / "site").mkdir()
    proc = run_cli("build", "--root", str(root))
    assert proc.returncode == 2
    assert (
        "must be a folder of its own" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    )


def test_a_theme_that_reaches_for_python_is_one_error_and_runs_nothing(tmp_path: Path) -> None:
    """Issue 18, row 7: theme templates render in Jinja's immutable sandbox."""
    root, _ = _project(tmp_path, 'theme_dir = "theme"\n')
    (root / "theme").mkdir()
    (root / "theme" / "page.html").write_text(
        '{% extends "base.html" %}\n{% block content %}\n'
        '{{ cycler.__init__.__globals__.os.popen("touch PWNED").read() }}\n{% endblock %}\n'
    )
    for jobs in ("1", "2"):  # rendered here, and in forked workers
        proc = run_cli("build", "--root", str(root), "--jobs", jobs)
        assert proc.returncode == 2, proc.stderr
        assert "Traceback" not in proc.stderr
        assert proc.stderr.strip().splitlines() == [
            "error: theme/page.html:3: access to attribute '__init__' of 'type' object is unsafe."
        ]
        assert not (root / "PWNED").exists() and not (tmp_path / "PWNED").exists()
