"""The API's browsable docs (``/api/docs/``, Swagger UI from our own static files) render in a real
browser under the site's content security policy: no refused script, style or request, the
schema loaded and every group of endpoints listed."""
import pytest

from tests.browser.conftest import LAPTOP, shot

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_api_docs_render_under_the_csp(new_page):
    page = new_page(LAPTOP, locale="en-GB")
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" or "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("requestfailed", lambda r: problems.append(f"failed {r.url}"))
    page.goto(page.base + "/api/docs/")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "NSKT tournaments API" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock-tag")
    tags = {t.strip().lower() for t in page.locator(".opblock-tag").all_inner_texts()}
    assert {"tournaments", "rounds", "standings", "results", "engines"} <= {t.split("\n")[0] for t in tags}
    assert "/api/v1/tournaments/{slug}/standings" in page.inner_text(".swagger-ui")
    shot(page, "api-docs")
    assert problems == []
