"""Reading a tournament's players from a CSV file, before anything is saved.

``parse_players_csv`` checks an uploaded file and returns an ``ImportPreview``: one
``ImportRow`` per player, each with its problems, and the problems of the file as a whole.
It touches no database; saving the players is the caller's business, and only when
``preview.ok`` is true.

The accepted format
-------------------

* **Encoding:** UTF-8, with or without byte order mark. In Excel choose *Save as* → "CSV UTF-8
  (comma delimited)"; in LibreOffice tick "Edit filter settings" and choose the character set
  "Unicode (UTF-8)". Other encodings (such as Excel's plain "CSV", Windows-1252) are refused
  rather than guessed, so that umlauts and ß never arrive garbled.
* **Delimiter:** semicolon (German Excel), comma or tab; it is read from the header row. A value
  that contains the delimiter, a quotation mark or a line break is put in double quotation marks,
  as spreadsheet programs do by themselves (``"Müller, Hans"``; ``""`` for a quotation mark
  inside).
* **Header row:** the first non-empty line names the columns, in any order. Upper and lower case
  and spaces around a name do not matter:

  ============== ===================================================================
  Column         Accepted names
  ============== ===================================================================
  first name     Vorname, first name, first_name, firstname
  last name      Nachname, Name, last name, last_name, lastname, surname
  club           Verein, Club
  DDV number     DDV-Nr, DDV-Nr., DDV-Nummer, Mitgliedsnummer, DDV number, ddv_number
  start number   Startnummer, Start-Nr, Start-Nr., Startnr, start number, start_number
  e-mail         E-Mail, EMail, Mail, E-Mail-Adresse, email, e-mail, e-mail address
  ============== ===================================================================

  First and last name are required, the others optional. Instead of the two name columns a
  single column ``Name`` may hold "Last name, First name" (``Weiß, Jörg``); it is split at the
  first comma. (Next to a first-name column, ``Name`` is the last name.) Any other column name,
  or two columns for the same thing, is an error: the file is not imported half-understood.
* **One player per line.** Spaces around values are removed and empty lines skipped. A value
  may not hold a control character (a NUL byte, an escape, a form feed, or a mark that
  reverses the writing direction; line breaks and tabs inside quotation marks are fine): the
  message names its line and column, since such a character is invisible in a spreadsheet and
  no name holds one.
  First and last name: required, at most 100 characters each. Club: at most 200 characters.
  DDV number: optional, digits only, at most 20. Start number: optional, a whole number from 1.
  E-mail: optional, one address, at most 254 characters (where the player's personal link is
  mailed).
* **Within one file** a start number and a DDV number may each appear only once, and the same
  name (regardless of case) only once unless both lines have different DDV numbers.
* At most 2 MB (``MAX_IMPORT_BYTES``; ``size_error`` says so) and 5000 players per file
  (``MAX_IMPORT_ROWS``; the caller may set another limit).

Letters are kept exactly as written, umlauts and ß included; text is normalised to Unicode NFC,
so a name typed on a Mac (which may store "ö" as "o" plus two dots) equals the same name typed
elsewhere.

Every message is translated and names the line of the file (the header row is line 1) and the
column it is about.
"""

import csv
import io
import re
import unicodedata
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

__all__ = [
    "MAX_IMPORT_BYTES",
    "MAX_IMPORT_ROWS",
    "ImportPreview",
    "ImportRow",
    "parse_players_csv",
    "size_error",
]

MAX_IMPORT_BYTES = 2 * 1024 * 1024  # a list of 5,000 players is about 300 KB
MAX_IMPORT_ROWS = 5000

MAX_FIRST_NAME = 100
MAX_LAST_NAME = 100
MAX_CLUB = 200
MAX_DDV_NUMBER = 20
MAX_EMAIL = 254
# The largest value of the start-number column in the database (a PositiveIntegerField).
MAX_START_NUMBER = 2_147_483_647

_DELIMITERS = (";", "\t", ",")  # in order of preference when the header row counts are equal
_COMBINED = "name"  # "Name" alone: "Last name, First name"

