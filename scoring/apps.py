from django.apps import AppConfig
from django.db.models.signals import post_delete
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        # A round's life and pages turn on its sheets; tournaments, below us, asks through
        # tournaments/play.py, and its round page links to the desk through
        # tournaments/round_page.py.
        from django.contrib.auth.signals import user_logged_out

        from scoring.doors import doors_register
        from scoring.models import ScoresheetScan
        from scoring.play import ScoresheetPlay
        from scoring.round_page import DeskLink
        from scoring.services import scan_file_forget
        from scoring.views.desk import reader_forget
        from tournaments import play, round_page

        play.register(ScoresheetPlay())
        # Its pages' doors from the pages below it (tournaments/doors.py).
        doors_register()
        round_page.register(DeskLink(), place=round_page.LINKS)
        # A sheet deleted with its round or tournament (a draw undone) takes its scan's file
        # along, once that is committed.
        post_delete.connect(scan_file_forget, sender=ScoresheetScan, dispatch_uid="scan-file")
        # Who read a round's desk a moment ago is remembered by his session: not past a logout.
        user_logged_out.connect(reader_forget, dispatch_uid="desk-reader")
