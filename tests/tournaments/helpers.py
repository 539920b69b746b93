"""Helpers of the tournament tests: rounds played through the services."""

from doko import sample_sheets
from scoring import services as scoring_services
from scoring.models import Scoresheet
from tests import factories
from tournaments import services
from tournaments.models import Round

MATCH = sample_sheets.full_match()


def play(tournament, *, rounds: int = 1, submit_only_last_table: bool = False):
    """Seat, start and confirm ``rounds`` rounds; the last round's last table only submitted
    if asked."""
    for _ in range(rounds):
        round_ = services.round_start(round=factories.seated_round(tournament))
        sheets_ = list(Scoresheet.objects.filter(table__round=round_).order_by("table__number"))
        for sheet in sheets_:
            if submit_only_last_table and sheet is sheets_[-1]:
                keeper = factories.keeper(sheet)
                sheet = scoring_services.scoresheet_hands_replace(
                    scoresheet=sheet, hands=MATCH, version=sheet.version, by=keeper
                )
                scoring_services.scoresheet_submit(
                    scoresheet=sheet, version=sheet.version, by=keeper
                )
            else:
                factories.sheet_confirmed(sheet, MATCH)
        round_.refresh_from_db()
        # Closed by its last sheet's confirm where the confirm's commit ran (a test with real
        # transactions); else ended and closed here.
        if not submit_only_last_table and round_.status != Round.Status.CLOSED:
            factories.round_end(round_)
            services.round_close(round=round_)
    return round_


def settings_form(tournament, **changes) -> dict:
    """What the settings page posts: every setting as the tournament has it, with ``changes``
    (a checkbox left out when off)."""
    from tournaments.selectors import SETTINGS

    values = {name: getattr(tournament, name) for name in SETTINGS}
    values.update(changes)
    data = {}
    for name, value in values.items():
        if value is True:
            data[name] = "on"
        elif value is None:  # an empty number (no club ranking)
            data[name] = ""
        elif value is not False:
            data[name] = value.isoformat() if hasattr(value, "isoformat") else value
    return data
