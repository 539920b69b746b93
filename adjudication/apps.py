from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AdjudicationConfig(AppConfig):
    """Penalty points, initials, appeals and sanctions (TSR 8.2, 9)."""

    name = "adjudication"
    verbose_name = _("Adjudication")

    def ready(self) -> None:
        # A scoresheet's check and its seats' points count the initialled decisions and the
        # deductions; scoring, below us, asks through scoring/rulings.py.
        from adjudication.doors import doors_register
        from adjudication.selectors import SheetRulings
        from adjudication.services.staff import StaffOffers
        from scoring import rulings
        from tournaments import staff_offers

        rulings.register(SheetRulings())
        # A tournament started from an earlier one offers its staff their roles again.
        staff_offers.register(StaffOffers())
        # Its pages' doors from the pages below it (tournaments/doors.py).
        doors_register()
