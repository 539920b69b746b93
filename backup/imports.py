"""What the two import commands share: their options, what they tell the person running them
besides what they restored (the accounts created, the players whose DDV number was another
person's here, the roles not given: ``backup.services``), and why an import was refused."""

from argparse import ArgumentParser
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError, OutputWrapper
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from backup.services import NumberCleared, RoleNotGiven


def import_arguments(parser: ArgumentParser) -> None:
    """The options of both import commands."""
    parser.add_argument("file", help="the JSON backup, or - for stdin")
    parser.add_argument(
        "--attach-roles-to-existing-accounts",
        action="store_true",
        help=(
            "give the backup's roles to the accounts here of the same user names too (only if "
            "they are the same people, as on the site the backup came from); without it, their "
            "roles are listed and not given"
        ),
    )
    parser.add_argument(
        "--without-scans",
        action="store_true",
        help="leave out the photos and scans of the signed sheets the backup holds",
    )


def import_refusal(error: ValidationError) -> CommandError:
    """The command's error for a refused import; a refused scan says how to import without."""
    message = " ".join(error.messages)
    if any(item.code == "scan_refused" for item in error.error_list):
        message += " " + _(
            "Import with --without-scans to leave the photos and scans of the sheets out."
        )
    return CommandError(message)


def import_notes(
    stdout: OutputWrapper,
    *,
    users_created: list[str],
    numbers_cleared: list[NumberCleared],
    roles_not_given: Iterable[RoleNotGiven],
) -> None:
    """Write what the person running the import must check or do next."""
    if users_created:
        stdout.write(
            _(
                "Created inactive user accounts without a password (set one and activate "
                "them to let them log in): %(users)s"
            )
            % {"users": ", ".join(users_created)}
        )
    if numbers_cleared:
        stdout.write(
            ngettext(
                "%(count)d player's DDV number belongs here to a person registered under another "
                "name: imported as a new person without the number. Check the number; if it is "
                "the same person, a site administrator merges the two records: %(players)s",
                "%(count)d players' DDV numbers belong here to persons registered under other "
                "names: imported as new persons without the numbers. Check the numbers; where it "
                "is the same person, a site administrator merges the two records: %(players)s",
                len(numbers_cleared),
            )
            % {
                "count": len(numbers_cleared),
                "players": ", ".join(
                    _("%(name)s (DDV number %(number)s)")
                    % {
                        "name": f"{player.first_name} {player.last_name}",
                        "number": player.ddv_number,
                    }
                    for player in numbers_cleared
                ),
            }
        )
    roles: dict[str, list[str]] = {}
    for role in roles_not_given:
        roles.setdefault(role.user, []).append(role.role)
    if roles:
        stdout.write(
            _(
                "Roles not given: these user names have accounts here already, which may be "
                "other people's: %(roles)s. If they are the same people, give them the roles on "
                "the site (a tournament's staff page, a competition's organisers page), or "
                "delete what was imported and import it again with "
                "--attach-roles-to-existing-accounts."
            )
            % {
                "roles": ", ".join(
                    f"{user} ({', '.join(names)})" for user, names in sorted(roles.items())
                )
            }
        )
