"""Django's ``makemessages``, which also finds the rules core's plural messages.

The core (``doko``) stays free of Django, so it cannot call ``ngettext``; it marks a message
whose words follow a number with ``doko.rules.problems.ngettext_noop(singular, plural)``, and the
extraction has to know that name to write both forms into the catalogue (``make messages``).
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=ngettext_noop:1,2"]
