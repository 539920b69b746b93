"""Names found as people type them (doko/names.py)."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from doko.names import (
    collapsed,
    matches,
    search_key,
    search_words,
    spelt_out,
)


@pytest.mark.parametrize(
    ("name", "query"),
    [
        ("Öztürk", "öztürk"),
        ("Öztürk", "OEZTUERK"),
        ("Öztürk", "ozturk"),
        ("Müller", "Muller"),
        ("Müller", "Mueller"),
        ("Müller", "MÜLLER"),
        ("Köhler", "Koehler"),
        ("Koehler", "Köhler"),
        ("Mueller", "Müller"),
        ("Straße", "strasse"),
        ("Strasse", "straße"),
        ("Dvořák", "dvorak"),
        ("Łukasz", "lukasz"),
        ("Yılmaz", "yilmaz"),
        ("Şahin", "sahin"),
        ("Søren", "soeren"),
        ("Jörg Müller", "müller, jörg"),
        ("Mueller", "eller"),
        ("Ελένη", "ελενη"),
        ("Дмитрий", "дмитрий"),
    ],
)
def test_a_name_is_found_however_it_is_typed(name, query):
    assert matches(search_key(name), query)


@pytest.mark.parametrize(
    ("name", "query"), [("Müller", "Meier"), ("Jörg Müller", "jörg schmidt"), ("Anna Ober", "ao")]
)
def test_other_names_are_not_found(name, query):
    assert not matches(search_key(name), query)


def test_the_separator_is_no_part_of_a_word():
    assert search_words("ab|cd") == search_words("ab cd")


def test_the_two_spellings():
    assert spelt_out("Dvořák MÜLLER Straße") == "dvorak mueller strasse"
    assert collapsed("Mueller Müller Muller") == "muller muller muller"
    assert search_key("Jörg", "Müller") == "joerg mueller|jorg muller"


def test_an_empty_query_matches_everything():
    assert matches(search_key("Anna"), "  ,  ")


def test_a_lone_accent_is_no_word():
    assert search_words("´ ¨") == []


@given(st.text(max_size=20), st.text(max_size=20))
def test_every_name_is_found_by_itself_and_its_parts(first, last):
    key = search_key(first, last)
    assert matches(key, f"{first} {last}")
    # Upper case finds the same, where it spells the same: a lone "ͅ" (U+0345) is a mark,
    # dropped, but its capital is the letter "Ι".
    assume(spelt_out(last.upper()) == spelt_out(last))
    assert matches(key, last.upper())
