"""The migration that stores the TSR's offences by code converts the catalogues written before
it, whichever language their offences were added in."""

import pytest

from adjudication import services
from adjudication.models import Decision, Offence
from doko.rules.penalty import Severity
from tests.adjudication.helpers import MATCH, enter
from tests.migrating import migrate, migrate_to_latest

BEFORE = [("adjudication", "0005_appeal_against_a_sanction")]
AFTER = [("adjudication", "0006_offences_stored_by_code")]


@pytest.mark.django_db(transaction=True)
def test_offences_named_in_either_language_get_their_code(tournament, sheet, staff):
    enter(sheet, MATCH[:4])
    services.offences_default(tournament=tournament, by=staff["organiser"])
    old = Offence.objects.get(code="not-following-suit")
    complaint = services.complaint_record(
        scoresheet=sheet,
        hand_number=3,
        offender=2,
        offence=old,
        description="x",
        by=staff["adjudicator"],
    )
    try:
        apps = migrate(BEFORE)
        OldOffence = apps.get_model("adjudication", "Offence")
        OldDecision = apps.get_model("adjudication", "Decision")
        # As the catalogue was written before: in the language of whoever clicked, the same
        # offence twice in two languages, and the name copied into a complaint's description.
        OldOffence.objects.filter(pk=old.pk).update(name="Nicht bedient")
        twin = OldOffence.objects.create(
            tournament_id=tournament.pk,
            name="Not following suit",
            rule=old.rule,
            kind=old.kind,
            severity=old.severity,
        )
        OldDecision.objects.filter(pk=complaint.pk).update(
            offence=twin, description="Not following suit"
        )
        OldOffence.objects.filter(name="Leading out of turn").update(
            name="Ausgespielt, ohne am Zug zu sein"
        )
        OldOffence.objects.create(
            tournament_id=tournament.pk, name="Handy klingelt", kind="unsporting"
        )
        migrate(AFTER)
    finally:
        migrate_to_latest()

    codes = dict(Offence.objects.values_list("name", "code"))
    assert codes == {
        "Not following suit": "not-following-suit",
        "Leading out of turn": "leading-out-of-turn",
        "Counting trumps or card points aloud": "counting-aloud",
        "Gestures or remarks that reveal cards or influence the game": "revealing-cards",
        "Encouraging a player to break the rules": "encouraging-a-breach",
        "Hand abandoned without the adjudicator's consent": "abandoning-a-hand",
        "Handy klingelt": "",
    }
    decision = Decision.objects.get()
    assert decision.offence.code == "not-following-suit"
    assert decision.description == ""


@pytest.mark.django_db(transaction=True)
def test_old_decisions_learn_who_ruled_and_the_hands_at_their_initials(sheet, staff):
    """Migration 0010: who ruled comes from the log (TSR 8.2.1); an initialled decision's count
    for the appeal "nur sofort" (TSR 9.7.7) is the sheet's hands at the migration."""
    enter(sheet, MATCH[:4])
    complaint = services.complaint_record(
        scoresheet=sheet, hand_number=3, offender=2, description="x", by=staff["adjudicator"]
    )
    ruled = services.decision_rule(
        decision=complaint, ruling=services.Ruling(Severity.MINOR), by=staff["deputy"]
    )
    services.decision_initial(decision=ruled, by=staff["adjudicator"])
    try:
        migrate([("adjudication", "0009_staff_invitation")])
        migrate([("adjudication", "0010_decision_ruled_by_and_hands_at_initials")])
    finally:
        migrate_to_latest()
    decision = Decision.objects.get()
    assert decision.ruled_by == staff["deputy"]
    assert decision.hands_at_initials == 4
