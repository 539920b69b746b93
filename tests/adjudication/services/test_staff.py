"""Appointing the staff (TSR 8.2.1)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from adjudication import services
from tests import factories
from tests.adjudication.helpers import Role
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db


def test_roles_are_set_by_an_organiser_and_one_stays(tournament, staff):
    user = factories.user()
    entry = tournament.entries.first()
    grant = services.role_grant(
        tournament=tournament, user=user, role=Role.PANEL, entry=entry, by=staff["organiser"]
    )
    assert grant.entry == entry
    with pytest.raises(PermissionDenied):
        services.role_grant(
            tournament=tournament, user=user, role=Role.ORGANISER, by=staff["adjudicator"]
        )
    services.role_revoke(grant=grant, by=staff["organiser"])
    own = TournamentRole.objects.get(user=staff["organiser"], role=Role.ORGANISER)
    with pytest.raises(ValidationError):
        services.role_revoke(grant=own, by=staff["organiser"])
