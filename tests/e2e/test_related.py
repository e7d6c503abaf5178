"""Related pages, missing links and ``sitegen explore`` on two topical clusters with a planted
pair: two pages that share neighbours and words but do not link each other."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.e2e.conftest import run_cli, write_project

_KAFKA = ["brokers", "partitions", "replication", "retention", "producers"]
_GARDEN = ["tomatoes", "compost", "seedlings", "pruning", "watering"]


def _cluster(folder: str, words: list[str], hub: str) -> dict[str, str]:
    pages = {
        f"content/{folder}/index.md": f"# {hub}\n\n"
        + "\n".join(f"- [{w}]({w}.md)" for w in words)
        + "\n"
    }
    for i, w in enumerate(words):
        nxt = words[(i + 1) % len(words)]
        pages[f"content/{folder}/{w}.md"] = (
            f"# {w.title()}\n\nAbout {w} and {' and '.join(words[:3])}. "
            f"See [{nxt}]({nxt}.md) and the [overview](index.md).\n"
        )
    return pages


def related_project(root: Path) -> Path:
    pages = {**_cluster("kafka", _KAFKA, "Kafka"), **_cluster("garden", _GARDEN, "Garden")}
    # The planted pair: the same neighbours (partitions, retention, replication) and the same
    # rare words, and no link between them.
    shared = (
        "consumer offsets are committed per group; a consumer offsets reset rewinds the "
        "group. Offsets lag measures how far consumer offsets trail."
    )
    pages["content/kafka/offsets.md"] = (
        "# Consumer offsets\n\n" + shared + "\n\nSee [partitions](partitions.md), "
        "[retention](retention.md) and [replication](replication.md).\n"
    )
    pages["content/kafka/lag.md"] = (
        "# Consumer lag\n\n" + shared + "\n\nRead [partitions](partitions.md), "
        "[retention](retention.md) and [replication](replication.md).\n"
    )
    pages["content/index.md"] = "# Home\n\n[Kafka](kafka/index.md) and [Garden](garden/index.md).\n"
    pages["sitegen.toml"] = 'title = "Clusters"\nsource = ["lib"]\n'
    pages["lib/lexer.py"] = (
        '"""Lexer: grammar tokens for the parser."""\n\n\ndef tokens():\n    return []\n'
    )
    pages["lib/parser.py"] = (
        '"""Parser: grammar tokens from the lexer."""\n\nfrom lib.lexer import tokens\n'
        "\n\ndef parse():\n    return tokens()\n"
    )
    return write_project(root, pages)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = related_project(tmp_path_factory.mktemp("related"))
    proc = run_cli("build", "--root", str(root), "--quiet", "--jobs", "1", "--strict")
    assert proc.returncode == 0, proc.stderr
    return root


def _related_titles(html: str) -> list[str]:
    section = re.search(r'<section id="related".*?</section>', html, re.DOTALL)
    assert section, "no related-pages section"
    return re.findall(r'<li><a href="[^"]*">([^<]*)</a>', section.group(0))


def test_the_planted_pair_is_each_others_first_related_page(built: Path) -> None:
    offsets = (built / "site/kafka/offsets.html").read_text(encoding="utf-8")
    lag = (built / "site/kafka/lag.html").read_text(encoding="utf-8")
    assert _related_titles(offsets)[0] == "Consumer lag"
    assert _related_titles(lag)[0] == "Consumer offsets"
    assert "shares 3 links and the words" in offsets and "consumer offsets" in offsets


def test_related_pages_stay_in_their_cluster_and_leave_out_pages_linked_both_ways(
    built: Path,
) -> None:
    compost = (built / "site/garden/compost.html").read_text(encoding="utf-8")
    titles = _related_titles(compost)
    assert 0 < len(titles) <= 5
    assert not {"Consumer lag", "Consumer offsets", "Brokers"} & set(titles)
    # compost and its cluster's index link each other: never listed as related
    assert "Garden" not in titles


def test_the_planted_pair_is_a_missing_link(built: Path) -> None:
    report = (built / "site/missing-links.html").read_text(encoding="utf-8")
    assert "Consumer lag" in report and "Consumer offsets" in report
    rows = re.findall(r"<tr>(.*?)</tr>", report, re.DOTALL)
    assert any("Consumer lag" in r and "Consumer offsets" in r for r in rows)


def test_check_reports_missing_links_only_when_asked(built: Path) -> None:
    quiet = run_cli("check", "--root", str(built), "--format", "json")
    assert "missing-links" not in {f["check"] for f in json.loads(quiet.stdout)["findings"]}
    config = built / "checks.toml"
    config.write_text(
        'title = "Clusters"\nsource = ["lib"]\n[checks]\nmissing-links = "warn"\n', encoding="utf-8"
    )
    loud = run_cli("check", "--root", str(built), "--config", str(config), "--format", "json")
    found = [f for f in json.loads(loud.stdout)["findings"] if f["check"] == "missing-links"]
    assert any(
        "/kafka/lag.md" in f["message"] and "/kafka/offsets.md" in f["message"] for f in found
    ), loud.stdout
    assert loud.returncode == 0


def test_explore_ranks_the_pair_first_for_its_words(built: Path) -> None:
    proc = run_cli("explore", "--root", str(built), "consumer offsets", "--json", "--limit", "3")
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)["results"]
    assert {r["node"] for r in results[:2]} == {"/kafka/offsets.md", "/kafka/lag.md"}
    assert len(results) <= 3 and all(r["reason"] for r in results)
    assert "snapshot" not in proc.stderr  # answered from the last build's snapshot


def test_explore_rebuilds_in_memory_when_the_snapshot_is_refused(
    built: Path, tmp_path: Path
) -> None:
    snapshot = built / ".sitegen/core.npz"
    saved = snapshot.read_bytes()
    try:
        snapshot.write_bytes(b"not a snapshot")
        proc = run_cli("explore", "--root", str(built), "compost tomatoes")
        assert proc.returncode == 0
        assert "snapshot .sitegen/core.npz is unreadable" in proc.stderr
        assert proc.stdout.splitlines()[0].split()[-1].startswith("/garden/")
    finally:
        snapshot.write_bytes(saved)


def test_explore_from_a_page_id_starts_at_that_page(built: Path) -> None:
    proc = run_cli("explore", "--root", str(built), "/garden/compost.md", "--limit", "3")
    lines = proc.stdout.splitlines()
    assert lines[0].endswith("/garden/compost.md"), proc.stdout
    assert all("/garden/" in line for line in lines[::2]), proc.stdout


def test_source_pages_have_related_pages_too(built: Path) -> None:
    lexer = (built / "site/code/lib/lexer.py.html").read_text(encoding="utf-8")
    titles = _related_titles(lexer)
    assert titles and titles[0] == "lib/parser.py"
    assert "imported by" in lexer
