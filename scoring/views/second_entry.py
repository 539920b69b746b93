"""Double entry on the pages: the second entry of a paper sheet compared with the first,
thrown away, and its differences settled from the paper (TSR 7.3.4, 8.5.2)."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from doko.rules.double_entry import TAKE, Take
from scoring import policies, selectors, services
from scoring.views.access import Access, sheet_url, sheet_view
from scoring.views.page import ACTIONS, refused_answer, sheet_page
from tournaments import policies as tournament_policies


@require_POST
@sheet_view
def sheet_second_compare(request: HttpRequest, access: Access) -> HttpResponse:
    """Compare the second entry, once complete, with the handed-in first: both agreeing, the
    sheet is confirmed; else the desk settles the differences (their page)."""
    assert access.actor.user is not None  # the staff pages need a login (sheet_view)
    try:
        comparison = services.second_entry_compare(scoresheet=access.sheet, by=access.actor.user)
    except ValidationError as error:
        return refused_answer(request, access, error, at=ACTIONS)
    if comparison.confirmed:
        messages.success(
            request,
            _("Both entries agree: the scoresheet of table %(table)d is confirmed.")
            % {"table": access.sheet.table.number},
        )
        return redirect(sheet_url(access, "sheet"))
    return redirect(sheet_url(access, "sheet-differences"))


@require_POST
@sheet_view
def sheet_second_discard(request: HttpRequest, access: Access) -> HttpResponse:
    """Throw the second entry away, to type it again."""
    assert access.actor.user is not None  # the staff pages need a login (sheet_view)
    try:
        services.second_entry_discard(scoresheet=access.sheet, by=access.actor.user)
    except ValidationError as error:
        return refused_answer(request, access, error, at=ACTIONS)
    return redirect(access.base)


@sheet_view
def sheet_differences(request: HttpRequest, access: Access) -> HttpResponse:
    """The hands in which the two entries of a paper sheet differ, side by side, each to be
    settled from the paper sheet (POST: all at once, then the sheet is confirmed)."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    entry = selectors.second_entry_get(sheet=access.sheet)
    refusal = policies.may_settle_differences(
        sheet=access.sheet, actor=access.actor, roles=access.roles
    )
    differences = (
        selectors.second_entry_differences(sheet=access.sheet, entry=entry)
        if entry is not None
        else []
    )
    errors: list[str] = []
    choices: dict[int | None, Take] = {}
    if request.method == "POST" and refusal is not None:
        tournament_policies.enforce(refusal if refusal.field is None else None)
        errors = [refusal.message]
    elif request.method == "POST":
        for difference in differences:
            name = "time-over" if difference.hand is None else f"hand-{difference.hand}"
            for take in TAKE:
                if request.POST.get(name) == take:
                    choices[difference.hand] = take
        assert access.actor.user is not None  # the staff pages need a login (sheet_view)
        try:
            services.second_entry_settle(
                scoresheet=access.sheet, choices=choices, by=access.actor.user
            )
        except ValidationError as error:
            errors = error.messages
        else:
            messages.success(
                request,
                _("Settled from the paper sheet: the scoresheet of table %(table)d is confirmed.")
                % {"table": access.sheet.table.number},
            )
            return redirect(sheet_url(access, "sheet"))
    state = selectors.sheet_state(sheet=access.sheet)
    return render(
        request,
        "scoring/differences.html",
        {
            **sheet_page(access, state),
            "entry": entry,
            "differences": differences,
            "choices": choices,
            "refusal": refusal,
            "errors": [] if refusal is not None else errors,
            "sheet_url": sheet_url(access, "sheet"),
            "second_url": sheet_url(access, "sheet-second"),
        },
        status=422 if errors else 200,
    )
