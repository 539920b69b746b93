"""The log through the API: every action, with who did it, oldest first, a page at a time."""

import pytest

from adjudication.models import Decision
from tests.adjudication.api.helpers import appealed, send, url

pytestmark = pytest.mark.django_db


def test_the_log_lists_every_action_oldest_first(api, tournament, sheet, staff):
    appealed(sheet, staff)
    path = url("api:adjudication-log", tournament)
    data = send(api, "get", path, staff["organiser"]).json()
    assert data["count"] == 4
    assert [(e["action"], e["by"]) for e in data["results"]] == [
        ("complaint", "adjudicator"),
        ("ruling", "adjudicator"),
        ("initials", "adjudicator"),
        ("appeal", "adjudicator"),
    ]
    decision = Decision.objects.get()
    assert data["results"][0]["decision"] == decision.pk
    assert data["results"][-1]["appeal"] == decision.appealed.pk
    assert data["results"][-1]["details"] == {"grounds": "I had no club"}
    last = send(api, "get", f"{path}?limit=1&offset=3", staff["organiser"]).json()
    assert [e["action"] for e in last["results"]] == ["appeal"]
