"""Words, not markup (content/guides/related-pages.md#words): the visible prose of a page,
Unicode words never cut, stop words by the page's language."""

from __future__ import annotations

from sitegen.analyse.related import Texts, text_dimension
from sitegen.docs.prose import page_language, visible_prose, without_code
from sitegen.graph.semantic import language_of, word_counts
from sitegen.site.search import page_sections

CODE_PAGE = (
    '<h1 id="a">Fonts</h1>\n<p class="lead" data-x="attribute">Choosing <em>typefaces</em>'
    ' &amp; sizes.</p>\n<div class="highlight"><pre><span class="k">font</span> '
    '<span style="color:#d3d7cf">d3d7cf</span> span div</pre></div>\n'
    "<script>var hidden = 1;</script><p>After the code.</p>"
)


def test_visible_prose_has_no_code_tags_or_attributes() -> None:
    prose = visible_prose(CODE_PAGE)
    assert prose == "Fonts Choosing typefaces & sizes. After the code."
    assert "d3d7cf" not in without_code(CODE_PAGE) and "<h1" in without_code(CODE_PAGE)
    upper = "<P>x</P><PRE>code</PRE><p>y</p>"
    assert visible_prose(upper) == "x y"
    assert without_code("<pre>never closed") == "<pre>never closed"


def test_unicode_words_are_whole() -> None:
    counts = word_counts("La configuración del servidor; configuración ÜBER Straße x86 ab")
    assert counts["configuración"] == 2 and "configuraci" not in counts
    assert {"über", "straße", "x86"} <= set(counts) and "ab" not in counts


def test_stop_words_by_language() -> None:
    text = "para los usuarios the users über die Werkzeuge"
    es = {"usuarios", "the", "users", "über", "die", "werkzeuge"}
    assert set(word_counts(text, "es")) == es
    assert set(word_counts(text, "en")) == {
        "para",
        "los",
        "usuarios",
        "users",
        "über",
        "die",
        "werkzeuge",
    }
    assert "die" not in word_counts(text, "de-AT")
    assert "html" not in word_counts("html https function", "fr")  # markup, in any language
    assert language_of("pt-BR") == language_of("pt_br") == "pt"


def test_chinese_and_japanese_count_character_pairs() -> None:
    counts = word_counts("服务器配置 日本語", "zh")
    assert set(counts) == {"服务", "务器", "器配", "配置", "日本", "本語"}


def test_a_page_language_comes_from_front_matter_else_the_default() -> None:
    assert page_language({"lang": "es"}, "en") == "es"
    assert page_language({"lang": "not a tag!"}, "fr") == "fr"
    assert page_language({}, "pt-BR") == "pt-BR"


def test_related_text_reads_prose_only() -> None:
    other = "<p>Typefaces and sizes for headings.</p><pre>span div d3d7cf font</pre>"
    index, _ = text_dimension(Texts([CODE_PAGE, other], [True, True], ["en", "en"]))
    assert {"d3d7cf", "span", "div", "lead", "attribute", "hidden"}.isdisjoint(index.vocabulary)
    assert "typefaces" in index.vocabulary


def test_spanish_stop_words_are_not_shared_words() -> None:
    es = "<p>La configuración para los servidores de producción</p>"
    es2 = "<p>Para los servidores: configuración avanzada</p>"
    index, _ = text_dimension(Texts([es, es2], [True, True], ["es", "es"]))
    assert "para" not in index.vocabulary and "configuración" in index.vocabulary


def test_search_sections_leave_code_blocks_out() -> None:
    sections = page_sections(CODE_PAGE)
    text = " ".join(s.text for s in sections)
    assert "d3d7cf" not in text and "hidden" not in text and "After the code." in text
