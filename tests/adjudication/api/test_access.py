"""Who may read and write the adjudication: the staff read everything and write what the
services allow them; a scorekeeper, a player's seat key, another account and a client without
credentials get nothing; and who plays at the table decides nothing there (TSR 8.2.1)."""

import pytest

from adjudication import services
from adjudication.models import Appeal, Decision, Event, Offence, Sanction
from doko.rules.penalty import Severity
from tests import factories
from tests.adjudication.api.helpers import appealed, complaint, decided, key, send, url
from tests.adjudication.helpers import seat_entry
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db
Ruling = services.Ruling


def _reads(tournament, decision):
    return [
        url("api:decisions", tournament),
        url("api:decision", tournament, decision.pk),
        url("api:appeals", tournament),
        url("api:sanctions", tournament),
        url("api:offences", tournament),
        url("api:adjudication-log", tournament),
        url("api:roles", tournament),
    ]


@pytest.mark.parametrize("who", ["organiser", "adjudicator", "panel"])
def test_the_staff_read_everything(api, tournament, sheet, staff, who):
    decision = decided(sheet, staff)
    user = staff[who][0] if who == "panel" else staff[who]
    for path in _reads(tournament, decision):
        assert send(api, "get", path, user).status_code == 200, path


def test_a_logged_in_adjudicator_reads_by_session(api, tournament, sheet, staff):
    decision = decided(sheet, staff)
    api.force_login(staff["adjudicator"])
    assert api.get(url("api:decision", tournament, decision.pk)).status_code == 200


@pytest.mark.parametrize("who", ["anonymous", "seat key", "scorekeeper", "stranger"])
def test_nobody_else_reads_anything(api, tournament, sheet, staff, who):
    decision = decided(sheet, staff)
    user, headers = None, {}
    if who == "seat key":
        headers = key(sheet, 2)
    elif who == "scorekeeper":
        user = staff["keeper"]
    elif who == "stranger":
        user = factories.user()
    for path in _reads(tournament, decision):
        response = send(api, "get", path, user, headers=headers)
        # Without credentials a client is asked for them; everybody else is refused.
        assert response.status_code == (401 if who == "anonymous" else 403), path
        assert "results" not in response.json()
        assert "id" not in response.json()


def _writes(tournament, sheet, staff):
    """Each write a scorekeeper or a player might try, and what it would change."""
    decision = complaint(sheet, staff)
    draft = services.decision_rule(
        decision=complaint(sheet, staff, hand=4, offender=1),
        ruling=Ruling(Severity.MINOR),
        by=staff["adjudicator"],
    )
    appeal = appealed(sheet, staff, hand=2, offender=3)
    initialled = decided(sheet, staff, hand=1, offender=2)
    entry = seat_entry(sheet, 1)
    return [
        (
            "record",
            url("api:decisions", tournament),
            {"round": 1, "table": 1, "hand_number": 3, "offender": 1, "description": "x"},
        ),
        (
            "rule",
            url("api:decision-ruling", tournament, decision.pk),
            {"severity": "major", "written_line": "next"},
        ),
        ("initial", url("api:decision-initial", tournament, draft.pk), {}),
        ("appeal", url("api:decision-appeal", tournament, initialled.pk), {"appellant": 1}),
        (
            "decide",
            url("api:appeal-decide", tournament, appeal.pk),
            {"outcome": "annul", "members": ["panel1"], "reasons": "x"},
        ),
        (
            "sanction",
            url("api:sanctions", tournament),
            {
                "start_number": entry.start_number,
                "round": 1,
                "kind": "warning",
                "reasons": "x",
                "members": ["panel1"],
            },
        ),
        ("offence", url("api:offences", tournament), {"name": "X", "kind": "unsporting"}),
        ("role", url("api:roles", tournament), {"username": "desk", "role": "organiser"}),
    ]


def _state():
    return (
        list(Decision.objects.order_by("pk").values_list("status", "severity", "hand_number")),
        list(Appeal.objects.values_list("outcome", flat=True)),
        Sanction.objects.count(),
        Offence.objects.count(),
        sorted(TournamentRole.objects.values_list("user__username", "role")),
        Event.objects.count(),
    )


@pytest.mark.parametrize("who", ["seat key", "scorekeeper", "stranger", "anonymous"])
def test_a_scorekeeper_or_a_player_writes_nothing(api, tournament, sheet, staff, who):
    writes = _writes(tournament, sheet, staff)
    before = _state()
    for _name, path, data in writes:
        if who == "seat key":
            response = send(api, "post", path, headers=key(sheet, 4), data=data)
        elif who == "anonymous":
            response = send(api, "post", path, data=data)
        else:
            user = staff["keeper"] if who == "scorekeeper" else factories.user()
            response = send(api, "post", path, user, data)
        assert response.status_code == (401 if who == "anonymous" else 403), path
    assert _state() == before


@pytest.mark.parametrize(
    ("who", "refused"),
    [
        ("organiser", {"record", "rule", "initial", "appeal", "decide", "sanction"}),
        ("adjudicator", {"decide", "sanction", "role"}),
        ("deputy", {"decide", "sanction", "role"}),
        ("panel", {"record", "rule", "role"}),
    ],
)
def test_the_staff_write_what_the_services_allow(api, tournament, sheet, staff, who, refused):
    """TSR 8.2.1: the organiser runs the tournament but decides no complaint; the adjudicator
    and his deputy decide complaints but not appeals nor free sanctions; the panel hears the
    appeals and decides unsporting conduct, and may initial a ruling (TSR 8.2.2), but rules on
    no complaint in the first instance and appoints nobody."""
    user = staff[who][0] if who == "panel" else staff[who]
    for name, path, data in _writes(tournament, sheet, staff):
        before = _state()
        response = send(api, "post", path, user, data)
        if name in refused:
            assert response.status_code == 403, name
            assert _state() == before, name
        else:
            assert response.status_code in {200, 201, 202}, (name, response.json())


def test_who_plays_at_the_table_is_refused_and_told_who_decides(api, tournament, sheet, staff):
    """TSR 8.2.1: 403 with the reason for the one who acts; 400 on the members named."""
    appeal = appealed(sheet, staff)
    entry = seat_entry(sheet, 2)
    TournamentRole.objects.filter(user__in=[staff["adjudicator"], staff["panel"][0]]).update(
        entry=entry
    )
    refused = send(
        api,
        "post",
        url("api:decisions", tournament),
        staff["adjudicator"],
        {"round": 1, "table": 1, "hand_number": 3, "offender": 1, "description": "x"},
    )
    assert refused.status_code == 403
    assert refused.json()["detail"] == (
        "You play at table 1: the deputy adjudicator decides this complaint (TSR 8.2.1)."
    )
    path = url("api:appeal-decide", tournament, appeal.pk)
    decision = {"outcome": "uphold", "reasons": "As ruled."}
    own = send(api, "post", path, staff["panel"][0], decision | {"members": ["panel2"]})
    assert own.status_code == 403
    assert "another member of the arbitration panel" in own.json()["detail"]
    named = send(api, "post", path, staff["panel"][1], decision | {"members": ["panel1", "panel2"]})
    assert named.status_code == 400
    assert "TSR 8.2.1" in named.json()["members"][0]
    assert Appeal.objects.get().outcome == ""
