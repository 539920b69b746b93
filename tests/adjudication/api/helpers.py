"""Helpers of the adjudication API tests: a client's credentials and requests, and the
complaints, decisions and appeals they act on, made through the services."""

from django.urls import reverse
from rest_framework.authtoken.models import Token

from adjudication import services
from adjudication.models import Appeal, Decision
from doko.rules.penalty import Severity

Ruling = services.Ruling


def token(user) -> dict:
    return {"Authorization": f"Token {Token.objects.get_or_create(user=user)[0].key}"}


def key(sheet, position) -> dict:
    return {"X-Seat-Key": sheet.table.seats.get(position=position).token}


def url(name, tournament, *args) -> str:
    return reverse(name, args=[tournament.slug, *args])


def send(api, method, path, user=None, data=None, headers=None):
    headers = {"Accept-Language": "en", **(token(user) if user else {}), **(headers or {})}
    return getattr(api, method)(path, data, format="json", headers=headers)


def complaint(sheet, staff, *, hand=3, offender=2, **fields) -> Decision:
    return services.complaint_record(
        scoresheet=sheet,
        hand_number=hand,
        offender=offender,
        description=fields.pop("description", "Trumped a club lead holding a club"),
        by=staff["adjudicator"],
        **fields,
    )


def decided(sheet, staff, *, ruling: Ruling | None = None, **complaint_fields) -> Decision:
    """A complaint ruled on (minor, unless ``ruling`` says otherwise) and initialled by the
    adjudicator."""
    by = staff["adjudicator"]
    decision = complaint(sheet, staff, **complaint_fields)
    decision = services.decision_rule(
        decision=decision, ruling=ruling or Ruling(Severity.MINOR), by=by
    )
    return services.decision_initial(decision=decision, by=by)


def appealed(sheet, staff, **fields) -> Appeal:
    decision = decided(sheet, staff, **fields)
    return services.appeal_lodge(
        decision=decision,
        appellant=decision.offender,
        grounds="I had no club",
        by=staff["adjudicator"],
    )
