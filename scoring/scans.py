"""The photo or scan of a table's signed paper scoresheet (TSR 7.3.4, 8.5.2): which files are
taken, how they are cleaned before they are stored, and how they are read back.

- **Taken**: JPEG, PNG and PDF, told by their first bytes (never by the name or the type the
  client claims), of at most ``SCAN_MAX_BYTES`` (10 MB). Anything else is refused with a 400
  on ``file`` that says what is wrong.
- **Cleaned**: a picture is decoded and written again with Pillow, turned upright as its EXIF
  orientation says, and nothing but its pixels kept: no EXIF (so no GPS position, camera or
  time), no XMP, no comment, no colour profile. A JPEG stays a JPEG (quality 90), a PNG a PNG.
  A picture of more pixels than Pillow's ``MAX_IMAGE_PIXELS`` (89 million: a decompression bomb,
  or a photo far beyond any phone's) is refused before it is decoded. A PDF is written again
  with pypdf, page by page, without its document information (author, creator, dates), its XMP
  metadata, and what a page may carry besides what it shows (annotations, actions, its own
  metadata), and without the metadata of the pictures on its pages (a JPEG's EXIF among
  them); one that is encrypted, broken or longer than ``SCAN_MAX_PAGES`` pages is refused.
- **Read back** only through views that check who asks (``scan_response``): never from a public
  ``MEDIA_URL``.

Uploads are received by ``ScanUploadHandler``, which keeps at most one file of at most the limit
and a byte (on disk, never in memory) and counts the rest, so that a body of gigabytes fills no
disk and is still told apart from one a byte too large.
"""

import hashlib
import io
import warnings
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.files.uploadhandler import TemporaryFileUploadHandler
from django.http import FileResponse, HttpRequest, HttpResponseBase
from django.template.defaultfilters import filesizeformat
from django.utils.cache import get_conditional_response
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from PIL import Image, ImageOps, UnidentifiedImageError
from pypdf import PdfReader, PdfWriter
from pypdf.errors import PyPdfError
from pypdf.generic import DictionaryObject, StreamObject

from scoring.models import SCAN_MAX_BYTES, ScoresheetScan

JPEG, PNG, PDF = ScoresheetScan.Kind.JPEG, ScoresheetScan.Kind.PNG, ScoresheetScan.Kind.PDF
FIELD = "file"  # the form's and the API's field
# A scoresheet is a page or two; a scan of more is not one.
SCAN_MAX_PAGES = 10
JPEG_QUALITY = 90
# What a page of a PDF keeps: what it shows. Annotations (links, form fields, stamps), actions
# run on opening or closing it, and its own metadata are dropped.
PAGE_DROPS = ("/Annots", "/AA", "/Metadata", "/PieceInfo", "/Thumb")
EXTENSIONS: dict[str, str] = {JPEG: "jpg", PNG: "png", PDF: "pdf"}


@dataclass(frozen=True)
class CleanScan:
    """A file as it is stored: cleaned of metadata, its type told by its content."""

    content: bytes
    content_type: str

    @property
    def extension(self) -> str:
        return EXTENSIONS[self.content_type]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.content).hexdigest()


def _refuse(message: str) -> ValidationError:
    return ValidationError({FIELD: message})


def _too_large() -> ValidationError:
    return _refuse(
        _(
            "The file is larger than %(limit)s. Take the photo again at a lower resolution, or "
            "scan the sheet with fewer dots per inch."
        )
        % {"limit": filesizeformat(SCAN_MAX_BYTES)}
    )


def content_type_of(data: bytes) -> str | None:
    """JPEG, PNG or PDF by the file's first bytes (its signature); None for anything else."""
    if data.startswith(b"\xff\xd8\xff"):
        return JPEG
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return PNG
    # A PDF's header may follow a little junk (the PDF reference allows 1024 bytes of it).
    if b"%PDF-" in data[:1024]:
        return PDF
    return None


def scan_clean(upload) -> CleanScan:
    """The uploaded file (a Django ``UploadedFile``, or None when none was sent), checked and
    cleaned as the module says; raises ``ValidationError`` on ``file`` with the reason."""
    if upload is None:
        raise _refuse(
            _("Choose a photo or a scan of the signed scoresheet: a JPEG, PNG or PDF file.")
        )
    if upload.size > SCAN_MAX_BYTES:
        raise _too_large()
    upload.seek(0)
    data = upload.read(SCAN_MAX_BYTES + 1)
    if not data:
        raise _refuse(_("The file is empty."))
    if len(data) > SCAN_MAX_BYTES:
        raise _too_large()
    content_type = content_type_of(data)
    if content_type is None:
        raise _refuse(
            _(
                "This is not a JPEG, PNG or PDF file. Take a photo of the signed scoresheet, or "
                "scan it as a PDF."
            )
        )
    content = _pdf(data) if content_type == PDF else _picture(data, content_type)
    if len(content) > SCAN_MAX_BYTES:
        # Written again, a file can grow (a JPEG saved at a low quality, say).
        raise _refuse(
            _(
                "Stored without its metadata, the file would be larger than %(limit)s. Take the "
                "photo again at a lower resolution."
            )
            % {"limit": filesizeformat(SCAN_MAX_BYTES)}
        )
    return CleanScan(content=content, content_type=content_type)


