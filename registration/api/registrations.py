"""API of the online registration: a player registers (public, while it is open, limited per
client and per address; JSON only, and never from another site's page), and the organiser reads
the registrations, changes the settings, closes and reopens the registration and orders the
waiting list."""

from urllib.parse import urlsplit

from django.conf import settings as django_settings
from django.core.exceptions import DisallowedHost
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import translation
from django.utils.http import is_same_domain
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import TokenAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from api_base.parsers import LimitedJSONParser
from limits.clients import client_cookie_set
from registration.models import OnlineRegistration, Registration
from registration.policies import may_manage_registration
from registration.registration_limits import registration_rate_wait
from registration.selectors.personal import waiting_place
from registration.selectors.registrations import (
    registration_counts,
    registrations_all,
    waiting_list,
)
from registration.services import claims as claim_services
from registration.services import registrations as services
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.permissions import roles_of
from tournaments.site import absolute_url


class _NoUnknownKeys(serializers.Serializer):
    """Refuses keys it does not know, each named (a typo is not silently dropped)."""

    def validate(self, attrs):
        unknown = set(getattr(self, "initial_data", {}) or {}) - set(self.fields)
        if unknown:
            raise serializers.ValidationError(
                {key: [_("This field is not known here.")] for key in sorted(unknown)}
            )
        return attrs


class RegisterSerializer(_NoUnknownKeys):
    """What a player sends to register."""

    first_name = serializers.CharField(max_length=100)
    last_name = serializers.CharField(max_length=100)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    email = serializers.EmailField(max_length=254)
    ddv_number = serializers.RegexField(r"^\d{1,20}$", required=False, allow_blank=True, default="")


class RegisteredSerializer(serializers.Serializer):
    """What a registration came to: registered with a start number, or waiting at a place."""

    state = serializers.ChoiceField(choices=["registered", "waiting"])
    place = serializers.IntegerField(allow_null=True, help_text="Place on the waiting list")
    start_number = serializers.IntegerField(allow_null=True)
    personal_link = serializers.URLField(help_text="The player's page for the whole tournament")


class RegistrationSerializer(serializers.ModelSerializer):
    """A registration as the organiser sees it: with its claim to be a person on record (by
    its DDV number, else by name and club), which is that person's only once confirmed."""

    place = serializers.SerializerMethodField(help_text="Place on the waiting list, 1 first")
    start_number = serializers.SerializerMethodField()
    claim = serializers.ChoiceField(
        choices=Registration.Claim.choices,
        read_only=True,
        help_text=(
            "Whether the registration is the person on record it names: none (it names "
            "nobody), open (not confirmed: its entry counts for a record of its own), "
            "confirmed (by an organiser at the desk, or by the person from her address on "
            "record), set_aside (an organiser decided it is not that person)"
        ),
    )
    claimed_person = serializers.IntegerField(
        source="claimed_person_id",
        read_only=True,
        allow_null=True,
        help_text="The person on record it names",
    )

    class Meta:
        model = Registration
        fields = [
            "id",
            "first_name",
            "last_name",
            "club",
            "email",
            "ddv_number",
            "state",
            "place",
            "start_number",
            "claim",
            "claimed_person",
            "created_at",
        ]
        read_only_fields = fields

    def get_place(self, registration: Registration) -> int | None:
        return self.context.get("places", {}).get(registration.pk)

    def get_start_number(self, registration: Registration) -> int | None:
        return registration.entry.start_number if registration.entry else None


class OnlineRegistrationSerializer(_NoUnknownKeys):
    """The registration's settings, and how full it is."""

    opens_at = serializers.DateTimeField()
    closes_at = serializers.DateTimeField()
    capacity = serializers.IntegerField(
        min_value=1, max_value=10000, allow_null=True, required=False, default=None
    )
    waiting_list = serializers.BooleanField(required=False, default=True)
    note = serializers.CharField(max_length=2000, allow_blank=True, required=False, default="")
    closed_at = serializers.DateTimeField(read_only=True, allow_null=True)
    is_open = serializers.BooleanField(read_only=True)
    active = serializers.IntegerField(read_only=True, help_text="Active players")
    waiting = serializers.IntegerField(read_only=True, help_text="On the waiting list")

    def validate(self, attrs):
        attrs = super().validate(attrs)
        opens_at, closes_at = attrs.get("opens_at"), attrs.get("closes_at")
        if opens_at and closes_at and closes_at <= opens_at:
            raise serializers.ValidationError(
                {"closes_at": [_("Registration must close after it opens.")]}
            )
        return attrs


def _settings_data(tournament: Tournament) -> dict:
    counts = registration_counts(tournament=tournament)
    settings = counts.settings
    return {
        "opens_at": settings.opens_at if settings else None,
        "closes_at": settings.closes_at if settings else None,
        "capacity": settings.capacity if settings else None,
        "waiting_list": settings.waiting_list if settings else True,
        "note": settings.note if settings else "",
        "closed_at": settings.closed_at if settings else None,
        "is_open": counts.is_open,
        "active": counts.active,
        "waiting": counts.waiting,
    }


