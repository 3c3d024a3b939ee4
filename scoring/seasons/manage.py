"""Creating and editing seasons (issue 26 item 3), for the management pages and the API alike.

Who: a user who organises a tournament may create a season (:func:`scoring.policy.can_create_season`)
and manages it afterwards with the co-managers they name (:func:`scoring.policy.can_manage_season`).
Tournaments: a manager adds only tournaments they organise
(:func:`scoring.policy.organised_tournaments`); a tournament already in the season stays unless the
editor organises it (or is a superuser): a co-manager who does not organise it can neither remove
it by unticking it in the form nor by leaving it out of the API's list.
Concurrency: an update locks the season row and checks the version the editor's page was built from
inside the lock (:func:`scoring.locking.lock`); a creation whose slug another creation took at the
same moment is refused as a slug error, not a crash.
Errors: ``PermissionDenied`` (role), :class:`~scoring.errors.StaleVersion` (stale version),
``django.core.exceptions.ValidationError`` with a message per field (``{"field": [messages]}``).
"""
from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring import locking, policy
from scoring.models import PointsPreset, Season, Tournament

#: The longest own points table.
MAX_TABLE = 200
#: The fields :func:`save_season` takes.
FIELDS = ("name", "slug", "description", "preset", "points_table", "participation", "best_n", "tournaments", "managers")


def parse_table(value) -> list[int]:
    """An own points table from a list of whole numbers or a text ``"25, 18, 15"``;
    ``ValidationError`` for anything else (negative, not a number, more than :data:`MAX_TABLE`)."""
    if isinstance(value, str):
        value = [part for part in value.replace(";", ",").replace(" ", ",").split(",") if part.strip()]
    try:
        table = [int(str(v).strip()) for v in value or []]
    except (TypeError, ValueError):
        raise ValidationError(_("Points are whole numbers separated by commas.")) from None
    if any(p < 0 or p > 100_000 for p in table) or len(table) > MAX_TABLE:
        raise ValidationError(_("Points are whole numbers from 0 to 100000, at most %(n)d places.") % {"n": MAX_TABLE})
    if any(later > earlier for earlier, later in itertools.pairwise(table)):
        raise ValidationError(_("Points must not rise with the place (a better place never earns fewer points)."))
    return table


def _clean(season: Season, actor, data: dict) -> dict:
    """The checked values of ``data`` (only the keys given), errors by field."""
    errors, out = {}, {}
    if "name" in data:
        out["name"] = str(data["name"] or "").strip()[:200]
        if not out["name"]:
            errors["name"] = [_("A season needs a name.")]
    if "slug" in data or season.pk is None:
        slug = slugify(data.get("slug") or out.get("name") or season.name)[:80]
        if not slug:
            errors["slug"] = [_("A season needs a slug (letters, digits, hyphens).")]
        elif Season.objects.filter(slug=slug).exclude(pk=season.pk).exists():
            errors["slug"] = [_("Another season has this slug.")]
        out["slug"] = slug
    for key in ("description",):
        if key in data:
            out[key] = str(data[key] or "")
    if "preset" in data:
        if data["preset"] not in PointsPreset.values:
            errors["preset"] = [_("Unknown points preset.")]
        out["preset"] = data["preset"]
    if "points_table" in data:
        try:
            out["points_table"] = parse_table(data["points_table"])
        except ValidationError as exc:
            errors["points_table"] = exc.messages
    for key, low in (("participation", 0), ("best_n", 1)):
        if key in data and data[key] not in (None, ""):
            try:
                out[key] = int(data[key])
            except (TypeError, ValueError):
                out[key] = -1
            if not low <= out[key] <= 10_000:
                errors[key] = [_("A whole number from %(low)d.") % {"low": low}]
        elif key in data:
            out[key] = 0 if key == "participation" else None
    if ("points_table" not in errors and out.get("preset", season.preset) == PointsPreset.CUSTOM
            and not out.get("points_table", season.points_table)):
        errors.setdefault("points_table", []).append(_("The own table needs the points of at least place 1."))
    if "tournaments" in data:
        out["tournaments"] = _tournaments(season, actor, data["tournaments"], errors)
    if "managers" in data:
        out["managers"] = _managers(data["managers"], errors)
    if errors:
        raise ValidationError(errors)
    return out


def _tournaments(season: Season, actor, ids, errors: dict) -> list[Tournament]:
    """The tournaments ``ids`` (pks or slugs): each already in the season or organised by ``actor``;
    plus those of the season ``actor`` does not organise (only their organisers remove them)."""
    ids = list(ids or [])
    wanted = list(Tournament.objects.filter(pk__in=[i for i in ids if str(i).isdigit()])) + list(
        Tournament.objects.filter(slug__in=[i for i in ids if not str(i).isdigit()]))
    if len(wanted) < len(set(map(str, ids))):
        errors["tournaments"] = [_("Unknown tournament.")]
    current = set(season.tournaments.values_list("pk", flat=True)) if season.pk else set()
    allowed = set(policy.organised_tournaments(actor).values_list("pk", flat=True))
    refused = [t.name for t in wanted if t.pk not in current and t.pk not in allowed]
    if refused:
        errors["tournaments"] = [_("You do not organise: %(names)s.") % {"names": ", ".join(refused)}]
    kept = current - allowed - {t.pk for t in wanted}  # not the editor's to remove
    return wanted + list(Tournament.objects.filter(pk__in=kept))


def _managers(usernames, errors: dict) -> list:
    """The co-managers by username."""
    if isinstance(usernames, str):
        usernames = [u for u in usernames.replace(",", " ").split() if u]
    names = {str(u).strip() for u in usernames or [] if str(u).strip()}
    users = list(get_user_model().objects.filter(username__in=names))
    unknown = names - {u.username for u in users}
    if unknown:
        errors["managers"] = [_("Unknown user: %(names)s.") % {"names": ", ".join(sorted(unknown))}]
    return users


def save_season(season: Season | None, actor, data: dict, *, expected_version: int | None = None) -> Season:
    """Create (``season`` ``None``) or update a season from ``data`` (keys of :data:`FIELDS`;
    on update only those given change). Checks the role first (:mod:`scoring.policy`).

    Update: the season row is locked and, when ``expected_version`` is given (the edit form always
    gives it), it must be the row's version (else :class:`~scoring.errors.StaleVersion`); the
    checks run inside the lock and the version increases. Create: a slug taken at the same moment
    is a ``ValidationError`` on ``slug``."""
    data = {k: v for k, v in data.items() if k in FIELDS}
    if season is None:
        if not policy.can_create_season(actor):
            raise PermissionDenied
        return _create(Season(created_by=policy.user_of(actor)), actor, data)
    policy.require_season(actor, season)
    with transaction.atomic():
        season = locking.lock(Season, season.pk, expected_version=expected_version)
        values = _clean(season, actor, data)
        _store(season, values, version=season.version + 1)
    return season


def _create(season: Season, actor, data: dict) -> Season:
    values = _clean(season, actor, data)
    try:
        with transaction.atomic():
            _store(season, values, version=0)
    except IntegrityError:  # another creation took the slug between the check and the insert
        season.pk = None
        raise ValidationError({"slug": [_("Another season has this slug.")]}) from None
    return season


def _store(season: Season, values: dict, *, version: int) -> None:
    tournaments, managers = values.pop("tournaments", None), values.pop("managers", None)
    for key, value in values.items():
        setattr(season, key, value)
    season.version = version
    season.save()
    if tournaments is not None:
        season.tournaments.set(tournaments)
    if managers is not None:
        season.managers.set(managers)
