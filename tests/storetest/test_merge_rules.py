"""The store merge (content/reference/store.md#the-merge-rule): each rule, against every backend."""

from __future__ import annotations

import pytest

from sitegen.graph.model import Node, NodeKind
from sitegen.graph.store import open_store
from sitegen.graph.store.base import GraphUpdate

from .factories import DELETED, ERROR, EXTERNAL, READ, crawl, edge, fields, page, view

FIRST = crawl(
    {
        "/a.md": (
            READ,
            [
                edge("/a.md", "/b.md", "", "Bee", "intro", 2, at=(10, 50)),
                edge("/a.md", "/c.md", "supersedes"),
            ],
        ),
        "/x.md": (READ, [edge("/x.md", "/y.md", "", "Why", "", 1, at=(7,))]),
    },
    [
        page("/a.md", "A"),
        page("/b.md", "B"),
        page("/c.md", "C"),
        page("/x.md", "X"),
        page("/y.md", "Y"),
    ],
)


def test_an_empty_store_loads_an_empty_graph(store):
    assert view(store.load()) == ({}, [])


def test_merge_persists_what_it_returns(store, reopen):
    merged = store.merge(FIRST)
    assert view(reopen().load()) == view(merged)
    assert [fields(e) for e in merged.edges()] == [
        ("/a.md", "/b.md", "", "Bee", "intro", 2, tuple(edge("", "", at=(10, 50)).occurrences)),
        ("/a.md", "/c.md", "supersedes", "", "", 1, ()),
        ("/x.md", "/y.md", "", "Why", "", 1, tuple(edge("", "", at=(7,)).occurrences)),
    ]


def test_a_read_source_has_its_edges_replaced(store, reopen):
    store.merge(FIRST)
    store.merge(
        crawl(
            {
                "/a.md": (
                    READ,
                    [edge("/a.md", "/c.md", "supersedes", "New", "s"), edge("/a.md", "/d.md")],
                )
            }
        )
    )
    from_a = [fields(e) for e in reopen().load().edges_from("/a.md")]
    assert from_a == [
        ("/a.md", "/c.md", "supersedes", "New", "s", 1, ()),
        ("/a.md", "/d.md", "", "", "", 1, ()),
    ]


def test_a_source_the_crawl_did_not_read_keeps_its_edges(store, reopen):
    store.merge(FIRST)
    store.merge(crawl({"/a.md": (READ, [])}))
    after = reopen().load()
    assert [fields(e) for e in after.edges_from("/x.md")] == [fields(FIRST.sources["/x.md"][1][0])]
    assert after.edges_from("/a.md") == []


def test_a_deleted_source_is_emptied_even_if_edges_come_with_it(store, reopen):
    store.merge(FIRST)
    store.merge(crawl({"/a.md": (DELETED, [edge("/a.md", "/z.md")])}))
    after = reopen().load()
    assert after.edges_from("/a.md") == []
    assert after.edge("/a.md", "/z.md") is None
    assert "/a.md" not in after.nodes  # nothing links to it: the node goes with the file


def test_a_deleted_source_still_linked_to_becomes_a_missing_node(store, reopen):
    store.merge(
        crawl(
            {"/a.md": (READ, [edge("/a.md", "/b.md")]), "/b.md": (READ, [])},
            [page("/a.md", "A"), page("/b.md", "B")],
        )
    )
    store.merge(crawl({"/b.md": (DELETED, [])}))
    nodes = reopen().load().nodes
    assert nodes["/b.md"] == Node("/b.md", NodeKind.MISSING, "")
    assert nodes["/a.md"] == page("/a.md", "A")


@pytest.mark.parametrize("status", [ERROR, EXTERNAL])
def test_an_error_or_external_source_keeps_its_stored_edges(store, reopen, status):
    store.merge(FIRST)
    store.merge(crawl({"/a.md": (status, [edge("/a.md", "/z.md", "", "ignored")])}))
    after = reopen().load()
    assert [fields(e) for e in after.edges_from("/a.md")] == [
        fields(e) for e in FIRST.sources["/a.md"][1]
    ]


def test_merging_the_same_crawl_twice_changes_nothing(store, reopen):
    once = view(store.merge(FIRST))
    twice = view(store.merge(FIRST))
    assert once == twice == view(reopen().load())
    assert reopen().load().edge("/a.md", "/b.md").count == 2  # not 4


def test_duplicate_occurrences_in_one_crawl_add_up_but_never_across_merges(store, reopen):
    one_crawl = crawl(
        {
            "/a.md": (
                READ,
                [
                    edge("/a.md", "/b.md", at=(1,)),
                    edge("/a.md", "/b.md", "", "Second", "s", at=(9,)),
                    edge("/a.md", "/b.md", "", "Third", "t", at=(20,)),
                ],
            )
        }
    )
    for _ in range(3):
        store.merge(one_crawl)
    e = reopen().load().edge("/a.md", "/b.md")
    assert (e.count, e.label, e.anchor, [o.offset for o in e.occurrences]) == (
        3,
        "Second",
        "s",
        [1, 9, 20],
    )


def test_a_body_link_and_a_typed_relation_stay_two_edges(store, reopen):
    store.merge(
        crawl({"/a.md": (READ, [edge("/a.md", "/b.md"), edge("/a.md", "/b.md", "depends-on")])})
    )
    assert [e.rel for e in reopen().load().edges_from("/a.md")] == ["", "depends-on"]


def test_crawl_nodes_replace_stored_ones(store, reopen):
    store.merge(FIRST)
    store.merge(
        crawl(
            {"/x.md": (READ, [edge("/x.md", "/y.md")])},
            [Node("/y.md", NodeKind.MISSING), page("/x.md", "X2")],
        )
    )
    nodes = reopen().load().nodes
    assert nodes["/y.md"] == Node("/y.md", NodeKind.MISSING)
    assert nodes["/x.md"] == page("/x.md", "X2")
    assert nodes["/a.md"] == page("/a.md", "A")  # not read, kept


def test_target_only_nodes_no_edge_references_are_dropped_but_pages_kept(store, reopen):
    ext, gone = Node("https://x.org/", NodeKind.EXTERNAL), Node("/gone.md", NodeKind.MISSING)
    store.merge(
        crawl(
            {
                "/a.md": (
                    READ,
                    [
                        edge("/a.md", "https://x.org/"),
                        edge("/a.md", "/gone.md"),
                        edge("/a.md", "/b.md"),
                    ],
                )
            },
            [page("/a.md"), page("/b.md"), ext, gone],
        )
    )
    store.merge(crawl({"/a.md": (READ, [edge("/a.md", "/gone.md")])}, [page("/a.md"), gone]))
    assert sorted(reopen().load().nodes) == ["/a.md", "/b.md", "/gone.md"]


def test_an_unknown_backend_is_refused(cache_dir):
    with pytest.raises(ValueError, match="nope"):
        open_store("nope", cache_dir)


def test_an_edge_filed_under_another_source_is_refused(store):
    with pytest.raises(ValueError, match="under source /a"):
        store.merge(GraphUpdate({"/a.md": (READ, [edge("/b.md", "/c.md")])}))