def _unreadable_picture() -> ValidationError:
    return _refuse(
        _("The picture cannot be read: the file is damaged or incomplete. Upload it again.")
    )


def _picture(data: bytes, content_type: str) -> bytes:
    """The picture written again with its pixels only, upright, in its own format."""
    limit = Image.MAX_IMAGE_PIXELS
    try:
        with warnings.catch_warnings():
            # Pillow warns of a picture past its limit and refuses one of twice it: both are
            # refused here, before a pixel is decoded.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
                if limit is not None and width * height > limit:
                    raise Image.DecompressionBombError
                # Phones write JPEGs with a second picture (a depth map, a preview) as MPO.
                if image.format not in ({"JPEG", "MPO"} if content_type == JPEG else {"PNG"}):
                    raise _unreadable_picture()
                image.seek(0)
                upright = ImageOps.exif_transpose(image)  # decodes the pixels
                upright.load()
                return _encoded(upright, content_type)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise _refuse(
            _(
                "The picture has too many pixels to be a photo of a scoresheet (at most "
                "%(limit)d million). Take it again at a lower resolution."
            )
            % {"limit": (limit or 0) // 1_000_000}
        ) from error
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError) as error:
        # Pillow's ways of saying that the data ends early or is no picture of its kind.
        raise _unreadable_picture() from error


def _encoded(image: Image.Image, content_type: str) -> bytes:
    """The pixels of ``image`` in a new file: no EXIF, XMP, comment or colour profile; a
    palette's transparency stays, as it is part of what the picture shows."""
    transparency = image.info.get("transparency")
    image.info = {} if transparency is None else {"transparency": transparency}
    output = io.BytesIO()
    if content_type == JPEG:
        if image.mode not in ("RGB", "L"):
            image = image.convert("RGB")  # CMYK, or a palette from exif_transpose
        image.save(output, format="JPEG", quality=JPEG_QUALITY)
    else:
        image.save(output, format="PNG")
    return output.getvalue()


def _unreadable_pdf() -> ValidationError:
    return _refuse(
        _("The PDF cannot be read: the file is damaged or incomplete. Scan or upload it again.")
    )


def _pdf(data: bytes) -> bytes:
    """The PDF's pages in a new document, without its document information, its XMP metadata
    and what its pages carry besides what they show (``PAGE_DROPS``)."""
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise _refuse(
                _("The PDF is encrypted (protected by a password). Scan the sheet again without.")
            )
        count = len(reader.pages)
        if count == 0:
            raise _unreadable_pdf()
        if count > SCAN_MAX_PAGES:
            raise _refuse(
                ngettext(
                    "The PDF has %(count)d page; a scan of a scoresheet has at most %(limit)d.",
                    "The PDF has %(count)d pages; a scan of a scoresheet has at most %(limit)d.",
                    count,
                )
                % {"count": count, "limit": SCAN_MAX_PAGES}
            )
        writer = PdfWriter()
        for page in reader.pages:
            for name in PAGE_DROPS:  # before the page is copied, or what it names comes along
                page.pop(name, None)
            _images_cleaned(page.get("/Resources"))
            writer.add_page(page)
        writer.metadata = None  # no document information at all, not even pypdf's Producer
        output = io.BytesIO()
        writer.write(output)
    except ValidationError:
        raise
    except (PyPdfError, RecursionError, OSError, ValueError, KeyError, TypeError) as error:
        # A broken PDF fails in pypdf in any of these ways; none of them is ours.
        raise _unreadable_pdf() from error
    return output.getvalue()


