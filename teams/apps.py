from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TeamsConfig(AppConfig):
    name = "teams"
    verbose_name = _("Team competitions")

    def ready(self) -> None:
        # A match day is a tournament whose draw seats line-ups; tournaments, below us, asks
        # through tournaments/lineups.py.
        from teams.doors import doors_register
        from teams.lineups import MatchDayLineUps
        from tournaments import lineups

        lineups.register(MatchDayLineUps())
        # Its pages' doors from the pages below it (tournaments/doors.py).
        doors_register()
