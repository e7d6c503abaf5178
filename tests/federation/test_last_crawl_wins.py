"""Last crawl wins per peer (issue 22, point 3), with local peers: a peer read replaces its
stored edges, an unreadable one keeps its last good copy with a warning saying how old it
is, a removed one is emptied, --offline reads none, and an unchanged one is not read again."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sitegen.base.diagnostics import Level
from sitegen.config import Config, load_config
from sitegen.federation.step import read_peers
from sitegen.federation.store import PEERS_FOLDER
from sitegen.records.federation import PeerState
from sitegen.state.folder import prepare_cache
from tests.federation.helpers import PEER_A, build_site, peer_backlinks, wide_graph, write_site

PEERS = '[{ path = "../a/graph.md", url = "https://docs.a.example/" }]'


def _setup(tmp_path: Path, graph: str = PEER_A) -> tuple[Path, Path]:
    peer = tmp_path / "a" / "graph.md"
    peer.parent.mkdir(parents=True)
    peer.write_text(graph, encoding="utf-8")
    return write_site(tmp_path / "b", PEERS), peer


def _config(root: Path) -> Config:
    """The site's configuration, its cache folder made as a build makes it."""
    config = load_config(root)
    prepare_cache(config.cache_dir)
    return config


def _warnings(result: object) -> list[str]:
    return [d.message for d in result.diagnostics if d.level is Level.WARNING]  # type: ignore[attr-defined]


def test_a_local_peer_gives_backlinks_from_nodes_of_kind_peer(tmp_path: Path) -> None:
    root, _ = _setup(tmp_path)
    result = build_site(root)
    assert peer_backlinks(result) == [
        ("https://docs.a.example/index.md", "", "the intro", "home", "2", "Docs A"),
        ("https://docs.a.example/old.md", "supersedes", "", "", "1", "Docs A"),
    ]
    kinds = {n.kind for n in result.federation.graph.nodes.values()}
    assert kinds == {"peer"}
    assert result.federation.graph.title_of("https://docs.a.example/old.md") == "Old <notes> & co"  # type: ignore[arg-type]
    # the peer's edges never enter this site's own graph (nor graph.md, graph.json)
    assert not any(n.startswith("https://docs.a.example/") for n in result.graph.nodes)
    assert "2 backlinks from 1 peer (2 loopback or private targets dropped)" in result.summary()


def test_a_peer_read_again_replaces_its_stored_edges(tmp_path: Path) -> None:
    root, peer = _setup(tmp_path)
    assert len(peer_backlinks(build_site(root))) == 2
    only_one = wide_graph(
        "Docs A", [("/new.md", "https://docs.b.example/guides/intro/", "", "", "", "1")], []
    )
    peer.write_text(only_one, encoding="utf-8")
    os.utime(peer, ns=(1, 1))  # a different modification time, whatever the clock's grain
    assert peer_backlinks(build_site(root)) == [
        ("https://docs.a.example/new.md", "", "", "", "1", "Docs A")
    ]


def test_an_unreadable_peer_keeps_its_last_good_copy_with_its_age(tmp_path: Path) -> None:
    root, peer = _setup(tmp_path)
    first = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    config = _config(root)
    read_peers(config, now=lambda: first)
    peer.unlink()
    reading = read_peers(config, now=lambda: first + timedelta(days=2, hours=3))
    [(_, copy, state)] = reading.peers
    assert state is PeerState.STALE
    assert copy is not None and len(copy.edges) == 2
    [warning] = [d for d in reading.diagnostics if d.level is Level.WARNING]
    assert "could not be read" in warning.message
    assert "read 2026-03-01T12:00:00Z (2 days old)" in warning.message
    # and the build still shows its backlinks
    result = build_site(root)
    assert len(peer_backlinks(result)) == 2
    assert any("its last good copy" in w for w in _warnings(result))


def test_a_removed_peer_is_emptied(tmp_path: Path) -> None:
    root, _ = _setup(tmp_path)
    assert len(peer_backlinks(build_site(root))) == 2
    assert len(list((root / ".sitegen" / PEERS_FOLDER).glob("*.json"))) == 1
    write_site(root, "[]")
    result = build_site(root)
    assert peer_backlinks(result) == []
    assert list((root / ".sitegen" / PEERS_FOLDER).glob("*.json")) == []
    assert any("no longer configured" in d.message for d in result.diagnostics)
    # configured again but unreadable: nothing of the old copy comes back
    write_site(root, '["../nowhere/graph.md"]')
    assert peer_backlinks(build_site(root)) == []


def test_offline_uses_the_stored_copies_only(tmp_path: Path) -> None:
    root, peer = _setup(tmp_path)
    assert len(peer_backlinks(build_site(root))) == 2
    peer.write_text(wide_graph("Docs A", [], []), encoding="utf-8")
    os.utime(peer, ns=(1, 1))
    offline = build_site(root, offline=True)
    assert len(peer_backlinks(offline)) == 2  # the file's new content was not read
    assert [p.state for p in offline.federation.peers] == [PeerState.OFFLINE]
    assert peer_backlinks(build_site(root)) == []  # online, it is


def test_offline_without_a_stored_copy_warns_and_gives_nothing(tmp_path: Path) -> None:
    root, _ = _setup(tmp_path)
    result = build_site(root, offline=True)
    assert peer_backlinks(result) == []
    assert any("no stored copy" in w for w in _warnings(result))


def test_an_unchanged_local_peer_is_not_read_again(tmp_path: Path) -> None:
    root, _ = _setup(tmp_path)
    config = _config(root)
    [(_, _, first)] = read_peers(config).peers
    [(_, copy, second)] = read_peers(config).peers
    assert (first, second) == (PeerState.READ, PeerState.UNCHANGED)
    assert copy is not None and len(copy.edges) == 2


def test_a_copy_chosen_for_another_base_url_is_not_used(tmp_path: Path) -> None:
    root, peer = _setup(tmp_path)
    assert len(peer_backlinks(build_site(root))) == 2
    text = (root / "sitegen.toml").read_text().replace("docs.b.example", "docs.c.example")
    (root / "sitegen.toml").write_text(text)
    peer.unlink()
    assert peer_backlinks(build_site(root)) == []


def test_the_read_date_is_the_stored_one_while_the_content_is_the_same(tmp_path: Path) -> None:
    root, peer = _setup(tmp_path)
    config = _config(root)
    first = datetime(2026, 3, 1, tzinfo=UTC)
    read_peers(config, now=lambda: first)
    os.utime(peer, ns=(5, 5))  # touched, not changed: read again, same bytes
    [(_, copy, _)] = read_peers(config, now=lambda: first + timedelta(days=9)).peers
    assert copy is not None and copy.read_at == "2026-03-01T00:00:00Z"


def test_a_corrupt_stored_copy_is_ignored_never_evaluated(tmp_path: Path) -> None:
    root, peer = _setup(tmp_path)
    build_site(root)
    [stored] = (root / ".sitegen" / PEERS_FOLDER).glob("*.json")
    stored.write_text('{"version": 1, "key": "../a/graph.md", "edges": "__import__(\'os\')"}')
    peer.unlink()
    result = build_site(root)
    assert peer_backlinks(result) == []
    assert any("gives no backlinks" in w for w in _warnings(result))
