"""Importing players from CSV: reading and checking the file, before anything is saved."""

import unicodedata

import pytest
from django.utils import translation

from tournaments.player_import import ImportPreview, ImportRow, parse_players_csv


def csv_bytes(*lines: str, newline: str = "\r\n", bom: bool = False) -> bytes:
    data = newline.join(lines).encode("utf-8")
    return b"\xef\xbb\xbf" + data if bom else data


def only_row(preview: ImportPreview) -> ImportRow:
    assert preview.errors == ()
    assert len(preview.rows) == 1
    return preview.rows[0]


def row_errors(*lines: str) -> list[tuple[str, ...]]:
    preview = parse_players_csv(csv_bytes(*lines))
    assert preview.errors == ()
    return [row.errors for row in preview.rows]


# Formats ---------------------------------------------------------------------------------------


def test_semicolon_file_with_bom_keeps_umlauts_and_sharp_s():
    preview = parse_players_csv(
        csv_bytes(
            "Vorname;Nachname;Verein;DDV-Nr.;Startnummer",
            "Jörg;Weiß;Doko-Freunde Köln;012345;7",
            "Änne;Müßig;;;",
            bom=True,
        )
    )
    assert preview.ok
    assert preview.delimiter == ";"
    assert preview.rows == (
        ImportRow(
            line=2,
            first_name="Jörg",
            last_name="Weiß",
            club="Doko-Freunde Köln",
            ddv_number="012345",
            start_number=7,
            errors=(),
        ),
        ImportRow(
            line=3,
            first_name="Änne",
            last_name="Müßig",
            club="",
            ddv_number="",
            start_number=None,
            errors=(),
        ),
    )


def test_comma_file_with_quoted_fields_containing_commas_quotes_and_line_breaks():
    preview = parse_players_csv(
        csv_bytes(
            "first_name,last_name,club,start_number",
            'Hans,Müller,"Kreuz, Pik und Herz e.V.",1',
            'Eva,"Schmidt-""Lange""","Club\nmit Zeilenumbruch",2',
            "Otto,Meier, Fuchsjäger ,3",
            newline="\n",
        )
    )
    assert preview.ok
    assert preview.delimiter == ","
    assert [row.club for row in preview.rows] == [
        "Kreuz, Pik und Herz e.V.",
        "Club\nmit Zeilenumbruch",
        "Fuchsjäger",
    ]
    assert preview.rows[1].last_name == 'Schmidt-"Lange"'
    # the quoted line break makes line 3 two lines long
    assert [row.line for row in preview.rows] == [2, 3, 5]


def test_tab_delimited_file():
    preview = parse_players_csv(csv_bytes("Vorname\tNachname\tVerein", "Jörg\tWeiß\tKöln, Süd"))
    assert preview.delimiter == "\t"
    row = only_row(preview)
    assert (row.first_name, row.last_name, row.club) == ("Jörg", "Weiß", "Köln, Süd")


def test_delimiter_inside_quoted_header_does_not_count():
    preview = parse_players_csv(csv_bytes('"Vorname";"Nachname";"Verein"', "A;B;C, D, E"))
    assert preview.delimiter == ";"
    assert only_row(preview).club == "C, D, E"


def test_old_mac_line_endings():
    preview = parse_players_csv(
        csv_bytes("Vorname;Nachname", "Jörg;Weiß", "Eva;Roth", newline="\r")
    )
    assert preview.ok
    assert [row.line for row in preview.rows] == [2, 3]


def test_decomposed_unicode_is_normalised_to_nfc():
    nfd = unicodedata.normalize("NFD", "Jörg;Weiß;Doko-Freunde Köln")
    assert nfd != "Jörg;Weiß;Doko-Freunde Köln"
    row = only_row(parse_players_csv(csv_bytes("Vorname;Nachname;Verein", nfd)))
    assert (row.first_name, row.last_name, row.club) == ("Jörg", "Weiß", "Doko-Freunde Köln")
    assert unicodedata.is_normalized("NFC", row.first_name + row.last_name + row.club)