def _manage(request, slug: str) -> Tournament:
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    refusal = may_manage_registration(roles=roles_of(request, tournament))
    if refusal is not None:
        raise exceptions.PermissionDenied(refusal.message)
    return tournament


def _own_origin(request, origin: str) -> bool:
    """Whether a browser's ``Origin`` is this site's own: the address the request came in on,
    ``SITE_URL``, or one of ``CSRF_TRUSTED_ORIGINS`` (as Django's CSRF check reads them)."""
    try:
        own = {f"{request.scheme}://{request.get_host()}"}
    except DisallowedHost:
        own = set()
    if django_settings.SITE_URL:
        site = urlsplit(django_settings.SITE_URL)
        own.add(f"{site.scheme}://{site.netloc}")
    if origin in own or origin in django_settings.CSRF_TRUSTED_ORIGINS:
        return True
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    return any(
        trusted.startswith(f"{parsed.scheme}://*")
        and is_same_domain(parsed.netloc, trusted.split("://", 1)[1][1:])
        for trusted in django_settings.CSRF_TRUSTED_ORIGINS
    )


def _sent_from_elsewhere(request) -> None:
    """Refuse a registration a page of another site makes its visitor's browser send (403,
    naming the ``Origin``), and one not sent as JSON (415, naming the type): a form on any page
    can post form fields across sites without asking, but not JSON. Asked before the
    registration is counted, so that no other site uses up a venue's limits. A program that
    sends no ``Origin`` (no browser) is taken."""
    origin = request.headers.get("Origin")
    if origin is not None and not _own_origin(request, origin):
        raise exceptions.PermissionDenied(
            _(
                "Registrations are taken from this site's own pages and from programs, not "
                "from a page of another site (Origin: %(origin)s)."
            )
            % {"origin": origin[:200]}
        )
    media_type = request.content_type.split(";", 1)[0].strip().lower()
    if media_type == "application/json":
        return
    if media_type:
        detail = _(
            "A registration is sent as JSON (Content-Type: application/json), not as %(type)s."
        ) % {"type": media_type[:200]}
    else:
        detail = _(
            "A registration is sent as JSON (Content-Type: application/json); this request "
            "names no type."
        )
    raise exceptions.UnsupportedMediaType(media_type, detail=detail)


