"""The catalogue of standard offences (TSR 9.6.3)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation

from adjudication import services
from adjudication.models import Decision, Offence
from doko.rules.penalty import Severity
from tests.adjudication.helpers import MATCH, enter

pytestmark = pytest.mark.django_db


def test_the_default_catalogue_is_added_once(tournament, staff):
    added = services.offences_default(tournament=tournament, by=staff["organiser"])
    assert {offence.rule for offence in added} >= {"TSR 9.1.4", "TSR 9.1.5", "TSR 9.1.6"}
    assert services.offences_default(tournament=tournament, by=staff["organiser"]) == []
    with pytest.raises(PermissionDenied):
        services.offences_default(tournament=tournament, by=staff["keeper"])


def test_an_offence_named_in_a_decision_stays(sheet, staff, tournament):
    offence = services.offence_save(
        tournament=tournament,
        name="Revoke",
        kind=Offence.Kind.BREACH,
        severity=Severity.MAJOR,
        rule="TSR 5.2.2",
        by=staff["adjudicator"],
    )
    enter(sheet, MATCH[:1])
    services.complaint_record(
        scoresheet=sheet,
        hand_number=1,
        offender=1,
        description="",
        offence=offence,
        by=staff["adjudicator"],
    )
    with pytest.raises(ValidationError):
        services.offence_delete(offence=offence, by=staff["organiser"])
    decision = Decision.objects.get()
    assert (decision.description, decision.offence.label) == ("", "Revoke")


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": "Revoke", "kind": Offence.Kind.BREACH}, "severity"),
        ({"name": "Not following suit", "kind": Offence.Kind.BREACH, "severity": "major"}, "name"),
        ({"name": "Rude", "kind": Offence.Kind.UNSPORTING, "bound": True}, "deduction"),
    ],
)
def test_the_catalogue_names_the_field_in_error(tournament, staff, fields, field):
    services.offences_default(tournament=tournament, by=staff["organiser"])
    with pytest.raises(ValidationError) as error:
        services.offence_save(tournament=tournament, by=staff["organiser"], **fields)
    assert field in error.value.message_dict


def test_the_default_catalogue_reads_in_the_language_of_the_reader(tournament, staff):
    with translation.override("de"):
        services.offences_default(tournament=tournament, by=staff["organiser"])
    offence = Offence.objects.get(tournament=tournament, code="not-following-suit")
    with translation.override("en"):
        assert offence.label == "Not following suit"
    with translation.override("de"):
        assert offence.label == "Nicht bedient"
        assert str(offence) == "Nicht bedient"


@pytest.mark.parametrize("name", ["Nicht bedient", "not following  suit"])
def test_typing_the_name_of_an_offence_of_the_tsr_names_it(tournament, staff, name):
    offence = services.offence_save(
        tournament=tournament,
        name=name,
        kind=Offence.Kind.BREACH,
        severity=Severity.MINOR,
        by=staff["organiser"],
    )
    assert (offence.code, offence.name) == ("not-following-suit", "Not following suit")
    assert services.offences_default(tournament=tournament, by=staff["organiser"]) != []
    assert Offence.objects.filter(code="not-following-suit").get().severity == Severity.MINOR
    with translation.override("de"), pytest.raises(ValidationError) as twice:
        services.offence_save(
            tournament=tournament,
            name="Not following suit",
            kind=Offence.Kind.BREACH,
            severity=Severity.MAJOR,
            by=staff["organiser"],
        )
    assert twice.value.message_dict == {"name": ["Der Katalog enthält „Nicht bedient“ bereits."]}


def test_renaming_an_offence_of_the_tsr_makes_it_the_tournaments_own(tournament, staff):
    services.offences_default(tournament=tournament, by=staff["organiser"])
    offence = Offence.objects.get(tournament=tournament, code="leading-out-of-turn")
    renamed = services.offence_save(
        tournament=tournament,
        offence=offence,
        name="Zu früh ausgespielt",
        kind=Offence.Kind.BREACH,
        severity=Severity.MINOR,
        by=staff["organiser"],
    )
    assert (renamed.code, renamed.label) == ("", "Zu früh ausgespielt")
