"""The fixture package of tests/api/fixtures (``gizmo``) read by the real loader, ``load_api``,
from a crawl of this repository restricted to the fixture, as a build reads it.

Nothing is imported or run: griffe reads the crawl's bytes statically; no cache is written.
"""

from __future__ import annotations

from pathlib import Path

from sitegen.api.load import load_api
from sitegen.config import Config
from sitegen.crawl import crawl
from sitegen.records.api import ApiModel

FIXTURES = Path(__file__).parent / "fixtures"
REPOSITORY = FIXTURES.parents[2]
#: The fixture's sources as a repository path (what a "Source" link names).
SOURCE_ROOT = "tests/api/fixtures/src"


def fixture_model(package: str = "gizmo") -> ApiModel:
    """The package as a build loads it; any diagnostic of the loader fails the test."""
    config = Config(root=REPOSITORY, source=(SOURCE_ROOT,), content="tests/api/fixtures/docs")
    model, problems = load_api(config, crawl(config), [package], None, dependency_paths=[])
    assert problems == [], problems
    return model
