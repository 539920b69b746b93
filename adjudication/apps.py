from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AdjudicationConfig(AppConfig):
    """Penalty points, initials, appeals and sanctions (TSR 8.2, 9)."""

    name = "adjudication"
    verbose_name = _("Adjudication")
