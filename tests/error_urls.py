"""The site's routes and handlers, and two views that fail (tests/test_errors.py)."""

from django.urls import path
from rest_framework.decorators import api_view

from config.urls import handler500, urlpatterns

__all__ = ["handler500", "urlpatterns"]


def boom(request):
    raise RuntimeError("a bug")


@api_view(["GET"])
def api_boom(request):
    raise RuntimeError("a bug in the API")


urlpatterns = [path("boom/", boom), path("api/v1/boom/", api_boom), *urlpatterns]