class RegistrationList(APIView):
    """GET: every registration, with its state, its place on the waiting list, its entry's
    start number and its claim to be a person on record (organisers). POST: register (public,
    no login, while the registration is open): a place while places are free, else the waiting
    list; 400 on the field when it is closed, full without a waiting list, or the same person
    at the same address in any spelling (on ``first_name``); 403 from a page of another site
    (``Origin``), 415 unless it is JSON; 429 when a device, the devices without a cookie at
    one address together, or an address sent too many."""

    # The public POST: JSON only, at most 64 KB (``PUBLIC_API_MAX_BODY``).
    parser_classes = [LimitedJSONParser]

    def initialize_request(self, request, *args, **kwargs):
        # The public POST carries no session (so needs no CSRF token), as the rules API.
        self._public = request.method == "POST"
        return super().initialize_request(request, *args, **kwargs)

    def get_authenticators(self):
        if getattr(self, "_public", False):
            return [TokenAuthentication()]
        return super().get_authenticators()

    def get_permissions(self):
        if self.request.method == "POST":
            return [AllowAny()]
        return [IsAuthenticated()]

    @extend_schema(responses=RegistrationSerializer(many=True))
    def get(self, request, slug: str):
        tournament = _manage(request, slug)
        registrations = registrations_all(tournament=tournament)
        places = {line.registration.pk: line.place for line in waiting_list(tournament=tournament)}
        return Response(
            RegistrationSerializer(registrations, many=True, context={"places": places}).data
        )

    @extend_schema(request=RegisterSerializer, responses={201: RegisteredSerializer})
    def post(self, request, slug: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
        _sent_from_elsewhere(request)
        if (wait := registration_rate_wait(request)) is not None:
            raise exceptions.Throttled(wait=wait)
        sent = RegisterSerializer(data=request.data)
        sent.is_valid(raise_exception=True)
        registered = services.registration_submit(
            tournament=tournament, language=translation.get_language() or "", **sent.validated_data
        )
        return Response(
            RegisteredSerializer(
                {
                    "state": "registered" if registered.entry else "waiting",
                    "place": registered.place,
                    "start_number": registered.entry.start_number if registered.entry else None,
                    "personal_link": absolute_url(
                        request,
                        reverse("registration:personal-link", args=[registered.registration.key]),
                    ),
                }
            ).data,
            status=status.HTTP_201_CREATED,
        )

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if getattr(self, "_public", False):
            client_cookie_set(request, response)
        return response


class RegistrationSettings(APIView):
    """The online registration's settings (organisers). PUT or PATCH opens it or changes it;
    more places move the waiting list up at once, fewer than the players registered are
    allowed (nobody is taken out)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OnlineRegistrationSerializer)
    def get(self, request, slug: str):
        tournament = _manage(request, slug)
        if not OnlineRegistration.objects.filter(tournament=tournament).exists():
            raise exceptions.NotFound(
                _("The online registration is not set up yet: save its settings first.")
            )
        return Response(OnlineRegistrationSerializer(_settings_data(tournament)).data)

    def _save(self, request, slug: str, *, partial: bool):
        tournament = _manage(request, slug)
        current = _settings_data(tournament)
        sent = OnlineRegistrationSerializer(data=request.data, partial=partial)
        sent.is_valid(raise_exception=True)
        values = {
            name: current[name]
            for name in ("opens_at", "closes_at", "capacity", "waiting_list", "note")
        }
        values.update(sent.validated_data)
        for name in ("opens_at", "closes_at"):
            if values[name] is None:
                raise exceptions.ValidationError({name: [_("This field is required.")]})
        if values["closes_at"] <= values["opens_at"]:
            raise exceptions.ValidationError(
                {"closes_at": [_("Registration must close after it opens.")]}
            )
        services.registration_settings_save(tournament=tournament, by=request.user, **values)
        return Response(OnlineRegistrationSerializer(_settings_data(tournament)).data)

    @extend_schema(request=OnlineRegistrationSerializer, responses=OnlineRegistrationSerializer)
    def put(self, request, slug: str):
        return self._save(request, slug, partial=False)

    @extend_schema(request=OnlineRegistrationSerializer, responses=OnlineRegistrationSerializer)
    def patch(self, request, slug: str):
        return self._save(request, slug, partial=True)


class RegistrationState(APIView):
    """Close the registration now (``close``), or open a registration closed early again
    (``reopen``), until its closing time."""

    permission_classes = [IsAuthenticated]
    actions = {"close": services.registration_close, "reopen": services.registration_reopen}

    @extend_schema(request=None, responses=OnlineRegistrationSerializer)
    def post(self, request, slug: str, action: str):
        tournament = _manage(request, slug)
        self.actions[action](tournament=tournament, by=request.user)
        return Response(OnlineRegistrationSerializer(_settings_data(tournament)).data)


def _registration(request, slug: str, pk: int) -> Registration:
    tournament = _manage(request, slug)
    return get_object_or_404(tournament.registrations, pk=pk)


def _one(registration: Registration) -> dict:
    registration = Registration.objects.select_related("entry").get(pk=registration.pk)
    place = waiting_place(registration=registration)
    return RegistrationSerializer(registration, context={"places": {registration.pk: place}}).data


class RegistrationAdmit(APIView):
    """Give a player on the waiting list a place, beyond the places if need be; after the first
    draw a late entry (400 on the field that stands in the way)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=RegistrationSerializer)
    def post(self, request, slug: str, pk: int):
        registration = _registration(request, slug, pk)
        return Response(
            _one(services.registration_give_place(registration=registration, by=request.user))
        )


class MoveSerializer(_NoUnknownKeys):
    place = serializers.IntegerField(min_value=1, max_value=100000)


class RegistrationMove(APIView):
    """Put a player at ``place`` on the waiting list (1: the front)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=MoveSerializer, responses=RegistrationSerializer)
    def post(self, request, slug: str, pk: int):
        registration = _registration(request, slug, pk)
        sent = MoveSerializer(data=request.data)
        sent.is_valid(raise_exception=True)
        services.registration_move(
            registration=registration, by=request.user, place=sent.validated_data["place"]
        )
        return Response(_one(registration))


class RegistrationDetail(APIView):
    """DELETE: take a player off the waiting list (a registered player is withdrawn on the
    players' endpoints instead)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: RegistrationSerializer})
    def delete(self, request, slug: str, pk: int):
        registration = _registration(request, slug, pk)
        removed = services.registration_remove(registration=registration, by=request.user)
        return Response(_one(removed))


class EntryClaim(APIView):
    """Decide the claim of a player registered online to be the person on record that the
    registration names (issue 44): ``confirm`` (the entry becomes that person's: her history
    and ranking lists; after comparing an ID) or ``set-aside`` (it keeps a record of its
    own). Organisers; 400 on ``claim`` when there is none to decide or the person plays in the
    tournament under another start number already (a conflict)."""

    permission_classes = [IsAuthenticated]
    actions = {
        "confirm": claim_services.registration_claim_confirm,
        "set-aside": claim_services.registration_claim_set_aside,
    }

    @extend_schema(request=None, responses=RegistrationSerializer)
    def post(self, request, slug: str, start_number: int, action: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
        entry = selectors.entry_get(tournament=tournament, start_number=start_number)
        registration = self.actions[action](entry=entry, by=request.user)
        return Response(_one(registration))
