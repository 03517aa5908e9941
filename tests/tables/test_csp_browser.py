"""Every page carries a Content-Security-Policy, and the pages render under it in a real browser.

Headless Chromium (Playwright) opens the back office, the tablet, the dashboard and the Swagger UI and
records every CSP violation (the ``securitypolicyviolation`` event and the console's "Refused to ...")
and every request that left the server (Swagger UI used to come from a CDN: blank offline).
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e =>
  window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + e.sourceFile + ':' + e.lineNumber));
"""


def test_every_response_carries_the_policy(db) -> None:
    for path in ("/admin/login/", "/api/docs/", "/healthz", "/tablet/login/"):
        policy = Client().get(path)["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy, (path, policy)
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy


def test_swagger_ui_is_served_locally_with_no_inline_script(db) -> None:
    html = Client().get("/api/docs/").content.decode()
    assert "cdn" not in html.lower() and "<script>" not in html
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    script = Client().get("/api/docs/?script=")
    assert script.status_code == 200 and "javascript" in script["Content-Type"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_back_office_tablet_dashboard_and_swagger_render_without_csp_violations(
    browser: Any, live_server: Any, demo_casino: Any, dealer: Any, pit_boss: Any, games_manager: Any
) -> None:
    from tables import services
    from tables.models import PayTable

    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer)
    pay_table = PayTable.objects.filter(game__slug="unlimited-blackjack").first()
    pages = {
        games_manager: ["/admin/", "/admin/tables/table/", f"/admin/tables/paytable/{pay_table.pk}/change/",
                        "/admin/tables/ruleset/add/"],
        pit_boss: ["/dashboard/", f"/dashboard/tables/{table.pk}/", "/dashboard/reports/", "/api/docs/"],
        dealer: ["/tablet/", f"/tablet/tables/{table.pk}/"],
    }  # fmt: skip
    problems: list[str] = []
    outside: list[str] = []
    for user, paths in pages.items():
        client = Client()
        client.force_login(user)
        context = browser.new_context()
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
        context.add_init_script(LISTEN)
        page = context.new_page()
        page.on("console", lambda m: problems.append(f"console: {m.text}")
                if "Content Security Policy" in m.text or "Refused to" in m.text else None)  # fmt: skip
        page.on("request", lambda r: outside.append(r.url)
                if not r.url.startswith((live_server.url, "data:", "blob:")) else None)  # fmt: skip
        for path in paths:
            response = page.goto(f"{live_server.url}{path}")
            assert response is not None and response.status == 200, (path, response and response.status)
            assert "script-src 'self'" in response.headers.get("content-security-policy", ""), path
            page.wait_for_load_state("networkidle")
            if path == "/api/docs/":
                page.wait_for_selector(".swagger-ui .info .title", timeout=15_000)
                page.wait_for_selector(".opblock", timeout=15_000)  # the operations rendered
            problems.extend(f"{path}: {v}" for v in page.evaluate("window.__csp"))
        context.close()
    time.sleep(0.5)  # polls in flight finish before the database is flushed
    assert problems == [], "\n".join(problems)
    assert outside == [], outside
