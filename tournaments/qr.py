"""QR codes for printed and shown links (level M error correction), in plain Python.

ReportLab's encoder (reportlab.graphics.barcode.qrencoder) chooses the version and writes the
data; the error correction and the choice among the eight masks are done here on rows of bits
instead of lists of booleans. The symbol is the very one ReportLab's encoder makes (the tests
compare them), about five times faster: a round of 500 scoresheets carries 500 codes.
"""

import functools
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape

from reportlab.graphics.barcode import qrencoder

QUIET_ZONE = 4  # modules of light margin on each side, as the standard asks


@dataclass(frozen=True)
class _QrLayout:
    """What every QR code of one version shares (error correction level M): per row, as bits
    of an int (the leftmost module the highest bit), the function patterns with blank format
    information (as ReportLab's encoder scores the masks) and with each mask's real one, the
    modules that carry data, and each mask over them."""

    size: int
    data_bits: list[tuple[int, int]]  # per data module in the encoder's order: row, bit
    scoring_base: list[int]
    base: list[list[int]]  # per mask
    masks: list[list[int]]  # per mask


def _row_bits(row: Iterable[bool]) -> int:
    value = 0
    for dark in row:
        value = value << 1 | bool(dark)
    return value


@functools.cache
def _qr_layout(version: int) -> _QrLayout:
    code = qrencoder.QRCode(version, qrencoder.QRErrorCorrectLevel.M)
    blocks = qrencoder.QRRSBlock.getRSBlocks(version, code.errorCorrectLevel)
    code.dataCache = [0] * sum(block.totalCount for block in blocks)  # all light: masks only
    code.makeImpl(True, 0)
    size = code.moduleCount
    positions = code.dataPosIterator()
    data_rows = [0] * size
    for column, row in positions:
        data_rows[row] |= 1 << (size - 1 - column)
    scoring, final = [], []
    for mask in range(8):
        code.makeImpl(True, mask)
        scoring.append([_row_bits(row) for row in code.modules])
        code.makeImpl(False, mask)
        final.append([_row_bits(row) for row in code.modules])
    return _QrLayout(
        size=size,
        data_bits=[(row, 1 << (size - 1 - column)) for column, row in positions],
        scoring_base=[row & ~data for row, data in zip(scoring[0], data_rows, strict=True)],
        base=[[row & ~data for row, data in zip(rows, data_rows, strict=True)] for rows in final],
        masks=[[row & data for row, data in zip(rows, data_rows, strict=True)] for rows in scoring],
    )


_RUN = re.compile(r"0{5,}|1{5,}")
_FINDER_LIKE = "10111010000"


