from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RegistrationConfig(AppConfig):
    name = "registration"
    verbose_name = _("Registration and check-in")

    def ready(self) -> None:
        # Tournaments, below us, tells us when an entry frees a place or changes
        # (tournaments/entered.py), shows our boxes on its pages (tournaments/page_boxes.py) and
        # links to our pages through doors (tournaments/doors.py).
        from registration.hooks import hooks_register

        hooks_register()
