"""The store conformance suite (content/reference/store.md): every test runs on every backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.graph.store import open_store
from sitegen.graph.store.base import GraphStore

BACKENDS = ("json", "sqlite")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    """The project's ``.sitegen/`` folder, not created yet (a store must create it)."""
    return tmp_path / ".sitegen"


@pytest.fixture
def store(backend: str, cache_dir: Path) -> GraphStore:
    return open_store(backend, cache_dir)


@pytest.fixture
def reopen(backend: str, cache_dir: Path):
    """A fresh store object on the same folder, as the next build would open it."""
    return lambda: open_store(backend, cache_dir)
