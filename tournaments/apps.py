from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext_lazy as _


def _forget_head(sender, instance, **kwargs) -> None:
    """A saved or deleted tournament is read afresh by the pages phones refresh."""
    from tournaments.selectors import tournament_head_forget

    tournament_head_forget(slug=instance.slug)


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tournaments import (
            checks,  # noqa: F401  (registers the system checks)
            converters,
            roles_history,
        )
        from tournaments.models import Tournament

        post_save.connect(_forget_head, sender=Tournament, dispatch_uid="tournament-head-save")
        post_delete.connect(_forget_head, sender=Tournament, dispatch_uid="tournament-head-delete")
        roles_history.connect()
        converters.register()  # <num:…> in every app's routes
