from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config import accounts, login
from config.health import healthz
from config.language import language_switch
from config.second_factor import views as second_factor

# The administration's login counts failed attempts as the login page does, and answers 429
# as it does (its own page, through login.admin_login).
admin.site.login_form = login.RateLimitedAdminAuthenticationForm

# A failure, and the database away (503), answered without asking the database.
handler500 = "config.errors.server_error"


@require_GET
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """``/favicon.ico``, which browsers ask for where a page names no icon (a PDF, a JSON
    answer): the site's icon among the static files, not a 404 in the log."""
    return HttpResponsePermanentRedirect(static("img/favicon.ico"))


urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    # Routes are tried in order: the API first, as its prefix rules it in or out at once, where
    # the pages' routes are tried one by one (some 90 of them before the API otherwise).
    path("api/v1/", include("config.api_urls", namespace="api")),
    path("", include("tournaments.urls", namespace="tournaments")),
    path("", include("rankings.urls", namespace="rankings")),
    path("", include("registration.urls", namespace="registration")),
    path("", include("scoring.urls", namespace="scoring")),
    path("", include("adjudication.urls", namespace="adjudication")),
    path("", include("printing.urls", namespace="printing")),
    path("", include("teams.urls", namespace="teams")),
    path("healthz/", healthz, name="healthz"),
    path("admin/login/", login.admin_login),  # before the administration's own route
    path("admin/", admin.site.urls),
    path("accounts/login/", login.LoginView.as_view(), name="login"),
    # The login's second step: the code of an account with a second factor.
    path("accounts/login/code/", login.LoginCodeView.as_view(), name="login-code"),
    path("accounts/second-factor/", second_factor.second_factor, name="second-factor"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Forgotten passwords, through Django's views (config/accounts.py); Django's route names.
    path(
        "accounts/password-reset/",
        accounts.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    # The roles offered to an account by user name, to accept or decline, and those it holds.
    path("accounts/roles/", accounts.roles, name="roles"),
    path("accounts/roles/offers/<num:pk>/", accounts.role_offer_answer, name="role-offer-answer"),
    path(
        "accounts/roles/competitions/<num:pk>/",
        accounts.organiser_offer_answer,
        name="organiser-offer-answer",
    ),
    # Staff invited by e-mail address accept here (adjudication.invitations).
    path("accounts/invitation/<str:key>/", accounts.staff_invitation, name="invitation"),
    # Links of the invitations made before they were stored, until they run out.
    path(
        "accounts/invitation/<uidb64>/<token>/",
        accounts.InvitationTokenView.as_view(),
        name="invitation-token",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    path("language/<str:code>/", language_switch, name="language"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Its script from its own address (?script), not inline, for the Content-Security-Policy.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api_docs.html"),
        name="api-docs",
    ),
]