# Column names as written in the documentation; matched after ``_header_key``.
_ALIASES: dict[str, tuple[str, ...]] = {
    "first_name": ("Vorname", "first name", "first_name", "firstname"),
    "last_name": ("Nachname", "Name", "last name", "last_name", "lastname", "surname"),
    "club": ("Verein", "Club"),
    "ddv_number": (
        "DDV-Nr",
        "DDV-Nr.",
        "DDV-Nummer",
        "Mitgliedsnummer",
        "DDV number",
        "ddv_number",
    ),
    "start_number": (
        "Startnummer",
        "Start-Nr",
        "Start-Nr.",
        "Startnr",
        "start number",
        "start_number",
    ),
    "email": (
        "E-Mail",
        "EMail",
        "Mail",
        "E-Mail-Adresse",
        "email",
        "e-mail",
        "e-mail address",
    ),
}

_ASCII_DIGITS = re.compile(r"[0-9]+")
# Control characters (Unicode category Cc: C0, DEL, C1; NUL among them, which PostgreSQL's
# text cannot store at all) but the line break and tab that a quoted value may hold, and the
# marks that embed, override or isolate the writing direction, which make a name read as
# another.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _header_key(name: str) -> str:
    return " ".join(name.split()).casefold()


_FIELD_BY_KEY: dict[str, str] = {
    _header_key(alias): field
    for field, aliases in _ALIASES.items()
    for alias in aliases
    if _header_key(alias) != _COMBINED
}


@dataclass(frozen=True)
class ImportRow:
    """One player of the file, as read; ``errors`` is empty when the line is fine."""

    line: int  # line number in the file (header is line 1)
    first_name: str
    last_name: str
    club: str
    ddv_number: str
    start_number: int | None
    errors: tuple[str, ...]
    email: str = ""  # where the personal link is mailed; blank: none


@dataclass(frozen=True)
class ImportPreview:
    """What ``parse_players_csv`` made of a file."""

    rows: tuple[ImportRow, ...]
    errors: tuple[str, ...]  # problems of the whole file; then ``rows`` is empty
    delimiter: str  # "" when the file has no readable header row

    @property
    def ok(self) -> bool:
        """True when the file and every row are fine and there is at least one player."""
        return not self.errors and bool(self.rows) and not any(row.errors for row in self.rows)


def _field_label(field: str) -> str:
    return {
        "first_name": _("first name"),
        "last_name": _("last name"),
        "club": _("club"),
        "ddv_number": _("DDV membership number"),
        "start_number": _("start number"),
        "email": _("e-mail address"),
    }[field]


def _quoted(names) -> str:
    return ", ".join(f"“{name}”" for name in names)


def _accepted_names() -> str:
    return "; ".join(
        f"{_field_label(field)}: {_quoted(aliases)}" for field, aliases in _ALIASES.items()
    )


def _delimiter_label(delimiter: str) -> str:
    return _("tab") if delimiter == "\t" else delimiter


def _detect_delimiter(text: str) -> str:
    """The delimiter most used, outside quotation marks, on the first line that has content."""
    for line in text.splitlines():
        if not line.strip(" \t;,"):
            continue
        counts = dict.fromkeys(_DELIMITERS, 0)
        quoted = False
        for char in line:
            if char == '"':
                quoted = not quoted
            elif not quoted and char in counts:
                counts[char] += 1
        best = max(_DELIMITERS, key=lambda d: counts[d])  # first of equals wins
        return best if counts[best] else _DELIMITERS[0]
    return _DELIMITERS[0]


def _control_characters(line: int, record: list[str], header: list[str]):
    """A message for each value of ``record`` holding a control character, naming the column
    by its heading in ``header`` (by its number where it has none)."""
    for index, value in enumerate(record):
        found = _CONTROL.search(value.strip())
        if found is None:
            continue
        params = {"line": line, "code": f"U+{ord(found.group()):04X}"}
        heading = header[index].strip() if index < len(header) else ""
        if heading and not _CONTROL.search(heading):
            yield _(
                "Line %(line)d, column “%(column)s”: the value holds an invisible control "
                "character (%(code)s). Delete it, for example by typing the value again."
            ) % {**params, "column": heading}
        else:
            yield _(
                "Line %(line)d, column %(column)d: the value holds an invisible control "
                "character (%(code)s). Delete it, for example by typing the value again."
            ) % {**params, "column": index + 1}