def test_decomposed_header_is_recognised():
    header = unicodedata.normalize("NFD", "Vorname;Nachname;Verein")
    assert parse_players_csv(csv_bytes(header, "A;B;C")).ok


@pytest.mark.parametrize(
    ("header", "fields"),
    [
        ("Vorname;Nachname;Verein;DDV-Nr;Startnummer", None),
        ("first name;last name;Club;DDV number;start number", None),
        ("  FIRSTNAME ; Surname ;club;Mitgliedsnummer;Start-Nr.", None),
        ("Firstname;LASTNAME;VEREIN;DDV-Nummer;Startnr", None),
        ("Vorname;Name;Verein;ddv_number;Start-Nr", None),
        ("first_name;last_name;Club;DDV-Nr.;start_number", None),
        ("Nachname;Vorname", ("Weiß", "Jörg")),
    ],
)
def test_column_names_in_german_and_english_any_case_and_order(header, fields):
    values = "Weiß;Jörg" if fields else "Jörg;Weiß;Köln;123;4"
    row = only_row(parse_players_csv(csv_bytes(header, values)))
    assert (row.first_name, row.last_name) == ("Jörg", "Weiß")
    if not fields:
        assert (row.club, row.ddv_number, row.start_number) == ("Köln", "123", 4)


def test_combined_name_column_is_split_at_the_first_comma():
    preview = parse_players_csv(
        csv_bytes(
            "Name;Verein",
            "Weiß, Jörg;Köln",
            "von Berg, Anna, Maria;",
            newline="\n",
        )
    )
    assert preview.ok
    assert [(row.last_name, row.first_name) for row in preview.rows] == [
        ("Weiß", "Jörg"),
        ("von Berg", "Anna, Maria"),
    ]


def test_combined_name_column_alone_in_a_file():
    preview = parse_players_csv(csv_bytes("name", '"Weiß, Jörg"', "Roth, Eva"))
    assert preview.ok
    assert [(row.last_name, row.first_name) for row in preview.rows] == [
        ("Weiß", "Jörg"),
        ("Roth", "Eva"),
    ]


def test_combined_name_without_comma_is_an_error_of_its_line():
    preview = parse_players_csv(csv_bytes("Name", "Jörg Weiß", "Roth,", ", Eva"))
    assert not preview.ok
    assert [row.errors for row in preview.rows] == [
        ("Line 2: the name “Jörg Weiß” has no comma; write it as “Last name, First name”.",),
        ("Line 3: the first name is missing.",),
        ("Line 4: the last name is missing.",),
    ]


def test_blank_lines_are_skipped_and_not_counted():
    preview = parse_players_csv(
        csv_bytes("", "Vorname;Nachname", "", "Jörg;Weiß", " ; ", ";;", "Eva;Roth", "", "")
    )
    assert preview.ok
    assert [(row.line, row.first_name) for row in preview.rows] == [(4, "Jörg"), (7, "Eva")]


def test_short_lines_leave_the_missing_columns_empty():
    row = only_row(parse_players_csv(csv_bytes("Vorname;Nachname;Verein;Startnummer", "Jörg;Weiß")))
    assert not row.errors
    assert (row.club, row.start_number) == ("", None)


def test_trailing_empty_values_and_columns_without_heading_are_fine_when_empty():
    preview = parse_players_csv(csv_bytes("Vorname;Nachname;;", "Jörg;Weiß;;;;"))
    assert preview.ok


# File-level errors -----------------------------------------------------------------------------


def test_cp1252_file_is_refused_with_advice():
    data = "Vorname;Nachname\r\nJörg;Weiß\r\n".encode("cp1252")
    preview = parse_players_csv(data)
    assert not preview.ok
    assert preview.rows == ()
    assert preview.delimiter == ""
    assert len(preview.errors) == 1
    assert "not in UTF-8" in preview.errors[0]
    assert "“CSV UTF-8”" in preview.errors[0]


@pytest.mark.parametrize("data", [b"", b"\xef\xbb\xbf", b"\r\n\r\n  \n", b";;\n;\n"])
def test_empty_file(data):
    preview = parse_players_csv(data)
    assert not preview.ok
    assert preview.rows == ()
    assert preview.errors == ("The file is empty.",)


