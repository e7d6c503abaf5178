"""Stop words: the commonest function words of each language, which say nothing about what a
page is about (content/guides/related-pages.md#words).

Small lists on purpose: a word must be three characters or more to count at all, and IDF
already discounts words most pages share. Chinese and Japanese have none (their words are
character pairs); a language not listed has none. Data only; never reads anything.
"""

# ruff: noqa: RUF001 (Cyrillic letters are the Russian list's, not look-alikes)

from __future__ import annotations


def words_of(text: str) -> frozenset[str]:
    """The words of a space-separated list."""
    return frozenset(text.split())


#: By the primary subtag of a page's language (``pt`` for ``pt-BR``).
STOP_WORDS: dict[str, frozenset[str]] = {
    "en": words_of(
        "the and for are but not you all any can had her was one our out has his how its "
        "may new now old see two way who did get put say she too use with this that from "
        "they will would there their what about which when make like than then them "
        "these some could other into more only also been were have here your just over "
        "such where most many each much very must should does done it's"
    ),
    "es": words_of(
        "los las del una unos unas por para con sin que como pero más este esta estos estas "
        "ese esa eso son está están ser hay sus muy también puede pueden cuando donde todo "
        "todos sobre entre desde hasta usar uso"
    ),
    "pt": words_of(
        "os as dos das uma uns umas por para com sem que como mas mais este esta estes estas "
        "esse essa isso são está estão ser há seus suas muito também pode podem quando onde "
        "todo todos sobre entre desde até não usar uso"
    ),
    "fr": words_of(
        "les des une par pour avec sans que qui comme mais plus cette ces son sont est être "
        "dans sur aux leur leurs très aussi peut peuvent quand où tout tous entre depuis "
        "pas vous nous utiliser"
    ),
    "de": words_of(
        "der die das den dem des ein eine einen einem einer und oder aber mit für von auf "
        "ist sind wird werden kann können nicht auch wenn wie sie ihr wir sich dass zum zur "
        "bei aus nach über unter"
    ),
    "ru": words_of(
        "что как это для или при все так его она они вы мы был была были будет может можно "
        "если когда где чтобы также только уже есть нет над под без через"
    ),
}