def _is_blank(record: list[str]) -> bool:
    return all(not value.strip() for value in record)


def _file_error(*errors: str, delimiter: str = "") -> ImportPreview:
    return ImportPreview(rows=(), errors=tuple(errors), delimiter=delimiter)


def _read_header(header: list[str]) -> tuple[dict[str, int], list[str]]:
    """Map each field to its column index; second: the file-level errors of the header row."""
    names = [value.strip() for value in header]
    keys = [_header_key(name) for name in names]
    has_first = "first_name" in {_FIELD_BY_KEY.get(key) for key in keys}
    has_last = "last_name" in {_FIELD_BY_KEY.get(key) for key in keys}

    columns: dict[str, list[int]] = {}
    unknown: list[str] = []
    for index, (name, key) in enumerate(zip(names, keys, strict=True)):
        if not key:
            continue  # a column without heading; its values must be empty
        field: str | None
        if key == _COMBINED:
            field = "last_name" if has_first or has_last else _COMBINED
        else:
            field = _FIELD_BY_KEY.get(key)
        if field is None:
            unknown.append(name)
        else:
            columns.setdefault(field, []).append(index)

    if not columns:
        return {}, [
            _(
                "The first line must be a header row naming the columns, for example "
                "“Vorname;Nachname;Verein”. Accepted column names: %(accepted)s."
            )
            % {"accepted": _accepted_names()}
        ]

    errors = []
    if unknown:
        errors.append(
            _("Unknown columns: %(columns)s. Accepted column names: %(accepted)s.")
            % {"columns": _quoted(unknown), "accepted": _accepted_names()}
        )
    for field, indexes in columns.items():
        if len(indexes) > 1:
            label = _("name") if field == _COMBINED else _field_label(field)
            errors.append(
                _("These columns all mean “%(field)s”: %(columns)s. Keep only one of them.")
                % {"field": label, "columns": _quoted(names[i] for i in indexes)}
            )
    if _COMBINED not in columns:
        missing = [field for field in ("first_name", "last_name") if field not in columns]
        if len(missing) == 2:
            errors.append(
                _(
                    "The columns for first and last name are missing. Use for example "
                    "“Vorname” and “Nachname”, or a single column “Name” holding "
                    "“Last name, First name”."
                )
            )
        elif missing:
            errors.append(
                _("The column “%(field)s” is missing. Accepted names: %(names)s.")
                % {"field": _field_label(missing[0]), "names": _quoted(_ALIASES[missing[0]])}
            )
    return {field: indexes[0] for field, indexes in columns.items()}, errors


