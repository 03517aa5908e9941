/* Contract Rummy on the tablet: the game is kept on the server (/api/rummy/games/...).
 *
 * Start a game (players, first dealer), deal each deal, and follow every turn with the actions the
 * engine allows (take or decline the discard, claims, draw, lay down the contract, lay off, discard).
 * Cards to lay down come from the player's hand (tapped) or from a scan of the laid-down cards.  The
 * score sheet is the server's: it survives a reload or another tablet.  Every command carries an
 * Idempotency-Key and is re-sent after a dropped network.  A contract can still be checked without
 * recording anything (the panel at the bottom).
 */
(function () {
  "use strict";
  const app = document.getElementById("app");
  const TABLE = Number(app.dataset.table);
  const PENDING = "rummy-pending-" + TABLE;
  const { $, el } = window.TabletKit;
  const LABELS = {
    start_deal: "Deal", take_discard: "Take the discard", decline_discard: "Decline the discard",
    claim_discard: "Claim it (+ penalty card)", pass_claim: "Pass", draw_stock: "Draw from the stock",
    reshuffle_discards: "Shuffle the discards into a new stock",
  };

  let game = null;
  let count = 4;
  let first = 0;
  let selected = []; // indices into the hand of the player in turn
  let meldTarget = null;
  let scanned = null; // {sha256, codes}
  let revealed = null; // the player whose cards are shown (face down otherwise: only the player sees them)
  let busy = false;
  let answered = 0; // commands answered so far (see load)
  let loads = 0; // loads begun so far

  function pretty(code) {
    if (code.startsWith("JK")) return "Joker" + (code.includes("=") ? "=" + pretty(code.split("=")[1]) : ""); // in words, as tablet.js
    const suit = { S: "♠", H: "♥", D: "♦", C: "♣" }[code.slice(-1)];
    return code.slice(0, -1).replace("T", "10") + suit;
  }
  // Card codes inside the engine's words as the dealer reads cards: "7H" → "7♥", "JK" → "Joker".
  const faces = (text) => String(text).replace(/\b(JK|[2-9TJQKA][SHDC])\b/g, (c) => pretty(c));
  // The refusal in words (no rule id, field path or raw JSON on screen: kit.js).
  const showError = (data) => window.TabletKit.showErrorIn($("error"), data);
  const request = window.TabletKit.request;
  async function command(url, body) {
    if (busy) return null;
    busy = true;
    // One command at a time: the game's buttons are disabled until it is answered (a tap meanwhile would
    // be dropped, and a button that does nothing looks broken); drawn again from the answer.
    for (const b of document.querySelectorAll("#rummy-actions button, #rummy-hand button")) b.disabled = true;
    showError(null);
    const key = window.TabletKit.newKey();
    localStorage.setItem(PENDING, JSON.stringify({ url, body, key }));
    try {
      const r = await request("POST", url, body, key);
      answered += 1;
      localStorage.removeItem(PENDING);
      if (!r.ok) {
        showError(r.data);
        await load();
        return null;
      }
      selected = [];
      meldTarget = null;
      scanned = null;
      adopt(r.data);
      render();
      return r.data;
    } finally {
      busy = false;
      if (game) render(); // a refusal whose reload failed still gets its buttons back
    }
  }
  const resendPending = () => window.TabletKit.resendPending(PENDING, showError);
  async function load() {
    const start = answered;
    const mine = ++loads;
    const r = await request("GET", `/api/tables/${TABLE}/rummy/games/`);
    if (!r.ok) return showError(r.data);
    // A command answered, or a later load began, while this one was on its way: theirs is newer.
    if (answered !== start || mine !== loads) return;
    adopt(r.data.find((g) => g.state === "playing") || r.data[0] || null);
    render();
  }

  const playing = () => game && game.state === "playing";
  // The game as the server answered; once it has ended, the next game's form starts from its table: as many
  // players (the form went back to 4).
  function adopt(next) {
    const before = game;
    game = next;
    if (game && !playing() && (!before || before.id !== game.id || before.state === "playing")) {
      count = game.players.length;
      first = Math.min(first, count - 1);
    }
  }
  const turn = () => (game && game.next.actor && game.next.actor.startsWith("player:") ? game.next.actor.slice(7) : null);
  const act = (action, extra = {}) => command(`/api/rummy/games/${game.id}/actions/`, { action, version: game.version, ...extra });

  function render() {
    $("rummy-new").hidden = playing();
    $("rummy-play").hidden = !playing();
    // An ended game says no dealer ("Player 2 deals · ended early" read as if a deal were coming).
    $("rummy-title").textContent = game ? `· game ${game.number} · ` + (game.deal ? `deal ${game.deal} of ${game.deals_in_game}` +
      ` · contract ${game.contract.join(" + ")}` + (playing() ? ` · ${game.dealer} deals` : "") : "no deal yet") +
      (playing() ? "" : ` · ${game.state_label}`) : "";
    renderNew();
    if (playing()) renderPlay();
    renderSheet();
  }

  function renderNew() {
    $("rummy-count").replaceChildren(...[3, 4, 5, 6, 7, 8].map((n) => el("button", { class: "toggle" + (n === count ? " on" : ""),
      type: "button", "data-rummy-count": n, text: `${n} players`, onclick: () => { count = n; first = Math.min(first, n - 1); render(); } })));
    $("rummy-first").replaceChildren(...Array.from({ length: count }, (_, i) => el("button", {
      class: "toggle" + (i === first ? " on" : ""), type: "button", "data-rummy-first": i, text: `Player ${i + 1} deals first`,
      onclick: () => { first = i; render(); } })));
  }

  function renderPlay() {
    const n = game.next;
    const who = turn();
    // The reason may already name the player ("Player 2: take the 8H"): never the name twice.
    const reason = String(n.reason || "");
    const words = faces(reason);
    $("rummy-prompt").textContent = (who && !reason.toLowerCase().startsWith(who.toLowerCase()) ? `${who}: ` : "") + words;
    $("rummy-prompt").dataset.needs = n.needs;
    const hand = who && game.hands[who] ? game.hands[who] : [];
    const buttons = [];
    for (const a of n.allowed) {
      if (a === "start_deal") buttons.push(el("button", { class: "btn primary big", type: "button", "data-rummy-action": a,
        text: `Deal ${game.deal + 1}`, onclick: () => command(`/api/rummy/games/${game.id}/deals/`, { version: game.version }) }));
      else if (a === "lay_down") buttons.push(el("button", { class: "btn primary big", type: "button", "data-rummy-action": a,
        text: scanned ? "Lay down the scanned cards" : selected.length ? `Lay down the ${selected.length} selected` :
          "Lay down: select the cards first",
        disabled: !scanned && !selected.length, onclick: layDown }));
      else if (a === "discard") buttons.push(el("button", { class: "btn big", type: "button", "data-rummy-action": a,
        text: "Discard the selected card", disabled: selected.length !== 1,
        onclick: () => act("discard", { card: hand[selected[0]] }) }));
      else if (a === "lay_off") buttons.push(el("button", { class: "btn big", type: "button", "data-rummy-action": a,
        text: "Lay off the selected card on the chosen meld", disabled: selected.length !== 1 || meldTarget === null,
        onclick: () => act("lay_off", { card: hand[selected[0]], meld: meldTarget }) }));
      else if (LABELS[a]) buttons.push(el("button", { class: "btn big" + (n.forced === a ? " forced" : ""), type: "button",
        "data-rummy-action": a, text: LABELS[a], onclick: () => act(a) }));
      else if (a === "trade_joker") buttons.push(el("button", { class: "btn big", type: "button", "data-rummy-action": a,
        text: "Trade the selected card for the Joker in the chosen meld", disabled: selected.length !== 1 || meldTarget === null,
        onclick: () => act("trade_joker", { card: hand[selected[0]], meld: meldTarget }) }));
    }
    $("rummy-actions").replaceChildren(...buttons);
    $("rummy-table").replaceChildren(
      el("div", { class: "hand", text: `Discard pile: ${game.top_discard ? pretty(game.top_discard) : "—"} · stock ${game.stock}` }),
      ...game.melds.map((m) => el("button", { class: "toggle" + (meldTarget === m.index ? " on" : ""), type: "button",
        "data-meld": m.index, text: `${m.owner}: ${m.kind} ${m.cards.map(pretty).join(" ")}`,
        onclick: () => { meldTarget = m.index; render(); } })));
    if (revealed !== who) revealed = null; // the turn passed: the cards go face down again
    const counts = el("div", { class: "rummy-counts" }, ...Object.entries(game.hands).map(([p, cards]) => el("span", {
      class: "rummy-count" + (p === who ? " turn" : ""), "data-count": p, text: `${p}: ${cards.length} cards` })));
    if (who && revealed !== who) {
      $("rummy-hand").replaceChildren(counts, el("div", { class: "cards face-down" },
        el("span", { class: "hand-label", text: `${who}'s cards, face down:` }), ...hand.map(() => el("span", { class: "playing-card back" }))),
        // "(to lay down or discard)" only when that is what comes: not for taking the discard or a claim.
        el("button", { class: "btn big", type: "button", id: "rummy-reveal", text: `Show ${who}'s cards` +
          (n.allowed.some((a) => ["lay_down", "discard", "lay_off"].includes(a)) ? " (to lay down or discard)" : ""),
          onclick: () => { revealed = who; render(); } }));
      $("rummy-scan-label").hidden = !n.allowed.includes("lay_down");
      return;
    }
    $("rummy-hand").replaceChildren(counts, ...(who ? [el("h4", {}, `${who}'s hand (${game.hand_points[who]} points) `,
      el("button", { class: "btn ghost", type: "button", id: "rummy-hide", text: "Hide the cards",
        onclick: () => { revealed = null; selected = []; render(); } })),
      ...hand.map((c, i) => el("button", { class: "playing-card toggle" + (selected.includes(i) ? " on" : "") + (/[HD]$/.test(c) ? " red" : "") +
        (c.startsWith("JK") ? " joker" : ""),
        type: "button", "data-hand-card": c, "data-hand-index": i, text: pretty(c),
        onclick: () => { selected = selected.includes(i) ? selected.filter((x) => x !== i) : [...selected, i]; scanned = null; render(); } }))] : []));
    $("rummy-scan-label").hidden = !n.allowed.includes("lay_down");
  }

  function renderSheet() {
    const deals = game ? game.deals_in_game : 7;
    const nums = Array.from({ length: deals }, (_, i) => i + 1);
    $("rummy-sheet-head").replaceChildren(el("tr", {}, ...["Player", ...nums, "Total"].map((t) => el("th", { text: t }))));
    $("rummy-sheet").replaceChildren(...(game ? game.sheet : []).map((row) => el("tr", { "data-sheet": row.player },
      el("td", { text: row.player + (game.winners.includes(row.player) ? " 🏆" : "") }),
      ...nums.map((d) => el("td", { text: d <= row.scores.length ? row.scores[d - 1] : "" })),
      el("td", { class: "sum", text: row.total }))));
  }

  async function layDown() {
    const hand = game.hands[turn()];
    const cards = scanned ? scanned.codes : selected.map((i) => hand[i]);
    const extra = scanned ? { scan_sha256: scanned.sha256 } : {};
    await act("lay_down", { cards, ...extra });
  }
  async function scan(file) {
    const form = new FormData();
    form.append("image", file);
    showError(null);
    const r = await request("POST", `/api/rummy/games/${game.id}/scan/`, form);
    $("rummy-scan").value = "";
    const box = $("rummy-scan-result");
    box.hidden = false;
    if (!r.ok) {
      box.textContent = `Scan not read: ${window.TabletKit.errorText(r.data)} Tap the cards in the hand instead.`;
      return;
    }
    const codes = r.data.cards.map((c) => c.code);
    box.textContent = `Read ${codes.map(pretty).join(" ")} (` + r.data.cards.map((c) => Math.round(100 * c.confidence) + "%").join(", ") +
      ") — " + (r.data.met ? `contract met: ${r.data.melds.map((m) => m.map(pretty).join(" ")).join(" | ")}` : `contract NOT met: ${r.data.message}`);
    scanned = r.data.met ? { sha256: r.data.sha256, codes } : null;
    render();
  }
  async function startGame() {
    const players = Array.from({ length: count }, (_, i) => `Player ${i + 1}`);
    await command(`/api/tables/${TABLE}/rummy/games/`, { players, dealer: players[first] });
  }

  // ---- check a contract without recording it (stateless, /api/tables/<id>/rummy/check/) -------------
  let target = "laid", rank = null;
  const cards = { laid: [], hand: [] };
  function renderCheck() {
    $("rummy-target-laid").className = "btn" + (target === "laid" ? " primary" : "");
    $("rummy-target-hand").className = "btn" + (target === "hand" ? " primary" : "");
    $("rummy-cards").replaceChildren(...[["laid", "Laid down"], ["hand", "Left in hand"]].map(([k, label]) =>
      el("div", { class: "hand", "data-rummy": k, text: `${label}: ${cards[k].map(pretty).join(" ") || "—"}` })));
    const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
    $("rummy-ranks").replaceChildren(...ranks.map((r) => el("button", { class: "pick rank" + (rank === r ? " on" : ""), type: "button",
      "data-rummy-rank": r, text: r === "T" ? "10" : r, onclick: () => { rank = r; renderCheck(); } })),
      el("button", { class: "pick rank", type: "button", "data-rummy-rank": "JK", text: "Joker",
        onclick: () => { cards[target].push("JK"); renderCheck(); } }));
    $("rummy-suits").replaceChildren(...[["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]].map(([s, sym]) => el("button", {
      class: "pick suit" + (/[HD]/.test(s) ? " red" : ""), type: "button", "data-rummy-suit": s, text: sym, disabled: rank === null,
      onclick: () => { cards[target].push(rank + s); rank = null; renderCheck(); } })));
  }
  async function check() {
    const body = { deal: game && game.deal ? game.deal : 1, hand: cards.hand };
    if (cards.laid.length) body.cards = cards.laid;
    const r = await request("POST", `/api/tables/${TABLE}/rummy/check/`, body);
    const d = r.data;
    // the engine's words with the cards as faces ("Hand: A♠ 15 + Joker 25 = 40", not "AS 15 + JK 25")
    $("rummy-result").textContent = faces(!r.ok ? window.TabletKit.errorText(d) :
      `Deal ${d.deal} (${d.contract.join(" + ")}): ` + (d.met === null ? "no contract laid down" : d.met ? `contract met — ${d.message}` :
        `contract NOT met: ${d.message}`) + `. Hand: ${d.hand_detail}`);
  }
  $("rummy-target-laid").addEventListener("click", () => { target = "laid"; renderCheck(); });
  $("rummy-target-hand").addEventListener("click", () => { target = "hand"; renderCheck(); });
  $("rummy-clear").addEventListener("click", () => { cards.laid = []; cards.hand = []; renderCheck(); });
  $("rummy-check").addEventListener("click", check);
  $("rummy-start").addEventListener("click", startGame);
  // Ending a game early: asked first, with a reason (the API had it; the tablet had no way to end a game).
  $("rummy-end").addEventListener("click", () => {
    const mid = game && Object.keys(game.hands).length > 0; // hands are drawn while a deal is played
    $("rummy-end-deal").textContent = mid ? `Deal ${game.deal} is not finished: it is not scored. ` : "";
    $("rummy-end-dialog").showModal();
  });
  $("rummy-end-close").addEventListener("click", () => $("rummy-end-dialog").close());
  for (const b of document.querySelectorAll("[data-rummy-end]")) {
    b.addEventListener("click", async () => {
      $("rummy-end-dialog").close();
      if (playing()) await command(`/api/rummy/games/${game.id}/end/`, { reason: b.dataset.rummyEnd, version: game.version });
    });
  }
  $("rummy-scan").addEventListener("change", (ev) => ev.target.files[0] && scan(ev.target.files[0]));

  renderCheck();
  resendPending().then(load);
  window.TabletRummy = { load }; // for a push channel: the game changed
  // Another device may play the game on: keep the view current (not while the dealer is selecting cards).
  let ticks = 0;
  const pushed = () => window.TabletPush && window.TabletPush.live && ++ticks % 5 !== 0; // push.js reads at once
  setInterval(() => { if (!busy && !document.hidden && !selected.length && !scanned && !pushed()) load(); }, 3000);
})();
