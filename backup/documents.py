"""Reading and writing the JSON backup documents for the export and import commands (one way
for a tournament and a team competition alike)."""

import json
import sys
from collections.abc import Callable
from typing import Any

from django.core.management.base import CommandError, OutputWrapper
from django.utils.translation import gettext as _


def document_export(export: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The document ``export`` makes; a scan the storage cannot read stops the command with
    what to do instead."""
    try:
        return export()
    except OSError as error:
        raise CommandError(
            _(
                "A photo or scan of a signed sheet cannot be read from the storage: "
                "%(error)s. Export with --without-scans to leave them out."
            )
            % {"error": error}
        ) from error


def document_write(data: dict[str, Any], *, output: str | None, stdout: OutputWrapper) -> bool:
    """Write the document to ``output`` (True), or to stdout when no file is given (False)."""
    if output is None:
        stdout.write(json.dumps(data, ensure_ascii=False, indent=1))
        return False
    with open(output, "w", encoding="utf-8") as file:
        # Written as it is encoded: the text of a large document is never whole in memory.
        json.dump(data, file, ensure_ascii=False, indent=1)
        file.write("\n")
    return True


def document_read(file: str) -> Any:
    """The JSON document in ``file`` (``-``: stdin); an unreadable file or one that is not JSON
    stops the command, saying which."""
    try:
        if file == "-":
            return json.load(sys.stdin)
        with open(file, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        raise CommandError(
            _("Cannot read %(file)s: %(error)s") % {"file": file, "error": error}
        ) from error
    except json.JSONDecodeError as error:
        raise CommandError(
            _("%(file)s is not JSON: %(error)s") % {"file": file, "error": error}
        ) from error