class _RowChecker:
    """Checks the lines of one file in order, remembering what earlier lines used."""

    def __init__(self, header: list[str], columns: dict[str, int], delimiter: str):
        self.header = header
        self.columns = columns
        self.width = len(header)  # the number of columns of the header row
        unnamed = [i for i, value in enumerate(header) if not value.strip()]
        self.unnamed = unnamed
        self.delimiter = delimiter
        self.start_numbers: dict[int, int] = {}
        self.ddv_numbers: dict[str, int] = {}
        self.names: dict[tuple[str, str], list[tuple[int, str]]] = {}

    def _value(self, record: list[str], field: str) -> str:
        index = self.columns.get(field)
        if index is None or index >= len(record):
            return ""
        return record[index].strip()

    def check(self, line: int, record: list[str]) -> ImportRow:
        errors: list[str] = []
        errors.extend(_control_characters(line, record, self.header))
        errors.extend(self._check_shape(line, record))
        first_name, last_name = self._names(line, record, errors)
        club = self._value(record, "club")
        ddv_number = self._value(record, "ddv_number")
        start_number = self._start_number(line, self._value(record, "start_number"), errors)

        if len(first_name) > MAX_FIRST_NAME:
            errors.append(
                _("Line %(line)d: the first name is longer than %(max)d characters.")
                % {"line": line, "max": MAX_FIRST_NAME}
            )
        if len(last_name) > MAX_LAST_NAME:
            errors.append(
                _("Line %(line)d: the last name is longer than %(max)d characters.")
                % {"line": line, "max": MAX_LAST_NAME}
            )
        if len(club) > MAX_CLUB:
            errors.append(
                _("Line %(line)d: the club is longer than %(max)d characters.")
                % {"line": line, "max": MAX_CLUB}
            )
        ddv_valid = self._check_ddv_number(line, ddv_number, errors)
        email = self._email(line, self._value(record, "email"), errors)

        if start_number is not None:
            if start_number in self.start_numbers:
                errors.append(
                    _(
                        "Line %(line)d: the start number %(number)d is already used in line %(other)d."
                    )
                    % {
                        "line": line,
                        "number": start_number,
                        "other": self.start_numbers[start_number],
                    }
                )
            else:
                self.start_numbers[start_number] = line
        if ddv_number and ddv_valid:
            if ddv_number in self.ddv_numbers:
                errors.append(
                    _("Line %(line)d: the DDV number %(number)s is already used in line %(other)d.")
                    % {"line": line, "number": ddv_number, "other": self.ddv_numbers[ddv_number]}
                )
            else:
                self.ddv_numbers[ddv_number] = line
        if first_name and last_name:
            self._check_name_repeated(line, first_name, last_name, ddv_number, errors)

        return ImportRow(
            line=line,
            first_name=first_name,
            last_name=last_name,
            club=club,
            ddv_number=ddv_number,
            start_number=start_number,
            errors=tuple(errors),
            email=email,
        )

    def _check_shape(self, line: int, record: list[str]):
        if any(value.strip() for value in record[self.width :]):
            yield _(
                "Line %(line)d: there are more values than columns in the header row. "
                "Put values containing “%(delimiter)s” in quotation marks."
            ) % {"line": line, "delimiter": _delimiter_label(self.delimiter)}
        for index in self.unnamed:
            if index < len(record) and record[index].strip():
                yield _(
                    "Line %(line)d: column %(column)d has no heading but holds “%(value)s”."
                ) % {
                    "line": line,
                    "column": index + 1,
                    "value": record[index].strip(),
                }

    def _names(self, line: int, record: list[str], errors: list[str]) -> tuple[str, str]:
        if _COMBINED in self.columns:
            combined = self._value(record, _COMBINED)
            if combined and "," not in combined:
                errors.append(
                    _(
                        "Line %(line)d: the name “%(name)s” has no comma; write it as "
                        "“Last name, First name”."
                    )
                    % {"line": line, "name": combined}
                )
                return "", combined
            last_name, _comma, first_name = combined.partition(",")
            first_name, last_name = first_name.strip(), last_name.strip()
        else:
            first_name = self._value(record, "first_name")
            last_name = self._value(record, "last_name")
        if not first_name:
            errors.append(_("Line %(line)d: the first name is missing.") % {"line": line})
        if not last_name:
            errors.append(_("Line %(line)d: the last name is missing.") % {"line": line})
        return first_name, last_name

    def _start_number(self, line: int, value: str, errors: list[str]) -> int | None:
        if not value:
            return None
        if not _ASCII_DIGITS.fullmatch(value) or int(value) < 1:
            errors.append(
                _("Line %(line)d: the start number “%(value)s” is not a whole number above 0.")
                % {"line": line, "value": value}
            )
            return None
        if int(value) > MAX_START_NUMBER:
            errors.append(
                _("Line %(line)d: the start number %(value)s is too large.")
                % {"line": line, "value": value}
            )
            return None
        return int(value)

    def _email(self, line: int, value: str, errors: list[str]) -> str:
        """The address, or blank; a message (and blank) for one that is not an address."""
        if not value:
            return ""
        if len(value) > MAX_EMAIL:
            errors.append(
                _("Line %(line)d: the e-mail address is longer than %(max)d characters.")
                % {"line": line, "max": MAX_EMAIL}
            )
            return ""
        try:
            validate_email(value)
        except ValidationError:
            errors.append(
                _("Line %(line)d: “%(value)s” is not an e-mail address.")
                % {"line": line, "value": value}
            )
            return ""
        return value

    def _check_ddv_number(self, line: int, value: str, errors: list[str]) -> bool:
        valid = True
        if value and not _ASCII_DIGITS.fullmatch(value):
            errors.append(
                _("Line %(line)d: the DDV number “%(value)s” may contain only digits.")
                % {"line": line, "value": value}
            )
            valid = False
        if len(value) > MAX_DDV_NUMBER:
            errors.append(
                _("Line %(line)d: the DDV number is longer than %(max)d characters.")
                % {"line": line, "max": MAX_DDV_NUMBER}
            )
            valid = False
        return valid

    def _check_name_repeated(
        self, line: int, first_name: str, last_name: str, ddv_number: str, errors: list[str]
    ) -> None:
        # lower(), not casefold(): “Weiss” and “Weiß” may well be two families
        key = (first_name.lower(), last_name.lower())
        earlier = self.names.setdefault(key, [])
        for other_line, other_ddv in earlier:
            if ddv_number and other_ddv and ddv_number != other_ddv:
                continue  # two players of the same name, told apart by their DDV numbers
            if ddv_number and ddv_number == other_ddv:
                break  # already reported as a repeated DDV number
            errors.append(
                _(
                    "Line %(line)d: the name “%(name)s” is already in line %(other)d. "
                    "If these are two different players, enter a DDV number for each."
                )
                % {"line": line, "name": f"{first_name} {last_name}", "other": other_line}
            )
            break
        earlier.append((line, ddv_number))


