"""The photo or scan of the signed paper sheet through the API (TSR 7.3.4, 8.5.2): attached or
replaced, and read back as stored."""

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response

from scoring import policies, scans, selectors, services
from scoring.api.access import sheet_opened
from scoring.api.sheets import READ_RESPONSES, ScanSerializer, SheetAPIView, scan_data
from scoring.models import ScoresheetScan
from tournaments import policies as tournament_policies
from tournaments.permissions import roles_of

JPEG, PNG, PDF = ScoresheetScan.Kind.values


class ScanUploadSerializer(serializers.Serializer):
    """For the schema: the service checks the file and says what is wrong with it."""

    file = serializers.FileField(
        help_text="A photo (JPEG, PNG) or scan (PDF) of the signed sheet, at most 10 MB; "
        "told by its content, stored without its metadata"
    )


SCAN_FILE = OpenApiResponse(
    OpenApiTypes.BINARY,
    description="The file as stored (without its metadata), shown inline; `ETag` and "
    "`If-None-Match` (304 while unchanged)",
)


class ScoresheetScanView(SheetAPIView):
    """The photo or scan of the signed paper sheet (TSR 7.3.4, 8.5.2). POST attaches it, or
    replaces the one attached (multipart, field `file`): the scorekeeper's key or sheet staff,
    from the start of the round; once it is closed, an organiser only. It changes nothing of
    the sheet, not its `version`. GET returns the file: every seat's key of the table, and
    the staff who read the sheet."""

    parser_classes = [MultiPartParser]

    def initialize_request(self, request, *args, **kwargs):
        # Before the body is read: one file, of no more than the limit and a byte, on disk.
        if request.method == "POST":
            request.upload_handlers = scans.scan_upload_handlers(request)
        return super().initialize_request(request, *args, **kwargs)

    def perform_content_negotiation(self, request, force=False):
        # A file is answered whatever the client accepts (an <img> asks for image/*).
        return super().perform_content_negotiation(request, force=True)

    @extend_schema(
        tags=["scoresheets"],
        responses={
            (200, JPEG): SCAN_FILE,
            (200, PNG): SCAN_FILE,
            (200, PDF): SCAN_FILE,
            **READ_RESPONSES,
            404: OpenApiResponse(description="No such sheet, or no scan attached to it"),
        },
    )
    def get(self, request, slug: str, number: int, table: int):
        sheet, actor = sheet_opened(request, slug=slug, number=number, table=table)
        # A seat's key holds no role (and has no account to look one up for).
        roles = set() if actor.seat else roles_of(request, sheet.table.round.tournament)
        tournament_policies.enforce(policies.may_read_scan(sheet=sheet, actor=actor, roles=roles))
        scan = selectors.scoresheet_scan(sheet=sheet)
        if scan is None:
            raise Http404
        return scans.scan_response(request, scan)

    @extend_schema(
        tags=["scoresheets"],
        request={"multipart/form-data": ScanUploadSerializer},
        responses={
            201: ScanSerializer,
            400: OpenApiResponse(
                description="Refused, with the reason under `file` (none sent, empty, over "
                "10 MB, not a JPEG, PNG or PDF, damaged, too many pixels, an encrypted PDF) or "
                "`round` (not started; closed, for all but an organiser); nothing saved"
            ),
            403: OpenApiResponse(description="Not yours to do: the services say why"),
            429: OpenApiResponse(description="Too many writes through this seat's key"),
        },
    )
    def post(self, request, slug: str, number: int, table: int):
        sheet, actor = sheet_opened(request, slug=slug, number=number, table=table)
        scan = services.scoresheet_scan_attach(
            scoresheet=sheet, upload=request.FILES.get(scans.FIELD), by=actor
        )
        data = scan_data(scan)
        assert data is not None
        return Response(
            data,
            status=status.HTTP_201_CREATED,
            headers={"Location": request.build_absolute_uri(data["url"])},
        )
