"""Messages of Django and Django REST framework that the site words itself.

The project's catalogue (``LOCALE_PATHS``) is asked before theirs, so a message named here and
translated in ``locale/`` reads the same everywhere it is raised: a form, a model's validation,
the API. Django REST framework's German catalogue addresses the reader with "du"; the site says
"Sie". ``gettext_noop`` only marks them for ``makemessages``: nothing imports this module.
"""

from django.utils.translation import gettext_noop

WORDED = [
    # django.core.validators.EmailValidator, rest_framework.fields.EmailField
    gettext_noop("Enter a valid email address."),
]
