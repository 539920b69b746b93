"""The entry points a newcomer opens first all answer."""

import pytest

from tests import factories

pytestmark = pytest.mark.django_db


def test_home_tournament_page_admin_schema_and_docs_answer(client, admin_client):
    tournament = factories.tournament(players=4)
    for url in ["/", f"/tournaments/{tournament.slug}/", "/api/schema/", "/api/docs/"]:
        assert client.get(url).status_code == 200, url
    assert client.get("/admin/").status_code == 302  # to the login page
    assert admin_client.get("/admin/").status_code == 200
