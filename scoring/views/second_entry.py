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
from tournaments.policies import Refusal


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
        return redirect(sheet_url(access, "scoring:sheet"))
    return redirect(sheet_url(access, "scoring:sheet-differences"))


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


def _settle_mode(access: Access, entry) -> tuple[str, Refusal | None]:
    """How this member of the desk takes part in settling (``doko.four_eyes``): ``settle``
    alone (he typed neither entry), ``propose`` (a typist; ``agree`` where the other typist's
    proposal waits), or nothing (the refusal says why)."""
    alone = policies.may_settle_differences(
        sheet=access.sheet, actor=access.actor, roles=access.roles
    )
    if alone is None:
        return "settle", None
    propose = policies.may_propose_settlement(
        sheet=access.sheet, actor=access.actor, roles=access.roles
    )
    if propose is not None:
        return "", alone
    assert access.actor.user is not None  # the staff pages need a login (sheet_view)
    waiting = entry is not None and entry.proposed_by_id not in (None, access.actor.user.pk)
    return ("agree" if waiting else "propose"), None


@sheet_view
def sheet_differences(request: HttpRequest, access: Access) -> HttpResponse:
    """The hands in which the two entries of a paper sheet differ, side by side, each to be
    settled from the paper sheet (POST: all at once, then the sheet is confirmed). Who typed
    neither entry settles alone; a typist proposes and the other agrees. Whoever has not seen
    the blind first entry sees only which hands differ, and his own, until he opens it
    (``policies.first_entry_hidden``: recorded, and he no longer changes a second entry)."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    entry = selectors.second_entry_get(sheet=access.sheet)
    hidden = policies.first_entry_hidden(sheet=access.sheet, actor=access.actor)
    mode, refusal = _settle_mode(access, entry)
    differences = (
        selectors.second_entry_differences(sheet=access.sheet, entry=entry)
        if entry is not None
        else []
    )
    errors: list[str] = []
    choices: dict[int | None, Take] = services.settlement_proposed(entry) or {}
    if request.method == "POST" and refusal is not None:
        tournament_policies.enforce(refusal if refusal.field is None else None)
        errors = [refusal.message]
    elif request.method == "POST":
        choices = {}
        for difference in differences:
            name = "time-over" if difference.hand is None else f"hand-{difference.hand}"
            for take in TAKE:
                if request.POST.get(name) == take:
                    choices[difference.hand] = take
        assert access.actor.user is not None  # the staff pages need a login (sheet_view)
        try:
            settled = services.second_entry_settle(
                scoresheet=access.sheet, choices=choices, by=access.actor.user
            )
        except ValidationError as error:
            errors = error.messages
        else:
            if settled.proposed:
                messages.success(
                    request,
                    _(
                        "Your proposal is kept: the scoresheet is settled and confirmed when "
                        "the other typist chooses the same."
                    ),
                )
                return redirect(sheet_url(access, "scoring:sheet-differences"))
            messages.success(
                request,
                _("Settled from the paper sheet: the scoresheet of table %(table)d is confirmed.")
                % {"table": access.sheet.table.number},
            )
            return redirect(sheet_url(access, "scoring:sheet"))
    state = selectors.sheet_state(sheet=access.sheet)
    proposer = entry.proposed_by if entry is not None and entry.proposed_by_id else None
    return render(
        request,
        "scoring/differences.html",
        {
            **sheet_page(access, state),
            "entry": entry,
            "differences": [
                {
                    "hand": difference.hand,
                    "first": difference.first,
                    "second": difference.second,
                    "chosen": choices.get(difference.hand),
                }
                for difference in differences
            ],
            "hidden": hidden,
            "may_open": hidden is not None
            and policies.may_open_first_entry(
                sheet=access.sheet, actor=access.actor, roles=access.roles
            )
            is None,
            "open_url": sheet_url(access, "scoring:sheet-first-entry-open"),
            "mode": mode,
            "proposer": proposer,
            "refusal": refusal,
            "errors": [] if refusal is not None else errors,
            "sheet_url": sheet_url(access, "scoring:sheet"),
            "second_url": sheet_url(access, "scoring:sheet-second"),
        },
        status=422 if errors else 200,
    )


# Where a blind first entry is opened from, as the record keeps it.
OPENED_ON = {"sheet", "history", "differences", "table"}


@require_POST
@sheet_view
def sheet_first_entry_open(request: HttpRequest, access: Access) -> HttpResponse:
    """Open a blind first entry all the same (``services.sheet_first_entry_open``): recorded,
    and whoever opens it no longer types the sheet's second entry. Back to the page it was
    asked from (``next``, one of the sheet's own pages), or the sheet."""
    assert access.actor.user is not None  # the staff pages need a login (sheet_view)
    back = request.POST.get("next", "")
    if not back.startswith(access.base) and back != sheet_url(access, "scoring:sheet-differences"):
        back = access.base
    try:
        services.sheet_first_entry_open(
            scoresheet=access.sheet,
            by=access.actor.user,
            where=where if (where := request.POST.get("where", "")) in OPENED_ON else "page",
        )
    except ValidationError as error:
        return refused_answer(request, access, error, at=ACTIONS)
    return redirect(back)
