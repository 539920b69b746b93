"""What the adjudication added to a tournament survives its backup (the ``backup`` app):
a wedding ruled as a solo (TSR 4.4.3 b), a solo counted as played without game points with the
line it replaced (TSR 9.4.4), and a bound decision appealed and changed by the panel, with the
sanction it superseded (TSR 8.2.1, 9.6.3)."""

import json

import pytest

from adjudication import services
from adjudication.models import Appeal, Decision, Sanction
from backup.selectors import tournament_export
from backup.services import tournament_import
from doko.rules.contracts import Contract, SoloType
from doko.rules.penalty import Severity
from doko.rules.procedure import WrittenLine
from scoring.models import Scoresheet
from tests.adjudication.helpers import MATCH, bound, confirm, decide, enter, started_round, wedding
from tests.adjudication.helpers import staffed_tournament as staffed
from tournaments import selectors
from tournaments.models import Player

pytestmark = pytest.mark.django_db
Ruling = services.Ruling


def test_the_adjudications_new_records_come_back_whole(staff, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = staffed(staff, players=8)
        round_ = started_round(tournament)
        one, two = Scoresheet.objects.filter(table__round=round_).order_by("table__number")
        enter(one, [*MATCH[:2], wedding(Contract.SILENT_WEDDING), MATCH[3]])
        solo = {"contract": Contract.COMPULSORY_SOLO, "soloist": 1, "solo_type": SoloType.QUEENS}
        # TSR 9.4.4: hand 2 as written is the solo itself.
        solo_major = Ruling(Severity.MAJOR, **solo, written_line=WrittenLine.STOPPED)
        decide(one, staff, hand=2, offender=4, ruling=solo_major)
        ruling = Ruling(
            Severity.MINOR,
            contract=Contract.SILENT_WEDDING,
            soloist=3,
            wedding_clarified_as_solo=True,
        )
        decide(one, staff, hand=3, offender=2, ruling=ruling)
        confirm(one)
        confirm(two)
        given = bound(round_, two, staff, position=4, points=5)
        services.appeal_decide(
            appeal=services.appeal_lodge(sanction=given, by=staff["adjudicator"]),
            outcome=Appeal.Outcome.CHANGE,
            members=staff["panel"],
            reasons="Once only.",
            sanction=services.SanctionRuling(Sanction.Kind.DEDUCTION, 2),
            by=staff["panel"][0],
        )
    points = selectors.entry_points(tournament=tournament)
    data = json.loads(json.dumps(tournament_export(tournament=tournament)))

    with django_capture_on_commit_callbacks(execute=True):
        tournament.delete()
        Player.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        # Onto the site it came from: the staff's accounts are theirs.
        restored = tournament_import(data=data, attach_roles_to_existing_accounts=True)

    solo_decision = Decision.objects.get(played_without_game_points=True)
    assert solo_decision.replaced_line["points"] == [6, -2, -2, -2]
    assert Decision.objects.get(wedding_clarified_as_solo=True).soloist == 3
    statuses = dict(Sanction.objects.values_list("points", "status"))
    assert statuses == {5: Sanction.Status.SUPERSEDED, 2: Sanction.Status.IN_FORCE}
    appeal = Appeal.objects.get()
    assert (appeal.decision, appeal.sanction.points) == (None, 5)
    assert appeal.replacement_sanction.get().points == 2
    assert sorted(selectors.entry_points(tournament=restored).values()) == sorted(points.values())
    again = json.loads(json.dumps(tournament_export(tournament=restored)))
    assert {**again, "exported_at": None} == {**data, "exported_at": None}