def size_error(size: int) -> str | None:
    """Why a file of ``size`` bytes is not read, naming the limit; None when it may be."""
    if size <= MAX_IMPORT_BYTES:
        return None
    return _(
        "The file is larger than %(limit)s, the most that can be imported at once. "
        "Split it into several files."
    ) % {"limit": filesizeformat(MAX_IMPORT_BYTES)}


def parse_players_csv(data: bytes, *, max_rows: int = MAX_IMPORT_ROWS) -> ImportPreview:
    """Read and check the players of a CSV file; see the module's documentation for the format.

    Problems of the whole file (encoding, header row, size) come back in ``errors`` with no rows;
    otherwise every non-empty line after the header row becomes an ``ImportRow`` with its own
    problems.
    """
    if max_rows < 1:
        raise ValueError("max_rows must be at least 1")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return _file_error(
            _(
                "The file is not in UTF-8 encoding. In Excel, save it as “CSV UTF-8”; in "
                "LibreOffice, choose the character set “Unicode (UTF-8)”. Then upload it again."
            )
        )
    text = unicodedata.normalize("NFC", text)
    if not text.strip():
        return _file_error(_("The file is empty."))

    delimiter = _detect_delimiter(text)
    reader = csv.reader(
        io.StringIO(text, newline=""),
        delimiter=delimiter,
        quotechar='"',
        doublequote=True,
        skipinitialspace=True,
        strict=False,
    )
    checker: _RowChecker | None = None
    rows: list[ImportRow] = []
    while True:
        line = reader.line_num + 1  # where the next record starts
        try:
            record = next(reader)
        except StopIteration:
            break
        except csv.Error:
            return _file_error(
                _("Line %(line)d cannot be read as CSV. Check that every quotation mark is closed.")
                % {"line": line},
                delimiter=delimiter,
            )
        if _is_blank(record):
            continue
        if checker is None:
            if errors := list(_control_characters(line, record, [])):
                return _file_error(*errors)
            columns, errors = _read_header(record)
            if errors:
                return _file_error(*errors, delimiter=delimiter if columns else "")
            checker = _RowChecker(record, columns, delimiter)
            continue
        if len(rows) == max_rows:
            return _file_error(
                ngettext(
                    "The file has more than %(max)d player. Split it into several files.",
                    "The file has more than %(max)d players. Split it into several files.",
                    max_rows,
                )
                % {"max": max_rows},
                delimiter=delimiter,
            )
        rows.append(checker.check(line, record))

    if checker is None:  # only blank lines and delimiters
        return _file_error(_("The file is empty."))
    if not rows:
        return _file_error(_("The file has a header row but no players."), delimiter=delimiter)
    return ImportPreview(rows=tuple(rows), errors=(), delimiter=delimiter)
