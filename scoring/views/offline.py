"""The entry page while the connection is down: ``save/`` for a row that waited in the
browser (static/js/offline-queue.js), answered in JSON, and the service worker that keeps the
page for a reload, served from the site's root (``service_worker``)."""

from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_GET

from doko.rules.sheet import HandLine
from scoring import selectors
from scoring.api.sheets import changes_data, hands_data, sheet_data
from scoring.forms import HandForm
from scoring.models import (
    ScoresheetChange,
)
from scoring.policies import typist_of
from scoring.selectors import hand_snapshot
from scoring.services import StaleEntryError, StaleVersionError
from scoring.views.access import Access, entry_state
from scoring.views.page import (
    Row,
    RowRefused,
    dealer_of,
    hands_edit,
    typist_refusal,
    version_named,
)


def save_json(request: HttpRequest, access: Access) -> JsonResponse:
    """``save/`` for a row that waited in the browser while the connection was down.

    200: the entry's new ``version`` and the ``hand`` as stored (as the API shows it). 409: the
    entry changed since the ``version`` the row names (checked first: the row was typed on top
    of that version), with the ``current`` entry, the ``changes`` since and whether it holds
    this very hand already (``_stale_json``). 422: the ``messages`` that refuse it, by field in
    ``errors``; 403 when this link or account may not enter the sheet. Nothing is saved but on
    a 200. On the second entry's page the entry is the second entry, and nothing of the first
    is answered. 403 with ``code`` "typist" when the row names another typist than who sends it
    (``policies.may_save_typed``: typed by someone who has since logged out of this device),
    with who is logged in now (``typist``: its ``key`` and ``name``), for the page to ask.
    """
    if refusal := typist_refusal(request, access):
        return JsonResponse(
            {
                "detail": refusal.message,
                "messages": [refusal.message],
                "code": "typist",
                "typist": {"key": typist_of(access.actor), "name": access.actor.name},
            },
            status=403,
        )
    try:
        version = version_named(request)
    except ValidationError as error:
        return _refused_json(error.message_dict)
    if version != access.version:
        return _stale_json(request, access, since=version)
    row = Row(request, time_over=access.time_over_after_hand)
    try:
        hands_edit(access, edit=row.added, version=version, time_over_after_hand=row.time_over)
    except RowRefused:
        assert row.form is not None
        return _refused_json(
            {
                name: [str(message) for message in messages]
                for name, messages in row.form.errors.items()
            },
            form=row.form,
        )
    except StaleVersionError as error:
        access.sheet = error.current
        return _stale_json(request, access, since=version)
    except StaleEntryError as error:
        access.entry = error.current
        return _stale_json(request, access, since=version)
    except ValidationError as error:
        return _refused_json(
            error.message_dict if hasattr(error, "error_dict") else {"hands": error.messages}
        )
    except PermissionDenied as error:
        return JsonResponse({"detail": str(error), "messages": [str(error)]}, status=403)
    number = row.number
    # The hand as the API shows it, from the entry as the write left it (read no more).
    hand = hands_data(entry_state(access))[number - 1]
    return JsonResponse({"version": access.version, "number": number, "hand": hand})


def _entry_data(access: Access) -> dict:
    """The entry on the page as the API shows a sheet: the sheet's own data, or for the second
    entry its version and hands alone."""
    if not access.blind:
        return sheet_data(access.sheet, actor=access.actor)
    return {"version": access.version, "hands": hands_data(entry_state(access))}


def _refused_json(errors: dict[str, list[str]], *, form: HandForm | None = None) -> JsonResponse:
    """422 with the messages by field, and as a list to show (a field's label before its
    message, as the live check shows them)."""
    messages = [
        message
        if name == "__all__" or form is None or name not in form.fields
        else f"{form.fields[name].label}: {message}"
        for name, field_messages in errors.items()
        for message in field_messages
    ]
    return JsonResponse(
        {"detail": messages[0] if messages else "", "errors": errors, "messages": messages},
        status=422,
    )


def _same_hand(line: HandLine, snapshot: dict) -> bool:
    """Whether a stored hand (``hand_snapshot``) is ``line``; a hand typed as points alone
    has the game value its points show."""
    mine = hand_snapshot(line)
    if line.game_value is None:
        mine["game_value"] = snapshot.get("game_value")
    return mine == snapshot


def _stale_json(request: HttpRequest, access: Access, *, since: int) -> JsonResponse:
    """409: the entry as it is now and what changed since ``since``, and for the row sent
    (``hand``): whether the entry holds it already at its number (``stored``: the save got
    through and its answer was lost, or someone typed the same hand), and if it was the first
    change after ``since`` the version it made (``saved_in``: the next row builds on it). A
    second entry keeps no history: its changes are none, and a hand it holds already is only
    ``stored``."""
    state = entry_state(access)
    changes = [] if access.blind else selectors.sheet_changes(sheet=access.sheet, since=since)
    hand: dict[str, object] = {"number": None, "stored": False, "saved_in": None}
    try:
        number = int(request.POST.get("number", ""))
    except ValueError:
        number = 0
    if 1 <= number <= len(state.lines):
        hand["number"] = number
        form = HandForm(request.POST, table_size=state.table_size, dealer=dealer_of(state, number))
        if form.is_valid():
            line = form.line
            assert line is not None  # a valid form has its line (HandForm.clean)
            hand["stored"] = _same_hand(line, hand_snapshot(state.lines[number - 1]))
            first = changes[0] if changes else None
            if (
                hand["stored"]
                and first is not None
                and first.change.action == ScoresheetChange.Action.HANDS
                and number in {diff.number for diff in first.hands}
                and _same_hand(line, first.change.after["hands"][number - 1])
            ):
                hand["saved_in"] = first.change.version
    detail = (
        StaleEntryError(current=access.entry)
        if access.blind
        else StaleVersionError(current=access.sheet)
    ).messages[0]
    return JsonResponse(
        {
            "detail": detail,
            "version": access.version,
            "current": _entry_data(access),
            "changes": []
            if access.blind
            else changes_data(access.sheet, since=since, actor=access.actor),
            "hand": hand,
        },
        status=409,
    )


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker that keeps the entry pages for a reload while the connection is
    down, from the site's root so that its scope covers ``/s/`` and ``/tournaments/`` alike.
    Always checked again (``no-cache``), so that a new version reaches every phone."""
    path = finders.find("js/sw.js")
    if not isinstance(path, str):
        raise Http404
    with open(path, "rb") as source:
        response = HttpResponse(source.read(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
