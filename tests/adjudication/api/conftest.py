"""Fixtures of the adjudication API tests: table 1's scoresheet with four hands on it, and a
client."""

import pytest

# Loaded before Django is set up: the application's modules are imported in the fixtures.


@pytest.fixture
def sheet(sheet):
    """Table 1 of round 1 with four hands on it, hand 2 seat 1's compulsory solo."""
    from scoring.models import Scoresheet
    from tests.adjudication.helpers import MATCH, enter

    enter(sheet, MATCH[:4])
    return Scoresheet.objects.select_related("table__round__tournament").get(pk=sheet.pk)


@pytest.fixture
def api():
    from rest_framework.test import APIClient

    return APIClient()
