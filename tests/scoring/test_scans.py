"""The signed sheet's photo or scan as it is stored (scoring/scans.py): told by its content,
stripped of its metadata, refused with the reason on ``file`` when it is no file to keep."""

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image
from pypdf import PdfReader

from scoring import scans
from scoring.models import SCAN_MAX_BYTES
from tests.scans import AUTHOR, CAMERA, GPS, jpeg, padded_jpeg, pdf, png, upload


def refusal(data, **kwargs) -> str:
    with pytest.raises(ValidationError) as caught:
        scans.scan_clean(upload(data, **kwargs) if data is not None else None)
    assert list(caught.value.message_dict) == ["file"]
    return caught.value.message_dict["file"][0]


# What is kept -----------------------------------------------------------------------------------


def test_a_photo_keeps_its_pixels_and_loses_its_gps_position_and_camera():
    original = jpeg()
    assert CAMERA.split()[0].encode() in original
    assert Image.open(io.BytesIO(original)).getexif().get_ifd(GPS)
    stored = scans.scan_clean(upload(original))
    assert stored.content_type == "image/jpeg"
    picture = Image.open(io.BytesIO(stored.content))
    assert picture.format == "JPEG"
    assert picture.size == (40, 20)
    assert dict(picture.getexif()) == {}
    assert "icc_profile" not in picture.info
    assert "comment" not in picture.info
    for text in (CAMERA.split()[0], AUTHOR, "Exif", "icc-profile"):
        assert text.encode() not in stored.content
    assert picture.getpixel((20, 10))[0] > 240  # still red


def test_a_photo_taken_sideways_is_stored_upright():
    # Orientation 6: the camera was turned, and a viewer turns the picture by 90°.
    stored = scans.scan_clean(upload(jpeg(size=(40, 20), orientation=6)))
    picture = Image.open(io.BytesIO(stored.content))
    assert picture.size == (20, 40)
    assert dict(picture.getexif()) == {}  # nothing left to turn it again


def test_a_png_stays_a_png_without_its_text_xmp_and_exif():
    original = png()
    assert AUTHOR.encode() in original
    stored = scans.scan_clean(upload(original, name="sheet.png", content_type="image/png"))
    assert stored.content_type == "image/png"
    picture = Image.open(io.BytesIO(stored.content))
    assert (picture.format, picture.size, picture.info) == ("PNG", (30, 10), {})
    assert AUTHOR.encode() not in stored.content
    assert CAMERA.split()[0].encode() not in stored.content


def test_a_palette_png_keeps_its_transparency():
    output = io.BytesIO()
    Image.new("P", (8, 8)).save(output, "PNG", transparency=0)
    stored = scans.scan_clean(upload(output.getvalue()))
    assert Image.open(io.BytesIO(stored.content)).info == {"transparency": 0}


def test_a_cmyk_jpeg_is_stored_as_an_rgb_jpeg():
    output = io.BytesIO()
    Image.new("CMYK", (8, 8)).save(output, "JPEG")
    stored = scans.scan_clean(upload(output.getvalue()))
    assert Image.open(io.BytesIO(stored.content)).mode == "RGB"


def test_a_pdf_loses_its_document_information_xmp_annotations_and_script():
    original = pdf(pages=2)
    assert AUTHOR.encode() in original
    stored = scans.scan_clean(upload(original, name="scan.pdf", content_type="application/pdf"))
    assert stored.content_type == "application/pdf"
    for text in (AUTHOR, CAMERA, "/Author", "/Metadata", "/Annots", "JavaScript", "pypdf"):
        assert text.encode() not in stored.content, text
    reader = PdfReader(io.BytesIO(stored.content))
    assert reader.metadata is None
    assert reader.xmp_metadata is None
    assert len(reader.pages) == 2


def test_a_pdf_keeps_the_photo_on_its_page_without_the_photos_exif():
    original = pdf()
    assert CAMERA.split()[0].encode() in original  # the camera's photo, put in as it was
    stored = scans.scan_clean(upload(original))
    assert CAMERA.split()[0].encode() not in stored.content
    (photo,) = PdfReader(io.BytesIO(stored.content)).pages[0].images
    assert photo.image.size == (40, 20)


def test_a_jpeg_loses_exif_and_comments_but_keeps_its_picture_untouched():
    original = jpeg()
    stripped = scans.jpeg_without_metadata(original)
    assert len(stripped) < len(original)
    assert CAMERA.split()[0].encode() not in stripped
    assert AUTHOR.encode() not in stripped
    assert stripped.endswith(original[original.index(b"\xff\xda") :])  # the picture, as it was
    assert Image.open(io.BytesIO(stripped)).size == (40, 20)
    assert scans.jpeg_without_metadata(b"no jpeg") == b"no jpeg"


def test_the_type_is_told_by_the_content_not_by_the_name_or_the_clients_type():
    stored = scans.scan_clean(upload(png(), name="sheet.pdf", content_type="application/pdf"))
    assert stored.content_type == "image/png"
    assert stored.extension == "png"


