"""The web view on PostgreSQL: a search, a supersede and a forget through the page (real HTTP),
asserted on the store."""

from __future__ import annotations

import re

import httpx2
import pytest
from uiserver import CALLER, served

from memvault.tools import handlers

pytestmark = pytest.mark.slow


def test_the_page_searches_supersedes_and_forgets_on_postgresql(pg_url, one_model):
    with served(pg_url, browsed=False) as ui, httpx2.Client(base_url=ui.base, timeout=30) as http:
        store = ui.store
        assert store.backend.kind == "postgresql"
        old = handlers.remember(store, CALLER, content="The VPN gateway is vpn-eu-2").id
        handlers.remember(store, CALLER, content="Backups run nightly at 02:00")
        opened = http.get(f"/?token={ui.token}")
        assert opened.status_code == 303
        cookie = {"cookie": opened.headers["set-cookie"].split(";")[0]}

        found = http.get("/", params={"q": "which VPN gateway?"}, headers=cookie)
        assert found.status_code == 200
        assert re.findall(r'class="content" href="/memories/([\w-]+)"', found.text)[0] == old
        csrf = re.findall(r'name="csrf" value="(\w+)"', http.get(f"/memories/{old}", headers=cookie).text)[0]
        posted = {**cookie, "origin": ui.base}

        moved = http.post(f"/memories/{old}/supersede", headers=posted, data={
            "csrf": csrf, "content": "The VPN gateway is vpn-eu-3", "reason": "eu-2 retired"})
        assert moved.status_code == 303
        new = moved.headers["location"].rsplit("/", 1)[1]
        assert store.get(tenant="default", id=old).superseded_by == new
        assert store.get(tenant="default", id=new).content == "The VPN gateway is vpn-eu-3"

        gone = http.post(f"/memories/{new}/forget", headers=posted, data={"csrf": csrf, "history": "on"})
        assert gone.status_code == 303 and gone.headers["location"] == "/?done=forgotten"
        for memory_id in (old, new):
            stored = store.get(tenant="default", id=memory_id)
            assert stored.content is None and stored.forgotten_at is not None
        assert "vpn-eu" not in http.get("/", params={"q": "VPN gateway"}, headers=cookie).text
