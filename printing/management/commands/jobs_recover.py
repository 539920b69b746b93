from django.utils.translation import gettext as _

from printing.management.commands import recover


class Command(recover.Command):
    help = _(
        "The older name of `recover`, which it runs: print jobs and standings lost with a "
        "worker are queued again; --older-than is --jobs-older-than."
    )

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--older-than", dest="jobs_older_than", type=float, metavar="MINUTES")
