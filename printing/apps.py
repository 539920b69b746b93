from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrintingConfig(AppConfig):
    name = "printing"
    verbose_name = _("Printouts")

    def ready(self) -> None:
        # A round's page has the printouts box; tournaments, below us, shows it through
        # tournaments/round_page.py.
        from printing.doors import doors_register
        from printing.round_page import RoundPrintouts
        from tournaments import round_page

        round_page.register(RoundPrintouts(), place=round_page.ORGANISER)
        # The forms asking for the PDFs on the pages below it (tournaments/doors.py).
        doors_register()
