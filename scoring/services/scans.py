"""The photo or scan of a sheet's signed paper copy, the evidence the table signed (TSR 7.3.4,
8.5.2): attached by the scorekeeper's link or the desk, stored without its metadata through the
storage API, replaced by a new one. It changes nothing of the sheet, not its version."""

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from scoring import policies, scans
from scoring.models import Scoresheet, ScoresheetScan
from scoring.policies import Actor
from scoring.services.sheets import _roles, scoresheet_locked
from tournaments.policies import enforce


def scoresheet_scan_attach(*, scoresheet: Scoresheet, upload, by: Actor) -> ScoresheetScan:
    """Attach the photo or scan of the signed paper sheet, or replace the one attached (TSR
    7.3.4, 8.5.2; ``policies.may_attach_scan``). ``upload``: the uploaded file, None if none
    was sent. Stored without its metadata (``scans.scan_clean``); a replaced file is deleted
    once the change is committed. The sheet itself does not change, nor its version, so the
    scorekeeper's next save is no conflict."""
    enforce(policies.may_attach_scan(sheet=scoresheet, actor=by, roles=_roles(scoresheet, by)))
    clean = scans.scan_clean(upload)  # before the sheet is locked: a photo takes a moment
    scan = ScoresheetScan(
        scoresheet=scoresheet,
        content_type=clean.content_type,
        size=len(clean.content),
        sha256=clean.sha256,
        uploaded_by=by.user,
        uploaded_by_seat=by.seat,
        uploaded_by_name=by.name,
    )
    # The file first, then the row: a row never names a file that is not there. If the row is
    # not written, the file goes again.
    scan.file.save(f"scan.{clean.extension}", ContentFile(clean.content), save=False)
    try:
        return _scan_store(scan, by=by)
    except BaseException:
        scan.file.storage.delete(scan.file.name or "")
        raise


@transaction.atomic
def _scan_store(scan: ScoresheetScan, *, by: Actor) -> ScoresheetScan:
    # Locked as every write to the sheet is, and asked again: the round may have closed.
    sheet = scoresheet_locked(scan.scoresheet)
    enforce(policies.may_attach_scan(sheet=sheet, actor=by, roles=_roles(sheet, by)))
    scan.scoresheet, scan.uploaded_at = sheet, timezone.now()
    old = ScoresheetScan.objects.filter(scoresheet=sheet).first()
    if old is not None:
        scan_file_forget(sender=ScoresheetScan, instance=old)
        scan.pk = old.pk
        scan.save(force_update=True)
    else:
        scan.save(force_insert=True)
    return scan


def scan_file_forget(*, sender, instance: ScoresheetScan, **kwargs) -> None:
    """Delete a scan's file from storage once the transaction that replaced or deleted its row
    is committed (nothing if it is rolled back). A file that cannot be deleted is logged, never
    an error: the row is gone either way. Also ``post_delete``'s receiver (``scoring/apps.py``),
    for the sheets deleted with their round or tournament."""
    storage, name = instance.file.storage, instance.file.name or ""

    def delete() -> None:  # named: a robust callback that fails is logged by its name
        storage.delete(name)

    if name:
        transaction.on_commit(delete, robust=True)
