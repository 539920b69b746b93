"""The photo or scan of the signed paper sheet on its page (TSR 7.3.4, 8.5.2): shown in the
browser, attached or replaced."""

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponseBase
from django.shortcuts import redirect
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods

from scoring import policies, scans, selectors, services
from scoring.views.access import Access, sheet_view
from scoring.views.page import page_context, render_page
from tournaments import policies as tournament_policies


@csrf_exempt  # checked below, once the upload is received by the scan's own handler
def sheet_scan(request: HttpRequest, **kwargs) -> HttpResponseBase:
    """GET: the photo or scan of the signed sheet, shown in the browser. POST (multipart,
    ``file``): attach it, or replace it; the page again with the reason if it is refused."""
    if request.method == "POST":
        request.upload_handlers = scans.scan_upload_handlers(request)
    return _sheet_scan(request, **kwargs)


@csrf_protect
@require_http_methods(["GET", "HEAD", "POST"])
@sheet_view
def _sheet_scan(request: HttpRequest, access: Access) -> HttpResponseBase:
    if request.method != "POST":
        tournament_policies.enforce(
            policies.may_read_scan(sheet=access.sheet, actor=access.actor, roles=access.roles)
        )
        scan = selectors.scoresheet_scan(sheet=access.sheet)
        if scan is None:
            raise Http404
        return scans.scan_response(request, scan)
    try:
        services.scoresheet_scan_attach(
            scoresheet=access.sheet, upload=request.FILES.get(scans.FIELD), by=access.actor
        )
    except ValidationError as error:
        access.sheet.refresh_from_db()
        context = page_context(request, access)
        context["scan_errors"] = error.messages
        return render_page(request, context, status=422)
    return redirect(f"{access.base}#scan")


# A table's page: its players and its sheet, for everyone once the seating is published ----