def test_header_only():
    preview = parse_players_csv(csv_bytes("Vorname;Nachname", "", ""))
    assert not preview.ok
    assert preview.errors == ("The file has a header row but no players.",)
    assert preview.delimiter == ";"


def test_no_header_row():
    preview = parse_players_csv(csv_bytes("Jörg;Weiß;Köln", "Eva;Roth;Bonn"))
    assert not preview.ok
    assert preview.rows == ()
    [error] = preview.errors
    assert error.startswith("The first line must be a header row naming the columns")
    assert "“Vorname”" in error


def test_unknown_columns_are_listed_with_the_accepted_names():
    # (An e-mail column is known since issue 33: the personal links are mailed to it.)
    preview = parse_players_csv(csv_bytes("Vorname;Nachname;Geburtstag;Telefon", "A;B;1.1.1990;x"))
    assert not preview.ok
    assert preview.rows == ()
    [error] = preview.errors
    assert error.startswith("Unknown columns: “Geburtstag”, “Telefon”. Accepted column names: ")
    assert "first name: “Vorname”, “first name”, “first_name”, “firstname”" in error
    assert "“Mitgliedsnummer”" in error
    assert "“Start-Nr.”" in error


@pytest.mark.parametrize(
    ("header", "error"),
    [
        (
            "Vorname;Verein",
            "The column “last name” is missing. Accepted names: “Nachname”, “Name”, "
            "“last name”, “last_name”, “lastname”, “surname”.",
        ),
        (
            "Nachname;Verein",
            "The column “first name” is missing. Accepted names: “Vorname”, “first name”, "
            "“first_name”, “firstname”.",
        ),
        (
            "Verein;Startnummer",
            "The columns for first and last name are missing. Use for example “Vorname” and "
            "“Nachname”, or a single column “Name” holding “Last name, First name”.",
        ),
    ],
)
def test_missing_required_column(header, error):
    preview = parse_players_csv(csv_bytes(header, "A;1"))
    assert not preview.ok
    assert preview.errors == (error,)
    assert preview.rows == ()


@pytest.mark.parametrize(
    ("header", "error"),
    [
        (
            "Vorname;Nachname;Name",
            "These columns all mean “last name”: “Nachname”, “Name”. Keep only one of them.",
        ),
        (
            "Vorname;Nachname;first name",
            "These columns all mean “first name”: “Vorname”, “first name”. Keep only one of them.",
        ),
        (
            "Vorname;Nachname;Startnummer;Start-Nr.",
            "These columns all mean “start number”: “Startnummer”, “Start-Nr.”. "
            "Keep only one of them.",
        ),
        ("Name;name", "These columns all mean “name”: “Name”, “name”. Keep only one of them."),
    ],
)
def test_duplicate_column(header, error):
    preview = parse_players_csv(csv_bytes(header, "A;B;C;D"))
    assert not preview.ok
    assert error in preview.errors


def test_last_name_and_name_without_first_name_column():
    preview = parse_players_csv(csv_bytes("Nachname;Name", "A;B"))
    assert not preview.ok
    assert "These columns all mean “last name”: “Nachname”, “Name”. Keep only one of them." in (
        preview.errors
    )
    assert any(error.startswith("The column “first name” is missing.") for error in preview.errors)


def test_more_than_max_rows():
    lines = ["Vorname;Nachname", *(f"Spieler;Nummer {n}" for n in range(4))]
    assert parse_players_csv(csv_bytes(*lines), max_rows=4).ok
    preview = parse_players_csv(csv_bytes(*lines, "Eine;Zu viel"), max_rows=4)
    assert not preview.ok
    assert preview.rows == ()
    assert preview.errors == ("The file has more than 4 players. Split it into several files.",)


def test_blank_lines_do_not_count_towards_max_rows():
    lines = ["Vorname;Nachname", "A;B", "", "", "C;D"]
    assert parse_players_csv(csv_bytes(*lines), max_rows=2).ok


