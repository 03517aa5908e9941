"""Retries with ``Idempotency-Key`` record nothing twice; two concurrent settles: one wins, one conflicts."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tables import services
from tables.models import AuditEvent, IdempotencyKey, Round, RoundCard
from tests.tables.api.test_round_commands import TWO_SEATS, ok, open_round, play_split_round


@pytest.mark.django_db
def test_a_retried_card_returns_the_first_answer_and_records_it_once(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table)["id"]
    first = dealer_api.post(f"/api/rounds/{rid}/cards/", {"code": "8S"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = dealer_api.post(f"/api/rounds/{rid}/cards/", {"code": "8S"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert RoundCard.objects.filter(round_id=rid).count() == 1
    assert AuditEvent.objects.filter(round_id=rid, action="round.card").count() == 1


@pytest.mark.django_db
def test_a_retried_round_open_opens_one_round(bj_table, dealer_api):
    url = f"/api/tables/{bj_table.pk}/rounds/"
    a = dealer_api.post(url, TWO_SEATS, format="json", HTTP_IDEMPOTENCY_KEY="open-7")
    b = dealer_api.post(url, TWO_SEATS, format="json", HTTP_IDEMPOTENCY_KEY="open-7")
    assert a.status_code == b.status_code == 201
    assert a.json()["id"] == b.json()["id"]
    assert Round.objects.count() == 1


@pytest.mark.django_db
def test_a_key_reused_for_another_request_is_refused(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table)["id"]
    ok(dealer_api.post(f"/api/rounds/{rid}/cards/", {"code": "8S"}, format="json", HTTP_IDEMPOTENCY_KEY="k-2"))
    other = dealer_api.post(f"/api/rounds/{rid}/cards/", {"code": "7D"}, format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    assert RoundCard.objects.filter(round_id=rid).count() == 1


@pytest.mark.django_db
def test_a_refused_command_keeps_no_key_so_the_retry_runs_again(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table)["id"]
    bad = dealer_api.post(f"/api/rounds/{rid}/cards/", {"code": "JK"}, format="json", HTTP_IDEMPOTENCY_KEY="k-3")
    assert bad.status_code == 400
    assert not IdempotencyKey.objects.filter(key="k-3").exists()


@pytest.mark.django_db
def test_a_bad_idempotency_key_is_a_400_naming_the_header(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table)["id"]
    response = dealer_api.post(f"/api/rounds/{rid}/cards/", {"code": "8S"}, format="json",
                               HTTP_IDEMPOTENCY_KEY="x" * 101)  # fmt: skip
    assert response.status_code == 400 and response.json()["field"] == "Idempotency-Key"


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_settles_one_wins_the_other_gets_a_conflict(demo_casino, dealer):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises whole-database writes)")
    from tests.tables.api.conftest import client_for

    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer)
    rid = play_split_round(client_for(dealer), table)["id"]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def settle() -> None:
        try:
            barrier.wait()
            services.round_settle(round=rid, actor=dealer)
            outcomes.append("settled")
        except services.Conflict as exc:
            outcomes.append(f"conflict: {exc}")
        finally:
            connection.close()

    threads = [threading.Thread(target=settle) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(o.split(":")[0] for o in outcomes) == ["conflict", "settled"], outcomes
    assert AuditEvent.objects.filter(round_id=rid, action="round.settle").count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_settles_over_http_give_200_and_409(demo_casino, dealer, live_server):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    import requests
    from knox.models import AuthToken

    from tests.tables.api.conftest import client_for

    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer)
    rid = play_split_round(client_for(dealer), table)["id"]
    _, token = AuthToken.objects.create(user=dealer)
    barrier = threading.Barrier(2)
    codes: list[int] = []

    def settle() -> None:
        barrier.wait()
        r = requests.post(f"{live_server.url}/api/rounds/{rid}/settle/", json={},
                          headers={"Authorization": f"Token {token}"}, timeout=30)  # fmt: skip
        codes.append(r.status_code)

    threads = [threading.Thread(target=settle) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200, 409]


@pytest.mark.django_db(transaction=True)
def test_a_round_read_while_a_card_is_recorded_shows_the_card_with_its_version_or_neither(
    demo_casino, dealer, monkeypatch
):
    """The tablet's poll read the round's row, a shoe feed's card was committed, then the poll read the
    cards: the document showed the card beside the version before it, and the dealer's next tap, sent
    with that version, was refused as a conflict (CI, PostgreSQL).  The read is one moment now."""
    from tables import selectors
    from tables.selectors import rounds as round_selectors
    from tests.tables.api.conftest import client_for

    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer)
    api = client_for(dealer)
    rid = open_round(api, table)["id"]
    ok(api.post(f"/api/rounds/{rid}/cards/", {"code": "9S"}, format="json"))
    fresh = round_selectors.round_fresh
    wrote = threading.Event()

    def another_device() -> None:
        try:
            services.round_add_card(round=rid, code="7D", actor=dealer)
            wrote.set()
        finally:
            connection.close()

    def fresh_then_a_write(pk: int) -> Round:
        row = fresh(pk)
        writer = threading.Thread(target=another_device)
        writer.start()
        # PostgreSQL: the write commits at once, beside this read's snapshot; SQLite: it waits for the
        # read to end (a writer is held off), so the read goes on after a short wait.
        wrote.wait(timeout=1.0)
        threads.append(writer)
        return row

    threads: list[threading.Thread] = []
    monkeypatch.setattr(round_selectors, "round_fresh", fresh_then_a_write)
    doc = api.get(f"/api/rounds/{rid}/").json()
    monkeypatch.setattr(round_selectors, "round_fresh", fresh)
    for t in threads:
        t.join(timeout=30)
    assert wrote.is_set()
    codes = [c["code"] for c in doc["cards"]]
    now = selectors.round_read(rid)
    if codes == ["9S"]:  # as it was before the card: the tablet's command with this version is refused
        assert doc["version"] < now["version"]
    else:  # the card and the version that came with it
        assert codes == ["9S", "7D"] and doc["version"] == now["version"]
    # The dealer's next tap with the version read goes through whenever the document showed the card.
    tap = api.post(f"/api/rounds/{rid}/cards/", {"code": "TH", "version": doc["version"]}, format="json")
    assert (tap.status_code == 200) == (codes == ["9S", "7D"]), tap.json()
