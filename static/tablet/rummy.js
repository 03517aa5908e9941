/* Contract Rummy dealer assist on the tablet: pick the laid-down cards and the cards left in a hand,
 * check them against the deal's contract (the engine, through /api/tables/<id>/rummy/check/), and keep
 * the score sheet of the seven deals on this tablet (localStorage). */
(function () {
  "use strict";
  const app = document.getElementById("app");
  const TABLE = Number(app.dataset.table);
  const SHEET = "rummy-sheet-" + TABLE;
  const $ = (id) => document.getElementById(id);
  const players = ["Player 1", "Player 2", "Player 3", "Player 4"];
  let deal = 1, player = players[0], target = "laid", rank = null, last = null;
  const cards = { laid: [], hand: [] };
  const sheet = JSON.parse(localStorage.getItem(SHEET) || "{}"); // player -> {deal: points}

  function btn(text, attrs, onclick, on) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "toggle" + (on ? " on" : "");
    b.textContent = text;
    for (const [k, v] of Object.entries(attrs)) b.setAttribute(k, v);
    b.addEventListener("click", onclick);
    return b;
  }
  function csrf() {
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function render() {
    $("rummy-deal").textContent = deal;
    $("rummy-deals").replaceChildren(...[1, 2, 3, 4, 5, 6, 7].map((d) =>
      btn(`Deal ${d}`, { "data-deal": d }, () => { deal = d; last = null; render(); }, d === deal)));
    $("rummy-players").replaceChildren(...players.map((p) =>
      btn(p, { "data-player": p }, () => { player = p; cards.laid = []; cards.hand = []; last = null; render(); }, p === player)));
    $("rummy-target-laid").className = "btn" + (target === "laid" ? " primary" : "");
    $("rummy-target-hand").className = "btn" + (target === "hand" ? " primary" : "");
    const show = (k, label) => {
      const d = document.createElement("div");
      d.className = "hand";
      d.dataset.rummy = k;
      d.textContent = `${label}: ${cards[k].join(" ") || "—"}`;
      return d;
    };
    $("rummy-cards").replaceChildren(show("laid", "Laid down"), show("hand", "Left in hand"));
    const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
    $("rummy-ranks").replaceChildren(...ranks.map((r) => {
      const b = btn(r === "T" ? "10" : r, { "data-rummy-rank": r }, () => { rank = r; render(); }, rank === r);
      b.className = "pick rank" + (rank === r ? " on" : "");
      return b;
    }), Object.assign(btn("Joker", { "data-rummy-rank": "JK" }, () => { cards[target].push("JK"); render(); }), { className: "pick rank" }));
    $("rummy-suits").replaceChildren(...[["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]].map(([s, sym]) => {
      const b = btn(sym, { "data-rummy-suit": s }, () => { cards[target].push(rank + s); rank = null; render(); });
      b.className = "pick suit" + (/[HD]/.test(s) ? " red" : "");
      b.disabled = rank === null;
      return b;
    }));
    $("rummy-record").disabled = !last;
    $("rummy-sheet-head").replaceChildren(row(["Player", 1, 2, 3, 4, 5, 6, 7, "Total"], "th"));
    $("rummy-sheet").replaceChildren(...players.map((p) => {
      const s = sheet[p] || {};
      const total = Object.values(s).reduce((a, b) => a + b, 0);
      return row([p, ...[1, 2, 3, 4, 5, 6, 7].map((d) => (d in s ? s[d] : "")), total], "td", p);
    }));
  }
  function row(values, tag, key) {
    const tr = document.createElement("tr");
    if (key) tr.dataset.sheet = key;
    for (const v of values) {
      const c = document.createElement(tag);
      c.textContent = v;
      tr.append(c);
    }
    return tr;
  }
  async function check() {
    const body = { deal, hand: cards.hand };
    if (cards.laid.length) body.cards = cards.laid;
    const r = await fetch(`/api/tables/${TABLE}/rummy/check/`, { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() }, body: JSON.stringify(body) });
    const data = await r.json();
    if (!r.ok) {
      $("rummy-result").textContent = `${data.field || ""}: ${data.error}`;
      last = null;
    } else {
      const contract = data.met === null ? "no contract laid down" : data.met ? `contract met — ${data.message}` : `contract NOT met: ${data.message}`;
      $("rummy-result").textContent = `Deal ${data.deal} (${data.contract.join(" + ")}): ${contract}. Hand: ${data.hand_detail}`;
      last = data;
    }
    render();
  }
  $("rummy-target-laid").addEventListener("click", () => { target = "laid"; render(); });
  $("rummy-target-hand").addEventListener("click", () => { target = "hand"; render(); });
  $("rummy-clear").addEventListener("click", () => { cards.laid = []; cards.hand = []; last = null; render(); });
  $("rummy-check").addEventListener("click", check);
  $("rummy-record").addEventListener("click", () => {
    (sheet[player] = sheet[player] || {})[deal] = last.hand_points;
    localStorage.setItem(SHEET, JSON.stringify(sheet));
    last = null;
    render();
  });
  render();
})();
