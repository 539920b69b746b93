"""Names found as people type them, and one person told however her name is typed
(doko/names.py)."""

import unicodedata

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from doko.names import (
    collapsed,
    matches,
    person_key,
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


# One person however typed (``person_key``) -------------------------------------------------

# Letters a German keyboard types, with the accents of names met in German clubs, and the signs
# between the words of a name.
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZäöüÄÖÜßéèêáàâçñøåčšžłÉÇ"
names = st.text(alphabet=_LETTERS + " -'.", max_size=30)
_UMLAUTS = {"ä": "a", "ö": "o", "ü": "u", "Ä": "A", "Ö": "O", "Ü": "U"}


@pytest.mark.parametrize(
    "typed",
    ["Jurgen MUELLER", "Juergen Mueller", "jürgen müller", "JÜRGEN  MÜLLER", " Jürgen Müller "],
)
def test_the_finding_s_spellings_are_one_person(typed):
    assert person_key(typed) == person_key("Jürgen", "Müller") == "jurgen muller"


@pytest.mark.parametrize(
    ("one", "other"),
    [("Jürgen Müller", "Jürgen Möller"), ("Anna Schmidt", "Anne Schmidt"), ("Jan", "Jana")],
)
def test_other_people_stay_apart(one, other):
    assert person_key(one) != person_key(other)


@given(names)
def test_a_person_in_any_case_is_one(name):
    assert person_key(name) == person_key(name.upper()) == person_key(name.lower())


@given(names, st.data())
def test_umlauts_written_out_or_left_off_are_one(name, data):
    typed = "".join(
        data.draw(st.sampled_from([letter, _UMLAUTS[letter], _UMLAUTS[letter] + "e"]))
        if letter in _UMLAUTS
        else letter
        for letter in name
    )
    assert person_key(typed) == person_key(name)


@given(names)
def test_accents_left_off_are_one(name):
    bare = "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c))
    assert person_key(bare) == person_key(name) == person_key(unicodedata.normalize("NFD", name))


@given(names, names)
def test_where_the_first_name_ends_and_the_spaces_between_do_not_matter(first, last):
    assert person_key(first, last) == person_key(f"  {first}\t - {last} ")


@given(st.text(max_size=30))
def test_the_key_of_a_key_is_the_key(name):
    key = person_key(name)
    assert person_key(key) == key
