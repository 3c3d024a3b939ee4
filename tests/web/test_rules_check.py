"""The referee's Tai Pan rules check page (issue 3 item 5), through the Django test client. The
URL now names the game (``/rules/<game>/``); the judging lives with the game
(:mod:`scoring.games.taipan.rules_check`).

Verdicts come from the engine (NSKT rules): a Phoenix on a King is a single of rank 13.5; the
Phoenix cannot beat the Dragon; 3333+Phoenix is no combination; a pass with the wished 7 in hand
is refused; without the hand the wish is not checked.
"""
import pytest
from django.urls import reverse
from django.utils import translation

URL = "/rules/taipan/"


@pytest.fixture
def get(client):
    def do(params=None, lang="en", **headers):
        client.cookies["django_language"] = lang
        return client.get(URL, params or {}, HTTP_ACCEPT_LANGUAGE=lang, **headers)
    return do


@pytest.mark.django_db
def test_url_name_and_empty_form(get):
    assert reverse("scoring:rules_check", args=["taipan"]) == URL
    response = get()
    assert response.status_code == 200
    html = response.content.decode()
    assert "Tai Pan rules check" in html
    # three pickers with 56 tap-buttons each
    assert html.count('type="checkbox" name="current"') == 56
    assert html.count('type="checkbox" name="play"') == 56
    assert html.count('type="checkbox" name="hand"') == 56
    assert 'id="rules-check-result"' not in html
    assert 'name="viewport"' in html  # phone layout from base.html


@pytest.mark.django_db
def test_phoenix_on_a_king_is_legal_with_rank(get):
    response = get({"current": ["Ks"], "play": ["Phoenix"], "turn": "in_turn", "preset": "nskt"})
    html = response.content.decode()
    assert response.context["result"]["legal"] is True
    assert response.context["result"]["combination"]["rank"] == "13.5"
    assert "Legal" in html and "Single" in html and "13.5" in html
    # choices kept: the picked cards stay checked
    assert 'value="Ks" id="current-Ks" checked' in html and 'value="Phoenix" id="play-Phoenix" checked' in html


@pytest.mark.django_db
def test_phoenix_on_the_dragon_is_not_legal_with_reason(get):
    response = get({"current": ["Dragon"], "play": ["Phoenix"], "turn": "in_turn", "preset": "nskt"})
    result = response.context["result"]
    assert result["legal"] is False and result["reason"] == "The Phoenix cannot beat the Dragon."
    assert "Not legal" in response.content.decode()


@pytest.mark.django_db
def test_3333_phoenix_is_no_combination(get):
    response = get({"play": ["3s", "3j", "3p", "3t", "Phoenix"], "turn": "in_turn", "preset": "nskt"})
    result = response.context["result"]
    assert result["legal"] is False and result["combination"] is None and "not a full house" in result["reason"]


@pytest.mark.django_db
def test_wish_needs_the_hand(get):
    base = {"current": ["5s"], "wish": "7", "turn": "in_turn", "preset": "nskt"}
    unchecked = get(base)
    assert unchecked.context["result"]["legal"] is True and unchecked.context["result"]["wish_checked"] is False
    assert "could not be checked" in unchecked.content.decode()
    refused = get({**base, "hand": ["7j", "3p", "9t"]})
    assert refused.context["result"]["legal"] is False
    assert "must do so" in refused.context["result"]["reason"]
    fulfilled = get({**base, "play": ["7j"], "hand": ["3p", "9t"]})  # played card added to the hand
    assert fulfilled.context["result"]["legal"] is True and fulfilled.context["result"]["wish_fulfilled"] is True


@pytest.mark.django_db
def test_out_of_turn_bomb_and_preset(get):
    bomb = {"current": ["Mahjong"], "play": ["Ks", "Kj", "Kp", "Kt"], "wish": "8", "turn": "out_of_turn", "preset": "nskt",
            "hand": ["8s"]}
    response = get(bomb)
    assert response.context["result"]["legal"] is True
    assert "bomb" in response.context["result"]["combination"]["type"]


@pytest.mark.django_db
def test_engine_input_errors_shown_next_to_the_field(get):
    response = get({"current": ["3s", "4j"], "play": ["9t"], "turn": "in_turn", "preset": "nskt"})
    form = response.context["form"]
    assert response.context["result"] is None
    assert form.errors["current"] == ["The cards on the table form no combination."]
    assert 'id="current_errors"' in response.content.decode()
    response = get({"current": ["Ks"], "play": ["Ks"], "turn": "in_turn", "preset": "nskt"})
    assert "play" in response.context["form"].errors


@pytest.mark.django_db
def test_unknown_card_rejected_by_the_form(get):
    response = get({"play": ["Zz"], "turn": "in_turn", "preset": "nskt"})
    assert "play" in response.context["form"].errors and response.context["result"] is None


@pytest.mark.django_db
def test_dutch(get):
    with translation.override("nl"):
        response = get({"current": ["Dragon"], "play": ["Phoenix"], "turn": "in_turn", "preset": "nskt"}, lang="nl")
    assert response.status_code == 200
    assert response.context["result"]["legal"] is False
    assert 'lang="nl"' in response.content.decode()


@pytest.mark.django_db
def test_htmx_returns_the_panel_only(get):
    response = get({"current": ["Ks"], "play": ["As"], "turn": "in_turn", "preset": "nskt"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="rules-check">') and "<html" not in html
    assert response.context["result"]["legal"] is True


@pytest.mark.django_db
def test_no_database_queries(get, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):  # session/auth lookups at most; the check itself is pure
        get({"current": ["Ks"], "play": ["As"], "turn": "in_turn", "preset": "nskt"})


@pytest.mark.django_db
def test_reason_goes_through_gettext_with_params(get, monkeypatch):
    import scoring.games.taipan.rules_check as view

    seen = []

    def fake_gettext(text):
        seen.append(text)
        return "NL: " + text

    monkeypatch.setattr(view, "_t", fake_gettext)
    response = get({"current": ["Qs", "Qj"], "play": ["Js", "Jj"], "turn": "in_turn", "preset": "nskt"})
    assert "A {type} of rank {rank} does not beat a {current} of rank {current_rank}." in seen
    assert response.context["result"]["reason"] == "NL: A pair of rank J does not beat a pair of rank Q."


def test_link_without_turn_or_preset_uses_the_defaults(client):
    """A shared link with only the cards falls back to in turn and the NSKT rules (docs/engines/index.md)."""
    client.cookies["django_language"] = "en"
    response = client.get("/rules/taipan/?play=5s")
    page = response.content.decode()
    assert response.status_code == 200 and 'lang="en"' in page
    assert "This field is required" not in page
    assert "legal" in page.lower()


def test_straight_flush_length_reason():
    """NSKT rules, bombs: a longer straight flush is only beaten by a longer one (length first)."""
    import engines

    out = engines.run("taipan", "play", {"current": {"cards": ["3j", "4j", "5j", "6j", "7j", "8j"]},
                                         "play": ["9s", "10s", "Js", "Qs", "Ks"], "wish": None, "in_turn": True})
    assert out["legal"] is False
    assert out["reason_params"] == {"length": 5, "needed": 6}
