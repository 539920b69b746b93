"""Photos and scans of a signed scoresheet for tests, made with Pillow and pypdf: no binary
fixtures. Each carries the metadata a phone or a scanner app writes, so that a test can show
it is gone."""

import io

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, PngImagePlugin
from pypdf import PdfWriter
from pypdf.generic import (
    ArrayObject,
    DictionaryObject,
    NameObject,
    NumberObject,
    StreamObject,
    TextStringObject,
)

AUTHOR = "Anna Author"
CAMERA = "Phonemaker Model 7"
# EXIF tags: the picture's orientation, the camera's make and model, the GPS block.
ORIENTATION, MAKE, MODEL, GPS = 0x0112, 0x010F, 0x0110, 0x8825
# Bottom left at 52°31' N, 13°24' E: where the picture was taken.
WHERE = {1: "N", 2: (52.0, 31.0, 0.0), 3: "E", 4: (13.0, 24.0, 0.0)}


def _exif(*, orientation: int | None = None) -> Image.Exif:
    exif = Image.Exif()
    exif[MAKE], exif[MODEL] = CAMERA.split(" ", 1)
    exif[GPS] = WHERE
    if orientation is not None:
        exif[ORIENTATION] = orientation
    return exif


def jpeg(*, size=(40, 20), orientation: int | None = None, colour="red") -> bytes:
    """A phone's photo: EXIF with the camera and the GPS position, a comment, an ICC profile."""
    output = io.BytesIO()
    Image.new("RGB", size, colour).save(
        output,
        "JPEG",
        exif=_exif(orientation=orientation),
        comment=f"taken by {AUTHOR}".encode(),
        icc_profile=b"icc-profile-of-" + CAMERA.encode(),
    )
    return output.getvalue()


def png(*, size=(30, 10), mode="RGB") -> bytes:
    """A screenshot: EXIF with the GPS position, text and XMP chunks naming its author."""
    info = PngImagePlugin.PngInfo()
    info.add_text("Author", AUTHOR)
    info.add_itxt("XML:com.adobe.xmp", f"<x:xmpmeta>{AUTHOR}</x:xmpmeta>")
    output = io.BytesIO()
    Image.new(mode, size).save(output, "PNG", pnginfo=info, exif=_exif())
    return output.getvalue()


def padded_jpeg(total: int) -> bytes:
    """A JPEG of exactly ``total`` bytes, filled up with comment segments (which the stored
    file does not keep)."""
    data = jpeg()
    pad = total - len(data)
    segments = []
    while pad > 0:
        length = min(pad, 65537)  # marker (2) and length (2) and at most 65533 bytes
        if 0 < pad - length < 4:
            length -= 4  # leave room for a last segment
        segments.append(b"\xff\xfe" + (length - 2).to_bytes(2, "big") + b"x" * (length - 4))
        pad -= length
    assert pad == 0, "too small to pad"
    padded = data[:2] + b"".join(segments) + data[2:]
    assert len(padded) == total
    return padded


def _stream(writer: PdfWriter, data: bytes, **entries) -> object:
    stream = StreamObject()
    stream.set_data(data)
    stream.update({NameObject(k): NameObject(v) for k, v in entries.items()})
    return writer._add_object(stream)


def _content(data: bytes) -> StreamObject:
    stream = StreamObject()
    stream.set_data(data)
    return stream


def pdf(*, pages: int = 1, password: str | None = None) -> bytes:
    """A scanner app's PDF: document information (author, creator), XMP metadata for the
    document and a page, a link annotation, a script run on opening, and the camera's photo
    with its EXIF on the first page."""
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(595, 842)
    writer.add_metadata({"/Author": AUTHOR, "/Creator": CAMERA})
    root = writer._root_object
    root[NameObject("/Metadata")] = _stream(
        writer, f"<x:xmpmeta>{AUTHOR}</x:xmpmeta>".encode(), **{"/Type": "/Metadata"}
    )
    root[NameObject("/OpenAction")] = DictionaryObject(
        {
            NameObject("/S"): NameObject("/JavaScript"),
            NameObject("/JS"): TextStringObject("app.alert('hello')"),
        }
    )
    page = writer.pages[0]
    page[NameObject("/Metadata")] = _stream(writer, f"<page>{AUTHOR}</page>".encode())
    link = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Annot"),
            NameObject("/Subtype"): NameObject("/Link"),
            NameObject("/Rect"): ArrayObject([NumberObject(n) for n in (0, 0, 10, 10)]),
        }
    )
    page[NameObject("/Annots")] = ArrayObject([writer._add_object(link)])
    # The camera's photo put in as it is (with its EXIF), and drawn across the page.
    photo = StreamObject()
    photo._data = jpeg()
    for name, value in {"/Type": "/XObject", "/Subtype": "/Image", "/Filter": "/DCTDecode"}.items():
        photo[NameObject(name)] = NameObject(value)
    photo.update(
        {
            NameObject("/Width"): NumberObject(40),
            NameObject("/Height"): NumberObject(20),
            NameObject("/ColorSpace"): NameObject("/DeviceRGB"),
            NameObject("/BitsPerComponent"): NumberObject(8),
        }
    )
    page[NameObject("/Resources")] = DictionaryObject(
        {NameObject("/XObject"): DictionaryObject({NameObject("/Im0"): writer._add_object(photo)})}
    )
    page.replace_contents(writer._add_object(_content(b"q 595 0 0 842 0 0 cm /Im0 Do Q")))
    if password is not None:
        writer.encrypt(password, algorithm="RC4-128")
    output = io.BytesIO()
    writer.write(output)
    return output.getvalue()


def upload(data: bytes, name: str = "sheet.jpg", content_type: str = "image/jpeg"):
    """The file as a browser sends it; its name and type say nothing the server believes."""
    return SimpleUploadedFile(name, data, content_type=content_type)
