"""The fast QR encoder makes the very symbol ReportLab's encoder makes."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.graphics.barcode import qrencoder

from tournaments import qr


def reportlab_rows(value: str) -> list[str]:
    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(value)
    code.make()
    return ["".join("1" if dark else "0" for dark in row) for row in code.modules]


@pytest.mark.parametrize(
    "value",
    [
        "a",
        "http://127.0.0.1:8000/s/" + "x" * 32 + "/",
        "https://turnier.example.org/s/Zk3_Qp9-aLm2N8vWc4RtYb7XhJ0eUiOs/",
        "https://turnier.example.org/tournaments/deutsche-meisterschaft/rounds/12/tables/137/",
        "Ü" * 40,
        "7" * 300,
    ],
)
def test_the_same_symbol_as_reportlab(value):
    assert qr.qr_rows(value) == reportlab_rows(value)


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=120))
def test_the_same_symbol_as_reportlab_for_any_text(value):
    """The same symbol, or the same refusal: ReportLab's encoder itself cannot encode some texts
    (a trailing newline makes it pick the alphanumeric mode, which has no newline)."""
    try:
        expected = reportlab_rows(value)
    except ValueError as refused:
        with pytest.raises(ValueError, match=re.escape(str(refused))):
            qr.qr_rows(value)
        return
    assert qr.qr_rows(value) == expected


def test_too_long_for_a_code_is_refused():
    with pytest.raises(ValueError, match="too long"):
        qr.qr_rows("x" * 5000)


def test_the_runs_cover_exactly_the_dark_modules():
    rows = qr.qr_rows("http://127.0.0.1:8000/s/abc/")
    size = len(rows)
    dark = set()
    for x, y, length in qr.dark_runs(rows):
        for column in range(x, x + length):
            dark.add((column - qr.QUIET_ZONE, size + qr.QUIET_ZONE - 1 - y))
    expected = {
        (column, row)
        for row, line in enumerate(rows)
        for column, module in enumerate(line)
        if module == "1"
    }
    assert dark == expected


def test_svg_is_one_path_in_a_square():
    rows = qr.qr_rows("http://127.0.0.1:8000/s/abc/")
    svg = qr.svg(rows, 120, labelled_by="qr-label")
    side = len(rows) + 2 * qr.QUIET_ZONE
    assert f'viewBox="0 0 {side} {side}"' in svg
    assert 'width="120"' in svg
    assert svg.count("<path") == 1
    assert len(re.findall("M", svg)) == len(qr.dark_runs(rows))
