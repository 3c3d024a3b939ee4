"""The site answers: tournament list, admin login, and the settings' embedded defaults."""
import pytest
from django.conf import settings


@pytest.mark.django_db
def test_home_page(client):
    assert client.get("/").status_code == 200


def test_celery_is_eager_without_redis(monkeypatch):
    if settings.REDIS_URL:
        pytest.skip("REDIS_URL set: services run")
    assert settings.CELERY_TASK_ALWAYS_EAGER is True


@pytest.mark.django_db
def test_forbidden_page_explains_roles(client, django_user_model):
    user = django_user_model.objects.create_user("plain", password="x-Secret-123")
    client.force_login(user)
    response = client.get("/new/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    assert "members page" in response.content.decode() or "ledenpagina" in response.content.decode()
