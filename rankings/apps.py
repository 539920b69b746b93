from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RankingsConfig(AppConfig):
    name = "rankings"
    verbose_name = _("Ranking lists")

    def ready(self) -> None:
        # Tournaments, below us, tells us when a tournament's results or ranked settings change
        # (tournaments/ranked.py), and shows our boxes on its pages (tournaments/page_boxes.py).
        from rankings.hooks import hooks_register

        hooks_register()