def test_max_rows_must_be_positive():
    with pytest.raises(ValueError, match="max_rows"):
        parse_players_csv(b"Vorname;Nachname\nA;B", max_rows=0)


def test_unclosed_quotation_mark_reading_past_the_field_limit():
    data = csv_bytes("Vorname;Nachname", 'A;"B', *(["x" * 1000] * 200))
    preview = parse_players_csv(data)
    assert not preview.ok
    assert preview.errors == (
        "Line 2 cannot be read as CSV. Check that every quotation mark is closed.",
    )


# Row errors ------------------------------------------------------------------------------------


def test_missing_names():
    assert row_errors("Vorname;Nachname;Verein", ";Weiß;Köln", "Jörg;;Köln", " ; ;Köln") == [
        ("Line 2: the first name is missing.",),
        ("Line 3: the last name is missing.",),
        ("Line 4: the first name is missing.", "Line 4: the last name is missing."),
    ]


def test_values_longer_than_allowed():
    errors = row_errors(
        "Vorname;Nachname;Verein;DDV-Nr",
        ";".join(["ä" * 100, "ß" * 100, "ö" * 200, "1" * 20]),
        ";".join(["ä" * 101, "ß" * 101, "ö" * 201, "1" * 21]),
    )
    assert errors == [
        (),
        (
            "Line 3: the first name is longer than 100 characters.",
            "Line 3: the last name is longer than 100 characters.",
            "Line 3: the club is longer than 200 characters.",
            "Line 3: the DDV number is longer than 20 characters.",
        ),
    ]


def test_name_length_in_a_combined_column():
    preview = parse_players_csv(csv_bytes("Name", f'"{"W" * 101}, {"J" * 101}"'))
    assert preview.rows[0].errors == (
        "Line 2: the first name is longer than 100 characters.",
        "Line 2: the last name is longer than 100 characters.",
    )


@pytest.mark.parametrize("value", ["12a", "12 345", "12-345", "١٢٣", "-5", "12.0"])
def test_ddv_number_must_be_digits(value):
    preview = parse_players_csv(csv_bytes("Vorname;Nachname;DDV-Nr", f"Jörg;Weiß;{value}"))
    assert preview.rows[0].errors == (f"Line 2: the DDV number “{value}” may contain only digits.",)
    assert not preview.ok


def test_ddv_number_is_stripped_and_keeps_leading_zeros():
    row = only_row(parse_players_csv(csv_bytes("Vorname;Nachname;DDV-Nr", "Jörg;Weiß; 00815 ")))
    assert row.ddv_number == "00815"
    assert not row.errors


@pytest.mark.parametrize("value", ["0", "-1", "+3", "1.5", "12.0", "drei", "1e3", "٣", "00"])
def test_start_number_must_be_a_positive_whole_number(value):
    preview = parse_players_csv(csv_bytes("Vorname;Nachname;Startnummer", f"Jörg;Weiß;{value}"))
    row = preview.rows[0]
    assert row.start_number is None
    assert row.errors == (f"Line 2: the start number “{value}” is not a whole number above 0.",)


def test_start_number_with_spaces_and_leading_zero():
    row = only_row(parse_players_csv(csv_bytes("Vorname;Nachname;Startnummer", "Jörg;Weiß; 007 ")))
    assert row.start_number == 7


def test_start_number_too_large_for_the_database():
    preview = parse_players_csv(
        csv_bytes("Vorname;Nachname;Startnummer", "A;B;2147483647", "C;D;2147483648")
    )
    assert preview.rows[0].start_number == 2147483647
    assert preview.rows[1].start_number is None
    assert preview.rows[1].errors == ("Line 3: the start number 2147483648 is too large.",)


def test_more_values_than_columns():
    preview = parse_players_csv(
        csv_bytes("first name,last name,club", "Hans,Müller,Kreuz, Pik und Herz e.V.")
    )
    assert preview.rows[0].errors == (
        "Line 2: there are more values than columns in the header row. "
        "Put values containing “,” in quotation marks.",
    )