def _images_cleaned(resources, depth: int = 0) -> None:
    """The pictures a page shows, without their own metadata: an image's XMP stream, and a
    JPEG's EXIF, XMP and comments (a scanner app may put the camera's photo in as it is).
    Forms drawn on the page are pictures' containers too, a few levels deep."""
    resources = resources.get_object() if resources is not None else None
    if not isinstance(resources, DictionaryObject) or depth > 3:
        return
    objects = resources.get("/XObject")
    objects = objects.get_object() if objects is not None else None
    if not isinstance(objects, DictionaryObject):
        return
    for reference in objects.values():
        item = reference.get_object()
        if not isinstance(item, StreamObject):
            continue
        item.pop("/Metadata", None)
        if item.get("/Subtype") == "/Form":
            _images_cleaned(item.get("/Resources"), depth + 1)
        elif item.get("/Filter") in ("/DCTDecode", ["/DCTDecode"]):
            # The stream's own bytes are the JPEG file: set as they are, not encoded again.
            item._data = jpeg_without_metadata(item._data)


# The segments of a JPEG kept before its picture: all but APP1 to APP13 and APP15 (EXIF, XMP,
# a camera's own data, colour profiles: none needed to show it) and comments. APP0 (JFIF) and
# APP14 (Adobe: how to read its colours) stay.
DROPPED_SEGMENTS = {*range(0xE1, 0xEE), 0xEF, 0xFE}


def jpeg_without_metadata(data: bytes) -> bytes:
    """A JPEG file without its metadata segments, its picture untouched (no quality lost);
    as it is where it is no JPEG that can be read so far."""
    if not data.startswith(b"\xff\xd8"):
        return data
    kept, index = [data[:2]], 2
    while index + 4 <= len(data):
        if data[index] != 0xFF:
            return data  # no marker where one must be: not read, not changed
        marker = data[index + 1]
        if marker == 0xFF:  # a fill byte
            index += 1
            continue
        if marker == 0xDA:  # start of scan: the rest is the picture
            kept.append(data[index:])
            return b"".join(kept)
        end = index + 2 + int.from_bytes(data[index + 2 : index + 4], "big")
        if marker not in DROPPED_SEGMENTS:
            kept.append(data[index:end])
        index = end
    return data


class ScanUploadHandler(TemporaryFileUploadHandler):
    """Receives the one file of an upload (field ``file``) into a temporary file on disk, and
    no more of it than the limit and a byte: the rest is counted, not kept, so the size the
    file reports is what was sent. Other files of the request are read past and dropped (not
    skipped: Django closes every handler's file on a skip, the kept one too)."""

    def __init__(self, request=None):
        super().__init__(request)
        self.received = False  # the file is being received, or was
        self.keeping = False  # the file being received is the one kept

    def new_file(self, field_name, *args, **kwargs):
        self.keeping = field_name == FIELD and not self.received
        if self.keeping:
            self.received = True
            super().new_file(field_name, *args, **kwargs)

    def receive_data_chunk(self, raw_data, start):
        room = SCAN_MAX_BYTES + 1 - start
        if self.keeping and room > 0:
            self.file.write(raw_data[:room])

    def file_complete(self, file_size):
        if not self.keeping:
            return None  # dropped
        self.keeping = False
        self.file.seek(0)
        self.file.size = file_size
        return self.file


def scan_upload_handlers(request: HttpRequest) -> list:
    """The upload handlers of a request that attaches a scan (set before its body is read)."""
    return [ScanUploadHandler(request)]


def scan_filename(scan: ScoresheetScan) -> str:
    """A name to save the file under, made of the table's place in the tournament."""
    table = scan.scoresheet.table
    round_ = table.round
    return (
        f"scoresheet-{round_.tournament.slug}-round-{round_.number}-table-{table.number}."
        f"{EXTENSIONS[scan.content_type]}"
    )


# The file's own page: Chrome's PDF viewer needs its plugin (object-src) and its inline styles,
# and its image and PDF pages may be framed by the site itself. Nothing else runs or loads.
FILE_POLICY = {
    "default-src": ["'none'"],
    "img-src": ["'self'"],
    "object-src": ["'self'"],
    "style-src": ["'unsafe-inline'"],
    "frame-ancestors": ["'self'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
}


def scan_response(request: HttpRequest, scan: ScoresheetScan) -> HttpResponseBase:
    """The stored file as it is, to be shown in the browser: its own type, never sniffed,
    cached by the reader's browser only and asked again each time (a 304 while unchanged)."""
    etag = f'"{scan.sha256}"'
    response = get_conditional_response(request, etag=etag) or FileResponse(
        scan.file.open("rb"),
        content_type=scan.content_type,
        filename=scan_filename(scan),
        as_attachment=False,
    )
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    response["X-Content-Type-Options"] = "nosniff"
    response["X-Frame-Options"] = "SAMEORIGIN"
    response._csp_config = FILE_POLICY  # type: ignore[union-attr]  # django-csp's override
    return response
