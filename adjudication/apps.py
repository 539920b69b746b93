from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AdjudicationConfig(AppConfig):
    """Penalty points, initials, appeals and sanctions (TSR 8.2, 9)."""

    name = "adjudication"
    verbose_name = _("Adjudication")

    def ready(self) -> None:
        # A scoresheet's check counts the initialled decisions; scoring, below us, asks
        # through this reader (scoring/rulings.py).
        from adjudication.selectors import sheet_adjudication
        from scoring import rulings

        rulings.reader_register(sheet_adjudication)
