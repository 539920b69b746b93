import datetime

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from printing import services


class Command(BaseCommand):
    help = _(
        "Queue again the work that a dead worker or a lost message left undone: print jobs "
        "without progress, or queued and not taken, for longer than --jobs-older-than minutes, "
        "and standings wanted longer than --standings-older-than seconds ago and not rebuilt. "
        "Celery beat runs it every minute; for cron without beat, run it every minute."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--jobs-older-than",
            type=float,
            default=settings.RECOVER_JOBS_MINUTES,
            metavar="MINUTES",
            help=_("how long a job may go without progress (default: RECOVER_JOBS_MINUTES)"),
        )
        parser.add_argument(
            "--standings-older-than",
            type=float,
            default=settings.RECOVER_STANDINGS_SECONDS,
            metavar="SECONDS",
            help=_(
                "how long a rebuild of the standings may be wanted and not done (default: "
                "RECOVER_STANDINGS_SECONDS)"
            ),
        )

    def handle(self, *args, jobs_older_than: float, standings_older_than: float, **options):
        jobs, tournaments = services.work_recover(
            jobs_older_than=datetime.timedelta(minutes=jobs_older_than),
            standings_older_than=datetime.timedelta(seconds=standings_older_than),
        )
        if not jobs and not tournaments and options["verbosity"] < 2:
            return  # silent when there is nothing to do, so cron sends no mail
        for job_id in jobs:
            self.stdout.write(job_id)
        self.stdout.write(
            ngettext("%(count)d job queued again.", "%(count)d jobs queued again.", len(jobs))
            % {"count": len(jobs)}
        )
        self.stdout.write(
            ngettext(
                "The standings of %(count)d tournament are rebuilt again.",
                "The standings of %(count)d tournaments are rebuilt again.",
                len(tournaments),
            )
            % {"count": len(tournaments)}
        )
