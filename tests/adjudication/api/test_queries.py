"""The adjudication API's lists, and a decision, are read in a fixed number of queries,
whatever the number of rows."""

import pytest

from adjudication import services
from adjudication.models import Appeal, Decision, Offence, Sanction
from doko.rules.penalty import Severity
from tests import factories
from tests.adjudication.api.helpers import appealed, token, url
from tests.adjudication.helpers import seat_entry
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role
Ruling = services.Ruling


@pytest.fixture
def busy(tournament, sheet, staff):
    """``n`` appealed and decided decisions, sanctions, offences and staff, and their log."""

    def make(n: int):
        services.offences_default(tournament=tournament, by=staff["organiser"])
        for number in range(n):
            appeal = appealed(sheet, staff, hand=number + 1, offender=number % 4 + 1)
            services.appeal_decide(
                appeal=appeal,
                outcome=Appeal.Outcome.CHANGE,
                members=staff["panel"],
                reasons="x",
                ruling=Ruling(Severity.INSIGNIFICANT),
                by=staff["panel"][0],
            )
            services.sanction_impose(
                entry=seat_entry(sheet, number % 4 + 1),
                round=sheet.table.round,
                kind=Sanction.Kind.WARNING,
                reasons="x",
                members=staff["panel"],
                by=staff["panel"][0],
            )
            bound = services.sanction_impose(
                entry=seat_entry(sheet, number % 4 + 1),
                round=sheet.table.round,
                kind=Sanction.Kind.WARNING,
                offence=Offence.objects.get(tournament=tournament, bound=True),
                reasons="Counted trumps aloud",
                by=staff["adjudicator"],
            )
            services.appeal_decide(
                appeal=services.appeal_lodge(sanction=bound, by=staff["adjudicator"]),
                outcome=Appeal.Outcome.CHANGE,
                members=staff["panel"],
                reasons="x",
                sanction=services.SanctionRuling(Sanction.Kind.DEDUCTION, 2),
                by=staff["panel"][0],
            )
            services.role_grant(
                tournament=tournament,
                user=factories.user(),
                role=Role.SCOREKEEPER,
                entry=seat_entry(sheet, number % 4 + 1),
                by=staff["organiser"],
            )

    return make


# token with its user, tournament, roles, then the rows and what they prefetch
QUERIES = {
    "api:decisions": 3 + 3,  # decisions, the appeals' members, the panel's own decisions
    # appeals, members, the panel's own decisions and sanctions
    "api:appeals": 3 + 4,
    # sanctions, members, the appeals' members, the panel's own sanctions
    "api:sanctions": 3 + 4,
    "api:offences": 3 + 1,
    "api:adjudication-log": 3 + 2,  # count, page
    "api:roles": 3 + 1,
}


@pytest.mark.parametrize("rows", [1, 4])
@pytest.mark.parametrize("name", list(QUERIES))
def test_the_lists_run_a_fixed_number_of_queries(
    api, tournament, staff, busy, django_assert_num_queries, rows, name
):
    busy(rows)
    headers = token(staff["adjudicator"])
    with django_assert_num_queries(QUERIES[name]):
        response = api.get(url(name, tournament), headers=headers)
    assert response.status_code == 200
    data = response.json()
    listed = data["results"] if isinstance(data, dict) else data
    assert len(listed) >= rows


def test_a_decision_is_read_in_a_fixed_number_of_queries(
    api, tournament, staff, busy, django_assert_num_queries
):
    busy(1)
    decision = Decision.objects.filter(appeal__isnull=True).get()
    headers = token(staff["adjudicator"])
    with django_assert_num_queries(6):
        assert api.get(url("api:decision", tournament, decision.pk), headers=headers).json()[
            "appeal"
        ]["members"] == ["panel1", "panel2", "panel3"]
