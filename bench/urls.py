"""The site's routes and one empty view: the baseline a page is measured against."""

from django.http import HttpResponse
from django.urls import path
from django.views.decorators.http import require_http_methods

from config.urls import urlpatterns as site


@require_http_methods(["GET", "POST"])
def empty(request):
    return HttpResponse("")


urlpatterns = [path("bench/empty/", empty), *site]
