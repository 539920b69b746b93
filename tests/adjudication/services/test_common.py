"""The log: every action, with who did it."""

import pytest

from adjudication.models import Event
from doko.rules.penalty import Severity
from tests.adjudication.helpers import Ruling, appealed

pytestmark = pytest.mark.django_db


def test_every_action_is_logged_with_who(sheet, staff):
    _decision, _appeal = appealed(sheet, staff, ruling=Ruling(Severity.MINOR))
    actions = list(Event.objects.values_list("action", "by__username"))
    assert actions == [
        ("complaint", "adjudicator"),
        ("ruling", "adjudicator"),
        ("initials", "adjudicator"),
        ("appeal", "adjudicator"),
    ]
