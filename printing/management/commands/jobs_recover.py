import datetime

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from printing import services


class Command(BaseCommand):
    help = _(
        "Queue again the jobs (printouts) whose worker died or whose message was lost: running "
        "without progress, or queued and not taken, for longer than --older-than minutes. Meant "
        "for cron, e.g. every five minutes."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--older-than",
            type=float,
            default=10.0,
            metavar="MINUTES",
            help=_("how long a job may go without progress (default: 10 minutes)"),
        )

    def handle(self, *args, older_than: float, **options):
        ids = services.jobs_recover(older_than=datetime.timedelta(minutes=older_than))
        if not ids and options["verbosity"] < 2:
            return  # silent when there is nothing to do, so cron sends no mail
        for job_id in ids:
            self.stdout.write(job_id)
        self.stdout.write(
            ngettext("%(count)d job queued again.", "%(count)d jobs queued again.", len(ids))
            % {"count": len(ids)}
        )
