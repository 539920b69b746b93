"""Celery tasks of adjudication: thin wrappers around services."""

from celery import shared_task

from adjudication.services.invitation_mail import staff_invitation_mail


@shared_task(name="adjudication.staff_invitation_mail", acks_late=True, reject_on_worker_lost=True)
def staff_invitation_mail_task(invitation_id: int, key: str, language: str) -> None:
    """Mail an invitation's link to its address: to log in and accept, or to choose a password
    for a new account, as the address has an account or not."""
    staff_invitation_mail(invitation_id=invitation_id, key=key, language=language)
