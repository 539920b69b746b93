from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        # A round's life and pages turn on its sheets; tournaments, below us, asks through
        # tournaments/play.py.
        from scoring.play import ScoresheetPlay
        from tournaments import play

        play.register(ScoresheetPlay())
