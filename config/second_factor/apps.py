from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class SecondFactorConfig(AppConfig):
    """The second factor's pages and its action in the administration (no models of its own:
    django-otp's)."""

    default = True
    name = "config.second_factor"
    label = "second_factor"


class AdminConfig(admin_apps.AdminConfig):
    """Django's administration, with a site that asks a second factor of the accounts that need
    one (``site.AdminSite``)."""

    default = False
    default_site = "config.second_factor.site.AdminSite"
