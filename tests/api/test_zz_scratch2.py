import json, random, time
import pytest
from tables import services
from tests.api.test_round_commands import ok
pytestmark = pytest.mark.django_db

def test_dump(demo_casino, dealer_api, dealer):
    table = demo_casino.tables["contract-rummy"]
    services.table_open(table=table, actor=dealer)
    g = ok(dealer_api.post(f"/api/tables/{table.pk}/rummy/games/", {"players": ["Ann","Bob","Cy"], "dealer": "Cy"}, format="json"), 201)
    gid = g["id"]
    doc = ok(dealer_api.post(f"/api/rummy/games/{gid}/deals/", {}, format="json"), 201)
    out = [doc]
    rnd = random.Random(1)
    t = time.time(); n = 0
    for _ in range(40):
        nxt = doc["next"]
        a = rnd.choice(nxt["allowed"])
        body = {"action": a}
        if nxt["actor"].startswith("player:"): body["player"] = nxt["actor"][7:]
        if a == "discard":
            body["card"] = rnd.choice(doc["hands"][nxt["actor"][7:]])
        r = dealer_api.post(f"/api/rummy/games/{gid}/actions/", body, format="json"); n += 1
        if r.status_code != 200:
            print("REFUSED", body, r.json()); continue
        doc = r.json()
        out.append({k: doc[k] for k in doc if k in ("next", "discard_top", "stock_left")})
    print("per request", (time.time()-t)/n)
    out.append(doc)
    json.dump(out, open("/tmp/pg/rdump.json", "w"), indent=1)
