"""The OpenAPI schema (``/api/schema/``) validates as OpenAPI 3 (openapi-spec-validator), covers
every endpoint of ``/api/v1/``, and the answers of the endpoints validate against it; the
browsable docs (``/api/docs/``, Swagger UI) load only our own static files, as the site's
content security policy allows."""
from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate
from rest_framework.test import APIClient

from scoring.api import urls as api_urls
from tests.api.conftest import api_url
from tests.factories import PLAIN_HAND, SICHUAN_SELF_DRAW, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def spec(db):
    r = APIClient().get("/api/schema/", {"format": "json"})
    assert r.status_code == 200
    return r.json()


def test_the_schema_validates(spec):
    validate(spec)
    assert spec["openapi"].startswith("3.") and spec["info"]["version"] == "1"


def test_the_schema_is_also_served_as_yaml(db):
    r = APIClient().get("/api/schema/")
    assert r.status_code == 200 and r["Content-Type"].startswith("application/vnd.oai.openapi")
    assert b"openapi: 3." in r.content


def _openapi_path(route: str) -> str:
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: "{" + ("id" if m.group(1) == "pk" else m.group(1)) + "}", route)
    return "/api/v1/" + path


def test_every_endpoint_is_in_the_schema(spec):
    routes = {_openapi_path(str(p.pattern)) for p in api_urls.v1}
    assert routes == set(spec["paths"]), routes ^ set(spec["paths"])
    methods = {path: set(ops) - {"parameters"} for path, ops in spec["paths"].items()}
    assert methods["/api/v1/tournaments/{slug}/matches/{id}/records"] == {"get", "post"}
    assert methods["/api/v1/tournaments/{slug}/tables/{id}/records/{number}"] == {"get", "put", "delete"}
    assert methods["/api/v1/engines/{game}/{command}"] == {"post"}


def test_writes_need_a_token_reads_do_not(spec):
    schemes = spec["components"]["securitySchemes"]
    token = dict(schemes["tokenAuth"])
    description = token.pop("description")
    assert token == {"type": "apiKey", "in": "header", "name": "Authorization"}
    # how to send it, where to get it, that it expires and can be revoked (docs/api.md)
    for part in ('"Token <key>"', "/account/api-token/", "manage.py api_token", "expires", "30 days", "revoked"):
        assert part in description, part
    confirm = spec["paths"]["/api/v1/tournaments/{slug}/matches/{id}/confirm"]["post"]
    assert {} not in confirm["security"] and {"tokenAuth": []} in confirm["security"]
    standings = spec["paths"]["/api/v1/tournaments/{slug}/standings"]["get"]
    assert {} in standings["security"]


def _validator(spec, component: str, many: bool = False) -> OAS30Validator:
    ref = {"$ref": f"#/components/schemas/{component}"}
    schema = {"type": "array", "items": ref} if many else ref
    return OAS30Validator({**schema, "components": spec["components"]})


def test_answers_validate_against_the_schema(spec, api_world):
    w = api_world
    play(w.match, [PLAIN_HAND], w.referee)
    play(w.table, [SICHUAN_SELF_DRAW], w.referee, end_reason="time")
    c = w.client(None)
    checks = [
        (api_url("tournament-list"), "TournamentSummary", True),
        (api_url("tournament-detail", "tp"), "Tournament", False),
        (api_url("round-list", "tp"), "RoundSummary", True),
        (api_url("round-detail", "tp", 1), "Round", False),
        (api_url("round-detail", "sc", 1), "Round", False),
        (api_url("standings", "tp"), "Standings", False),
        (api_url("standings", "sc"), "Standings", False),
        (api_url("match-detail", "tp", w.match.pk), "Result", False),
        (api_url("table-detail", "sc", w.table.pk), "Result", False),
        (api_url("match-records", "tp", w.match.pk), "Record", True),
        (api_url("match-record", "tp", w.match.pk, 1), "Record", False),
        (api_url("engine-list"), "EngineGame", True),
        (api_url("index"), "Index", False),
        (api_url("tournament-detail", "nope"), "Error", False),
    ]
    for url, component, many in checks:
        _validator(spec, component, many).validate(c.get(url).json())
    bad = w.client("referee").post(api_url("match-records", "tp", w.match.pk), {"version": 1, "record": {}}, format="json")
    assert bad.status_code == 400
    _validator(spec, "Error").validate(bad.json())
    ok = w.client("referee").post(api_url("match-records", "tp", w.match.pk), {"version": 1, "record": PLAIN_HAND},
                                  format="json")
    _validator(spec, "Result").validate(ok.json())


def test_a_wrong_answer_would_not_validate(spec, api_world):
    """The check above can fail: a result without its records, or with a total that is not a
    number, does not validate."""
    from jsonschema.exceptions import ValidationError

    data = api_world.client(None).get(api_url("match-detail", "tp", api_world.match.pk)).json()
    _validator(spec, "Result").validate(data)
    with pytest.raises(ValidationError, match="'records' is a required property"):
        _validator(spec, "Result").validate({k: v for k, v in data.items() if k != "records"})
    with pytest.raises(ValidationError, match="is not of type 'integer'"):
        _validator(spec, "Result").validate({**data, "totals": ["75", 25]})


def test_the_docs_load_only_our_own_static_files(db):
    c = APIClient()
    r = c.get("/api/docs/")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/html")
    html = r.content.decode()
    assert "script-src 'self'" in r["Content-Security-Policy"]
    assert "http://" not in html.replace("http://testserver", "") and "https://" not in html
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    static = [a for a in assets if a.startswith("/static/")]
    assert {a.rsplit("/", 1)[1] for a in static} >= {"swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js"}
    for asset in static:
        assert finders.find(asset.removeprefix("/static/")), asset
    # no inline script: the page's own script is a separate request
    assert re.findall(r"<script>", html) == []
    (script,) = [a for a in assets if "script" in a and not a.startswith("/static/")]
    js = c.get(script.replace("&amp;", "&"))
    assert js.status_code == 200 and js["Content-Type"].startswith("application/javascript")
    assert "/api/schema/" in js.content.decode()