def test_a_file_of_exactly_ten_megabytes_is_taken():
    stored = scans.scan_clean(upload(padded_jpeg(SCAN_MAX_BYTES)))
    assert stored.content_type == "image/jpeg"
    assert len(stored.content) < 10_000  # the padding was comments, which are not kept


# What is refused, and why ------------------------------------------------------------------------


def test_no_file_is_refused():
    assert refusal(None) == (
        "Choose a photo or a scan of the signed scoresheet: a JPEG, PNG or PDF file."
    )


def test_an_empty_file_is_refused():
    assert refusal(b"") == "The file is empty."


def test_a_file_a_byte_over_ten_megabytes_is_refused_naming_the_limit():
    assert refusal(padded_jpeg(SCAN_MAX_BYTES + 1)).startswith(
        "The file is larger than 10.0\xa0MB."
    )


def test_a_file_that_claims_more_than_it_holds_is_refused_by_what_it_claims():
    claimed = SimpleUploadedFile("x.jpg", jpeg())
    claimed.size = SCAN_MAX_BYTES + 1
    with pytest.raises(ValidationError, match="larger than"):
        scans.scan_clean(claimed)


@pytest.mark.parametrize(
    "data",
    [
        b"Vorname;Nachname\nAnna;Berg\n",
        b"<html><script>alert(1)</script></html>",
        b"GIF89a" + b"\x00" * 20,
        b"\x00\x00\x00\x18ftypheic",  # a HEIC photo of an iPhone
    ],
    ids=["csv", "html", "gif", "heic"],
)
def test_another_type_is_refused_whatever_its_name(data):
    assert refusal(data, name="sheet.jpg", content_type="image/jpeg").startswith(
        "This is not a JPEG, PNG or PDF file."
    )


@pytest.mark.parametrize(
    "data",
    [
        b"\xff\xd8\xff\xe0" + b"\x00" * 40,  # a JPEG's start, then nothing
        jpeg()[:300],  # cut off
        png()[:60],
        b"\x89PNG\r\n\x1a\n" + b"garbage" * 10,
    ],
    ids=["jpeg-header-only", "jpeg-cut", "png-cut", "png-garbage"],
)
def test_a_damaged_picture_is_refused(data):
    assert refusal(data).startswith("The picture cannot be read")


def test_a_decompression_bomb_is_refused_before_it_is_decoded():
    # 10,000 × 10,000 one-bit pixels compress to a few kilobytes; decoded, 100 million pixels,
    # past Pillow's MAX_IMAGE_PIXELS (89 million).
    output = io.BytesIO()
    Image.new("1", (10_000, 10_000)).save(output, "PNG")
    assert len(output.getvalue()) < 100_000
    assert refusal(output.getvalue()).startswith("The picture has too many pixels")


def test_the_limit_of_pixels_is_pillows(monkeypatch):
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 40 * 20 - 1)
    assert refusal(jpeg(size=(40, 20))).startswith("The picture has too many pixels")


def test_an_encrypted_pdf_is_refused():
    assert refusal(pdf(password="secret")).startswith("The PDF is encrypted")


@pytest.mark.parametrize(
    "data",
    [b"%PDF-1.7\n" + b"x" * 100, pdf()[:200], b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\n"],
    ids=["junk", "cut", "no-pages"],
)
def test_a_broken_pdf_is_refused(data):
    assert refusal(data).startswith("The PDF cannot be read")


def test_a_pdf_of_too_many_pages_is_refused():
    assert refusal(pdf(pages=scans.SCAN_MAX_PAGES + 1)) == (
        "The PDF has 11 pages; a scan of a scoresheet has at most 10."
    )


def test_a_refusal_is_told_in_german():
    from django.utils import translation

    with translation.override("de"):
        assert refusal(b"hello").startswith("Das ist keine JPEG-, PNG- oder PDF-Datei.")


# The upload as it arrives -----------------------------------------------------------------------


def test_the_upload_handler_keeps_no_more_than_the_limit_and_a_byte_and_counts_the_rest():
    handler = scans.ScanUploadHandler()
    handler.new_file("file", "sheet.jpg", "image/jpeg", None)
    chunk = b"x" * (1024 * 1024)
    for start in range(0, 12 * len(chunk), len(chunk)):
        handler.receive_data_chunk(chunk, start)
    received = handler.file_complete(12 * len(chunk))
    assert received.size == 12 * len(chunk)
    assert len(received.read()) == SCAN_MAX_BYTES + 1
    received.close()


def test_the_upload_handler_drops_other_files_and_a_second_one():
    handler = scans.ScanUploadHandler()
    received = []
    for field, data in (("other", b"a"), ("file", b"kept"), ("file", b"second")):
        handler.new_file(field, "a.jpg", "image/jpeg", None)
        handler.receive_data_chunk(data, 0)
        received.append(handler.file_complete(len(data)))
    assert received[0] is None
    assert received[2] is None
    assert received[1].read() == b"kept"
    received[1].close()