def _lost_points(rows: list[int], size: int) -> int:
    """ReportLab's penalty of a masked symbol (qrencoder.QRUtil.getLostPoint), on rows of bits.

    As there: runs of five or more in rows and columns; 2 × 2 blocks of one colour; the finder-
    like pattern in rows only (the encoder compares each column, a tuple, with a list, which is
    never equal), not overlapping and not at the last place; the balance of dark and light.
    """
    lines = [format(row, f"0{size}b") for row in rows]
    columns = ["".join(column) for column in zip(*lines, strict=True)]
    score = sum(len(run) - 2 for run in _RUN.findall("|".join(lines + columns)))
    full = (1 << size) - 1
    for upper, lower in itertools.pairwise(rows):
        same = ~(upper ^ lower) & full
        score += 3 * (same & same >> 1 & ~(upper ^ upper >> 1) & full >> 1).bit_count()
    last = size - len(_FINDER_LIKE)
    for line in lines:
        start = line.find(_FINDER_LIKE)
        while 0 <= start < last:
            score += 40
            start = line.find(_FINDER_LIKE, start + len(_FINDER_LIKE))
    dark = sum(row.bit_count() for row in rows)
    return score + 10 * (abs(100 * dark // (size * size) - 50) // 5)


@functools.cache
def _generator_logs(count: int) -> list[int]:
    """The Reed-Solomon generator polynomial of ``count`` error correction codewords, without
    its leading 1, as logarithms in GF(256) (qrencoder.QRUtil.getErrorCorrectPolynomial)."""
    polynomial = qrencoder.QRUtil.getErrorCorrectPolynomial(count)
    return [qrencoder.QRMath.glog(polynomial.get(index)) for index in range(1, count + 1)]


def _codewords(version: int, code: qrencoder.QRCode) -> list[int]:
    """The data and error correction codewords of ``code``, interleaved, as the encoder's
    createData makes them, with the generator polynomials made once."""
    blocks = qrencoder.QRRSBlock.getRSBlocks(version, code.errorCorrectLevel)
    buffer = qrencoder.QRBitBuffer()
    for data in code.dataList:
        data.write(buffer, version)
    capacity = 8 * sum(block.dataCount for block in blocks)
    if buffer.getLengthInBits() > capacity:
        raise ValueError("too long for a QR code")
    if buffer.getLengthInBits() + 4 <= capacity:
        buffer.put(0, 4)
    while buffer.getLengthInBits() % 8:
        buffer.putBit(False)
    pad = itertools.cycle([qrencoder.QRCode.PAD0, qrencoder.QRCode.PAD1])
    while buffer.getLengthInBits() < capacity:
        buffer.put(next(pad), 8)
    exp, log = qrencoder.EXP_TABLE, qrencoder.LOG_TABLE
    data_blocks, ec_blocks, offset = [], [], 0
    for block in blocks:
        data = buffer.buffer[offset : offset + block.dataCount]
        offset += block.dataCount
        generator = _generator_logs(block.totalCount - block.dataCount)
        remainder = [0] * len(generator)
        for byte in data:
            factor = byte ^ remainder[0]
            remainder = [*remainder[1:], 0]
            if factor:
                shift = log[factor]
                remainder = [
                    value ^ exp[(shift + term) % 255]
                    for value, term in zip(remainder, generator, strict=True)
                ]
        data_blocks.append(data)
        ec_blocks.append(remainder)
    return [
        value
        for group in itertools.chain(
            itertools.zip_longest(*data_blocks), itertools.zip_longest(*ec_blocks)
        )
        for value in group
        if value is not None
    ]


def qr_rows(value: str) -> list[str]:
    """The QR code of ``value`` as rows of "0" (light) and "1" (dark): the very symbol that
    ReportLab's encoder makes (level M, the same mask), several times faster. The encoder
    chooses the version and writes the data; the error correction and the eight masks are
    tried here on rows of bits instead of lists of booleans."""
    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(value)
    version = code.calculate_version()
    layout = _qr_layout(version)
    rows = [0] * layout.size
    bits = "".join(format(byte, "08b") for byte in _codewords(version, code))
    for (row, bit), dark in zip(layout.data_bits, bits, strict=False):
        if dark == "1":
            rows[row] |= bit
    best, best_mask = None, 0
    for mask, masked in enumerate(layout.masks):
        symbol = [
            base | data ^ over
            for base, data, over in zip(layout.scoring_base, rows, masked, strict=True)
        ]
        lost = _lost_points(symbol, layout.size)
        if best is None or lost < best:
            best, best_mask = lost, mask
    return [
        format(base | data ^ over, f"0{layout.size}b")
        for base, data, over in zip(
            layout.base[best_mask], rows, layout.masks[best_mask], strict=True
        )
    ]


_DARK = re.compile("1+")


def dark_runs(rows: list[str]) -> list[tuple[int, int, int]]:
    """The dark runs of a symbol with its quiet zone, as (x, y, length) in modules from the
    bottom left corner (PDF's way up): each is a rectangle of height one."""
    count = len(rows)
    return [
        (QUIET_ZONE + run.start(), count + QUIET_ZONE - 1 - index, run.end() - run.start())
        for index, row in enumerate(rows)
        for run in _DARK.finditer(row)
    ]


def pdf_operators(rows: list[str]) -> str:
    """The symbol as PDF operators in units of one module: one filled path of its dark runs,
    several times faster to draw than a shape per module."""
    return "\n".join([*(f"{x} {y} {length} 1 re" for x, y, length in dark_runs(rows)), "f"])


def svg(rows: list[str], size: int, *, labelled_by: str) -> str:
    """The symbol as an SVG element ``size`` pixels wide: one path of its dark runs. An image
    that the element of id ``labelled_by`` names for a screen reader (WCAG 1.1.1)."""
    count = len(rows) + 2 * QUIET_ZONE
    top = len(rows) + 2 * QUIET_ZONE - 1
    path = "".join(f"M{x} {top - y}h{length}v1h-{length}z" for x, y, length in dark_runs(rows))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {count} {count}" shape-rendering="crispEdges" role="img" '
        f'aria-labelledby="{escape(labelled_by)}">'
        f'<rect width="{count}" height="{count}" fill="#fff"/><path d="{path}" fill="#000"/></svg>'
    )
