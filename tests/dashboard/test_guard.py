"""Who may ask what: the Host header on this machine, the token (a cookie after a first visit
with it, a Bearer header; compared in constant time), and every route closed on an address
other machines reach."""

from __future__ import annotations

import pytest

from azulcam.dashboard.guard import COOKIE, local_host
from azulcam.dashboard.settings import Settings
from azulcam.i18n.words import words

TOKEN = "s3cret-token"


def test_the_host_header_must_name_this_machine_when_served_on_it(played, make_client):
    live, history, _, _ = played
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "localhost"):
        assert make_client(live, history, host=host).get("/api/state").status_code == 200
    rebound = make_client(live, history, host="attacker.example:8000").get("/api/state")
    assert rebound.status_code == 400 and rebound.json()["detail"]["code"] == "http.bad_host"
    assert rebound.json()["detail"]["message"] == "This dashboard answers to this machine's own names only, not attacker.example:8000"
    french = make_client(live, history, host="attacker.example:8000").get("/api/state?lang=fr").json()["detail"]
    assert french["message"] == "Ce tableau de bord ne répond qu'aux noms de cette machine, pas à attacker.example:8000"
    assert not local_host("127.0.0.1.attacker.example") and not local_host("[::1].evil")


def test_on_this_machine_writes_need_the_token_and_reads_stay_open(played, make_client):
    live, history, _, _ = played
    client = make_client(live, history, Settings(token=TOKEN))
    body = {"overrule": {"zone": "center", "content": []}}
    assert client.get("/api/state").status_code == 200
    for headers in ({}, {"Authorization": TOKEN}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"}):
        reply = client.post("/api/corrections", json=body, headers=headers)
        assert reply.status_code == 401 and reply.json()["detail"]["code"] == "http.token", headers
    assert client.post(f"/api/corrections?token={TOKEN}", json=body).status_code == 401  # never in the address
    assert client.post("/api/corrections", json=body, headers={"Authorization": f"Bearer {TOKEN}"}).status_code in (200, 202)


def test_exposed_every_route_needs_the_token_and_a_first_visit_sets_the_cookie(played, make_client):
    live, history, _, _ = played
    client = make_client(live, history, Settings(host="0.0.0.0", token=TOKEN), host="192.168.1.20:8000")
    for url in ("/", "/api/state", "/events", "/stream.mjpg", "/snapshot.jpg", "/api/games", "/api/suggestions?time=1",
                "/api/openapi.json", "/api/docs", "/static/dashboard.js"):
        assert client.get(url).status_code == 401, url
    assert client.get(f"/api/state?token={TOKEN}x").status_code == 401
    first = client.get(f"/overlay/score?lang=fr&token={TOKEN}", follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == "/overlay/score?lang=fr"
    cookie = first.headers["set-cookie"]
    assert f"{COOKIE}={TOKEN}" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert client.get("/api/state").status_code == 200  # the client keeps the cookie
    assert client.post("/api/corrections", json={"overrule": {"zone": "center", "content": []}}).status_code in (200, 202)


def test_settings_refuse_an_exposed_address_without_a_token_and_a_weak_one():
    with pytest.raises(ValueError) as refused:
        Settings(host="0.0.0.0")
    assert refused.value.code == "dash.needs_token" and refused.value.params == {"host": "0.0.0.0"}
    assert words(refused.value) == "--host 0.0.0.0 lets other machines in: give --token, which every request will need"
    with pytest.raises(ValueError) as refused:
        Settings(token="short")
    assert refused.value.code == "dash.short_token"
    assert not Settings().exposed and Settings(host="::1").token is None


def test_the_token_is_compared_in_constant_time(monkeypatch, played, make_client):
    import hmac

    live, history, _, _ = played
    compared = []
    real = hmac.compare_digest
    monkeypatch.setattr(hmac, "compare_digest", lambda a, b: compared.append((a, b)) or real(a, b))
    make_client(live, history, Settings(token=TOKEN)).post("/api/corrections", json={"undo": True},
                                                           headers={"Authorization": "Bearer guess"})
    assert compared == [(b"guess", TOKEN.encode())]
