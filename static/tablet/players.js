/* Rated players at this table: who sits where, seat a player by card number or name, pause, resume,
 * close their rating slip (the accounting API, docs/accounting.md).  House-banked games only. */
(function () {
  "use strict";
  const { $, el, newKey, request } = window.TabletKit;
  const app = $("app");
  const box = $("players");
  // Rated where the house banks the game (the server says so), by the dealer or a pit boss.
  if (!app || !box || app.dataset.rated !== "1" || (app.dataset.dealer !== "1" && app.dataset.pitBoss !== "1")) return;
  const table = app.dataset.table;
  const seats = Number(app.dataset.seats) || 1;
  const seatSelect = $("players-seat");
  for (let s = 1; s <= seats; s++) seatSelect.append(el("option", { value: String(s), text: String(s) }));

  const FIELDS = { card_number: "Card number", name: "Name", seat: "Seat" };
  const showError = (data) => window.TabletKit.showErrorIn($("players-error"), data, FIELDS);

  async function post(url, body) {
    const r = await request("POST", url, body, newKey());
    showError(r.ok ? null : r.data);
    await load();
    return r.ok;
  }

  async function load() {
    const r = await request("GET", `/api/tables/${table}/players/`);
    if (!r.ok) return;
    const list = $("players-list");
    list.replaceChildren(...r.data.map((p) => el("li", { "data-rating": p.id },
      el("span", { class: "who", text: `Seat ${p.seat}: ${p.player.display_name}` }),  // named as every page names them
      el("span", { class: "state", text: ` ${p.state}, ${p.rounds} rounds, avg ${p.avg_bet} ` }),
      p.state === "open"
        ? el("button", { class: "btn", type: "button", text: "Pause", onclick: () => post(`/api/ratings/${p.id}/pause/`) })
        : el("button", { class: "btn", type: "button", text: "Back", onclick: () => post(`/api/ratings/${p.id}/resume/`) }),
      el("button", { class: "btn ghost", type: "button", text: "Leaves", onclick: () => post(`/api/ratings/${p.id}/close/`) }))));
    if (!r.data.length) list.append(el("li", { class: "none", text: "No rated player seated." }));
  }

  $("players-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { seat: Number(seatSelect.value) };
    const card = $("players-card").value.trim();
    const name = $("players-name").value.trim();
    if (card) body.card_number = card;
    if (name) body.name = name;
    if (await post(`/api/tables/${table}/players/`, body)) {
      $("players-card").value = "";
      $("players-name").value = "";
    }
  });
  // Shown (and read) only while this user may deal here: the table's dealer or a pit boss.  tablet.js says
  // so each time it draws the table, so taking a table brings its players in without a reload (a dealer
  // who does not hold the table may not read them).
  let following = false;
  window.TabletPlayers = {
    follow(on) {
      box.hidden = !on;
      if (on && !following) load();
      following = on;
    },
  };
})();