def test_more_values_than_columns_in_a_tab_file_names_the_tab():
    preview = parse_players_csv(csv_bytes("Vorname\tNachname", "A\tB\tC"))
    assert preview.rows[0].errors == (
        "Line 2: there are more values than columns in the header row. "
        "Put values containing “tab” in quotation marks.",
    )


def test_value_in_a_column_without_heading():
    preview = parse_players_csv(csv_bytes("Vorname;;Nachname", "Jörg;x;Weiß"))
    assert preview.rows[0].errors == ("Line 2: column 2 has no heading but holds “x”.",)


def test_one_line_can_have_several_errors():
    [errors] = row_errors("Vorname;Nachname;DDV-Nr;Startnummer", ";Weiß;abc;0")
    assert errors == (
        "Line 2: the first name is missing.",
        "Line 2: the start number “0” is not a whole number above 0.",
        "Line 2: the DDV number “abc” may contain only digits.",
    )


def control_character(line: int, column: str | int, code: str) -> str:
    where = f"column {column}" if isinstance(column, int) else f"column “{column}”"
    return (
        f"Line {line}, {where}: the value holds an invisible control character ({code}). "
        "Delete it, for example by typing the value again."
    )


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("We\x00iß", "U+0000"),
        ("Weiß\x00", "U+0000"),
        ("We\x07iß", "U+0007"),
        ("We\x1biß", "U+001B"),
        ("We\x7fiß", "U+007F"),
        ("We\x85iß", "U+0085"),
        ('"We\x0ciß"', "U+000C"),
        ("\u202eßieW", "U+202E"),
    ],
)
def test_a_control_character_names_its_line_and_column(value, code):
    preview = parse_players_csv(csv_bytes("Vorname;Nachname;Verein", f"Jörg;{value};Köln"))
    assert preview.rows[0].errors == (control_character(2, "Nachname", code),)
    assert not preview.ok


def test_control_characters_in_several_columns_are_each_named():
    preview = parse_players_csv(
        csv_bytes("first name,last name,club", "Jörg,Weiß,Köln", "A\x00,B,C\x01")
    )
    assert preview.rows[0].errors == ()
    assert preview.rows[1].errors == (
        control_character(3, "first name", "U+0000"),
        control_character(3, "club", "U+0001"),
    )


def test_a_control_character_in_the_header_row_is_a_file_error():
    preview = parse_players_csv(csv_bytes("Vorname;Nach\x00name", "Jörg;Weiß"))
    assert preview.rows == ()
    assert preview.errors == (control_character(1, 2, "U+0000"),)


def test_letters_of_every_script_joiners_and_quoted_breaks_are_not_control_characters():
    row = only_row(
        parse_players_csv(
            csv_bytes(
                "Vorname;Nachname;Verein", 'Zoë;O’Brien-Łukasiewicz \u200dΣ;"Kreuz\tPik\r\nHerz"'
            )
        )
    )
    assert row.errors == ()
    assert row.club == "Kreuz\tPik\r\nHerz"


# Duplicates within the file --------------------------------------------------------------------


def test_repeated_start_number_names_the_earlier_line():
    assert row_errors("Vorname;Nachname;Startnummer", "A;B;1", "C;D;2", "", "E;F;1", "G;H;1") == [
        (),
        (),
        ("Line 5: the start number 1 is already used in line 2.",),
        ("Line 6: the start number 1 is already used in line 2.",),
    ]


def test_repeated_ddv_number_names_the_earlier_line():
    assert row_errors("Vorname;Nachname;DDV-Nr", "A;B;100", "C;D;", "E;F;", "G;H;100") == [
        (),
        (),
        (),
        ("Line 5: the DDV number 100 is already used in line 2.",),
    ]


def test_repeated_name_regardless_of_case():
    assert row_errors("Vorname;Nachname", "Jörg;Weiß", "Jörg;Weiss", "Anna;Roth", "JÖRG; weiß") == [
        (),
        (),  # "ss" and "ß" are different spellings, which may be different families
        (),
        (
            "Line 5: the name “JÖRG weiß” is already in line 2. "
            "If these are two different players, enter a DDV number for each.",
        ),
    ]


