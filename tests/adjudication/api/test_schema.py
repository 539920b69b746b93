"""The OpenAPI schema documents the adjudication endpoints, their tag and their enums."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_schema_documents_the_adjudication_endpoints(api):
    schema = api.get(reverse("api-schema"), headers={"Accept": "application/json"}).json()
    base = "/api/v1/tournaments/{slug}"
    for path in [
        "decisions",
        "decisions/{id}",
        "decisions/{id}/ruling",
        "decisions/{id}/initial",
        "decisions/{id}/appeal",
        "appeals",
        "appeals/{id}/decide",
        "sanctions",
        "sanctions/{id}/appeal",
        "offences",
        "offences/{id}",
        "offences/defaults",
        "adjudication-log",
        "roles",
        "roles/{id}",
    ]:
        operations = schema["paths"][f"{base}/{path}"]
        for operation in operations.values():
            assert operation["tags"] == ["adjudication"]
            # A seat's key opens a scoresheet, never these.
            assert {"seatKey": []} not in operation["security"]
    enums = schema["components"]["schemas"]
    assert enums["DecisionStatusEnum"]["enum"] == [
        "open",
        "draft",
        "initialled",
        "superseded",
        "annulled",
    ]
    assert enums["SanctionKindEnum"]["enum"] == ["warning", "deduction", "disqualification"]
    assert enums["SanctionStatusEnum"]["enum"] == ["in_force", "superseded", "annulled"]
    assert "deputy" in enums["StaffRoleEnum"]["enum"]