def test_repeated_name_told_apart_by_ddv_numbers_is_fine():
    assert row_errors("Vorname;Nachname;DDV-Nr", "Jörg;Weiß;1", "Jörg;Weiß;2") == [(), ()]


@pytest.mark.parametrize(("first", "second"), [("1", ""), ("", "2"), ("", "")])
def test_repeated_name_with_a_missing_ddv_number_is_an_error(first, second):
    errors = row_errors("Vorname;Nachname;DDV-Nr", f"Jörg;Weiß;{first}", f"Jörg;Weiß;{second}")
    assert errors == [
        (),
        (
            "Line 3: the name “Jörg Weiß” is already in line 2. "
            "If these are two different players, enter a DDV number for each.",
        ),
    ]


def test_repeated_name_and_ddv_number_is_reported_once():
    errors = row_errors("Vorname;Nachname;DDV-Nr", "Jörg;Weiß;1", "Jörg;Weiß;1")
    assert errors == [(), ("Line 3: the DDV number 1 is already used in line 2.",)]


def test_repeated_name_checks_every_earlier_line():
    errors = row_errors("Vorname;Nachname;DDV-Nr", "Jörg;Weiß;1", "Jörg;Weiß;", "Jörg;Weiß;2")
    assert errors[2] == (
        "Line 4: the name “Jörg Weiß” is already in line 3. "
        "If these are two different players, enter a DDV number for each.",
    )


def test_repeated_name_in_a_combined_column():
    preview = parse_players_csv(csv_bytes("Name", '"Weiß, Jörg"', '"weiß,jörg"'))
    assert preview.rows[1].errors == (
        "Line 3: the name “jörg weiß” is already in line 2. "
        "If these are two different players, enter a DDV number for each.",
    )


# ok --------------------------------------------------------------------------------------------


def test_ok_needs_rows_without_errors_and_no_file_errors():
    assert parse_players_csv(csv_bytes("Vorname;Nachname", "A;B")).ok
    assert not parse_players_csv(csv_bytes("Vorname;Nachname", "A;B", ";C")).ok
    assert not ImportPreview(rows=(), errors=(), delimiter=";").ok
    row = ImportRow(2, "A", "B", "", "", None, ())
    assert ImportPreview(rows=(row,), errors=(), delimiter=";").ok
    assert not ImportPreview(rows=(row,), errors=("x",), delimiter=";").ok


def test_an_erroneous_row_keeps_its_other_values_for_the_preview():
    [row] = parse_players_csv(csv_bytes("Vorname;Nachname;Verein;Startnummer", ";Weiß;Köln;3")).rows
    assert (row.first_name, row.last_name, row.club, row.start_number) == ("", "Weiß", "Köln", 3)


# German ----------------------------------------------------------------------------------------


def test_messages_come_out_in_german():
    with translation.override("de"):
        rows = parse_players_csv(csv_bytes("Vorname;Nachname;Startnummer", ";Weiß;x")).rows
        unknown = parse_players_csv(csv_bytes("Vorname;Nachname;Geburtstag", "A;B;C")).errors
        missing = parse_players_csv(csv_bytes("Vorname;Verein", "A;B")).errors
        refused = parse_players_csv("Vorname;Nachname\nJörg;Weiß".encode("cp1252")).errors
    assert rows[0].errors == (
        "Zeile 2: Der Vorname fehlt.",
        "Zeile 2: Die Startnummer „x“ ist keine ganze Zahl über 0.",
    )
    assert rows[0].last_name == "Weiß"
    assert unknown[0].startswith("Unbekannte Spalten: “Geburtstag”. Zulässige Spaltennamen: ")
    assert f"{_de('first name')}: “Vorname”" in unknown[0]
    assert missing == (
        f"Die Spalte „{_de('last name')}“ fehlt. Zulässige Namen: “Nachname”, “Name”, "
        "“last name”, “last_name”, “lastname”, “surname”.",
    )
    for message in (*rows[0].errors, *unknown, *missing, *refused):
        assert "%(" not in message
    assert "„CSV UTF-8“" in refused[0]


def _de(message: str) -> str:
    with translation.override("de"):
        return translation.gettext(message)
