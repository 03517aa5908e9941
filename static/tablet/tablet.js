/* Dealer tablet: a touch app over the tablet API (/api/...).
 *
 * The server holds the round; this page only shows it and sends commands.  Every command carries an
 * Idempotency-Key and is kept in localStorage until the server answers, so a dropped network or a
 * reload re-sends it and the server records it once.  Money is handled in integer cents.
 */
(function () {
  "use strict";
  const app = document.getElementById("app");
  if (!app) return;
  const TABLE = Number(app.dataset.table);
  // What this game offers, sent by the server from the game registry (tables/engine/games.py).
  const CAN = new Set((app.dataset.capabilities || "").split(" ").filter(Boolean));
  const POT = CAN.has("pot");
  const FRESH = CAN.has("fresh-shoe"); // every hand from a fresh shoe: the server records its shuffle as the hand opens
  const SEATS = Number(app.dataset.seats);
  const PIT = app.dataset.pitBoss === "1";
  const DEALS = app.dataset.dealer === "1"; // the user may hold a table (the dealer role)
  const PLAYERS = Number(app.dataset.players) || 7; // players in one round at most (the game's registry entry)
  const USER = app.dataset.user;
  const LIVE = app.dataset.live === "1";
  const PENDING = "tablet-pending-" + TABLE;
  const DISMISSED = "tablet-dismissed-" + TABLE; // the ended round the dealer put away ("Next round")
  const { $, el } = window.TabletKit;

  let table = null;
  let round = null;
  let pendingScan = null; // a low-confidence scan: the picked card refers to it
  let rank = null;
  // The card (or scan) on its way to the server: the picker and the scan wait for it (offline, a repeated tap,
  // or a scan and then a pick of the same card, was recorded twice: the copy dealt to the next hand).
  let sending = null;
  const SCAN = "scan"; // sending: a scan is on its way (the card it holds is not known until it is read)
  let busy = false;
  let payCents = {}; // "seat/kind" -> cents the dealer hands over
  let approveReason = null;
  let rejectReason = null;
  let heldBefore = null; // who held the table when this page last looked (a hand-over is told to the dealer)
  const seatsPaid = new Set(); // seats the dealer ticked as paid (a checklist; the payment is sent at Confirm paid)
  let bjGame = null; // Bluffjack: the game playing at this table (stacks carried from hand to hand)
  let bjLast = null; // Bluffjack: the table's latest game, playing or not (a hand that ended it says who won)
  let fix = { seq: null, rank: null, code: null, reason: null, before: null }; // pit-boss card correction
  const bets = {}; // seat -> {main, pp, t3, behind, doubleAlong, followSplit} in cents

  // ---- money -------------------------------------------------------------------------------------
  const cents = (s) => Math.round(Number(s) * 100);
  const money = (c) => (c < 0 ? "-" : "") + (Math.abs(c) / 100).toFixed(2);
  // A pot game (Bluffjack) counts chips, not money: its settlement and payments are said in chips ("2"),
  // as its stacks and pot are (they once read 2.00 beside a stack of 98 chips).
  const sayCents = (c) => (POT ? String(c / 100) : money(c));
  const sayAmount = (s) => (POT ? String(cents(s) / 100) : s);

  // ---- the API, with idempotent retries ------------------------------------------------------------
  function setNet(online, text) {
    const n = $("net");
    n.textContent = text || (online ? "online" : "offline — retrying");
    n.className = "net " + (online ? "ok" : "bad");
  }
  const request = (method, url, body, key) => window.TabletKit.request(method, url, body, key, setNet);
  let answered = 0; // commands answered so far (see refresh)
  let polls = 0; // refreshes begun so far
  // Commands run one after another, in the order tapped: a tap while the previous command is on its
  // way waits for it instead of being lost.  A queued command carries the version the previous one
  // left; when a command is refused, the taps queued behind it are dropped (they assumed it went through).
  let queue = Promise.resolve();
  let refusals = 0;
  function command(url, body, opts = {}) {
    const seen = refusals;
    const run = queue.then(() => {
      if (refusals !== seen) return null;
      if (opts.still && !opts.still()) return null; // the tap was meant for a moment the round has left
      // The round's version as the previous command left it (a game's commands carry the game's own).
      if (body && "version" in body && round && url.startsWith(`/api/rounds/${round.id}/`)) body = { ...body, version: round.version };
      return send(url, body, opts);
    });
    queue = run.catch(() => null);
    return run;
  }
  async function send(url, body, { form } = {}) {
    busy = true;
    showError(null);
    const key = window.TabletKit.newKey();
    if (!form) localStorage.setItem(PENDING, JSON.stringify({ url, body, key }));
    try {
      const r = await request("POST", url, form || body, key);
      answered += 1;
      localStorage.removeItem(PENDING);
      if (!r.ok) {
        refusals += 1;
        showError(r.data);
        await refresh();
        return null;
      }
      const doc = r.data && r.data.round && r.data.scan !== undefined ? r.data.round : r.data; // a scan's answer holds the round
      if (doc && doc.version !== undefined && round && doc.id === round.id) round = doc;
      if (/\/(cards|scans|decisions|correct)\/$/.test(url) || /\/rounds\/$/.test(url)) refreshShoe(); // the counter moves at once
      return r.data;
    } finally {
      busy = false;
    }
  }
  const resendPending = () => window.TabletKit.resendPending(PENDING, showError, setNet);

  // ---- errors in words -----------------------------------------------------------------------------
  // The API answers {"error", "field"?, "rule"?}: the dealer reads a sentence; the field path and the
  // rule id stay out of the text (kept in data attributes and the title for support).
  const BET_WORDS = { main: "main bet", "perfect-pairs": "Perfect Pairs bet", "21+3": "21+3 bet", ante: "ante",
    insurance: "insurance" };
  function fieldWords(field) {
    if (!field) return "";
    let m = field.match(/^seats\[(\d+)\](.*)$/);
    if (m) {
      const seatNo = (seatsSent[Number(m[1])] || {}).seat || Number(m[1]) + 1;
      const rest = m[2];
      let b = rest.match(/^\.behind\[(\d+)\]\.wagers(?:\.(.+))?$/);
      if (b) return `Seat ${seatNo} bet behind` + (b[2] && b[2] !== "main" ? ` (${BET_WORDS[b[2]] || b[2]})` : "");
      if (/^\.behind/.test(rest)) return `Seat ${seatNo} bets behind`;
      b = rest.match(/^\.wagers(?:\.(.+))?$/);
      if (b) return `Seat ${seatNo} ` + (b[1] ? BET_WORDS[b[1]] || `${b[1]} bet` : "bets");
      if (rest === ".seat") return `Seat ${seatNo}`;
      return `Seat ${seatNo}`;
    }
    return { code: "Card", card: "Card", image: "Scan", amount: "Amount", seats: "Seats", reason: "Reason",
      who: "Player", paid: "Payment", version: "", scan: "Scan" }[field.split(/[.[]/)[0]] ?? "";
  }
  function errorWords(data) {
    if (!data) return "";
    if (typeof data !== "object") return String(data);
    let text = data.error || data.detail || "";
    if (!text) {
      // A validation answer keyed by field: the first message.
      const [k, v] = Object.entries(data)[0] || ["", ""];
      return errorWords({ field: k, error: Array.isArray(v) ? v.join(" ") : String(v) });
    }
    text = String(text).replace(/\s*\[[a-z0-9_.-]+\.[a-z0-9_.-]+\]\s*$/i, "");
    text = faces(text.replace(/seat:(\d+)\/hand:(\d+)/g, (_, s, h) => `seat ${s}, hand ${Number(h) + 1}`)
      .replace(/seat:(\d+)/g, "seat $1").replace(/player:/g, "")); // cards as faces: "impossible card Q♦", not QD
    const where = fieldWords(data.field);
    const sentence = text.charAt(0).toUpperCase() + text.slice(1);
    const bet = where.match(/^Seat \d+ (.+)$/);
    if (bet && text.toLowerCase().startsWith(`the ${bet[1].toLowerCase()} `)) {
      // "Seat 3 Perfect Pairs bet" + "the Perfect Pairs bet must be ..." → said once.
      return `${where} ${text.slice(bet[1].length + 5)}`.replace(/([^.!?])$/, "$1.");
    }
    return (where ? `${where}: ${text}` : sentence).replace(/([^.!?])$/, "$1.");
  }
  const betWords = (k) => ({ main: "Main bet", behind: "Bet behind", "behind-insurance": "Insurance behind",
    bonus: "Bonus", pot: "Pot", "perfect-pairs": "Perfect Pairs", "21+3": "21+3", insurance: "Insurance", ante: "Ante" }[k] || k);
  // ... inside a sentence ("Seat 1 main bet"): lower case, but Perfect Pairs is the bet's name.
  const betInSentence = (k) => (k === "perfect-pairs" ? betWords(k) : betWords(k).toLowerCase());
  // "seat:3/hand:1" → "seat 3, hand 2"; "player:Seat 2" → "Seat 2"; "dealer" → "dealer".
  const placeWords = (to) => String(to || "").replace(/^player:/, "").split("/").map((p) => {
    const [k, v] = p.split(":");
    if (v === undefined) return p;
    return k === "hand" ? `hand ${Number(v) + 1}` : k === "behind" ? `bet behind ${Number(v) + 1}` : `${k} ${v}`;
  }).join(", ");
  let seatsSent = []; // the seats of the last new-round request (field paths index them)
  function showError(data) {
    const box = $("error");
    if (!data) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.textContent = errorWords(data);
    box.dataset.field = data.field || "";
    box.dataset.rule = data.rule || "";
    box.title = [data.field, data.rule].filter(Boolean).join(" · ");
    if (box.getBoundingClientRect().top < 0 || box.getBoundingClientRect().bottom > innerHeight) box.scrollIntoView({ block: "nearest" });
  }
  function toast(text) {
    const t = $("toast");
    t.textContent = text;
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => (t.hidden = true), 4000);
  }
  function hideToast() {
    clearTimeout(toast.timer);
    $("toast").hidden = true;
  }

  // ---- loading -------------------------------------------------------------------------------------
  async function refresh() {
    const start = answered;
    const mine = ++polls;
    const t = await request("GET", `/api/tables/${TABLE}/`);
    if (!t.ok) return showError(t.data);
    let game = bjGame;
    let last = bjLast;
    let next = round;
    if (POT) {
      const g = await request("GET", `/api/tables/${TABLE}/bluffjack/games/`);
      game = g.ok && g.data.length && g.data[0].state === "playing" ? g.data[0] : null;
      last = g.ok && g.data.length ? g.data[0] : null;
    }
    const ended = t.data.last_round; // no round open: the one that just ended, until the next opens
    if (t.data.round) {
      const r = await request("GET", `/api/rounds/${t.data.round}/`);
      next = r.ok ? r.data : null;
    } else if (ended && String(ended) !== localStorage.getItem(DISMISSED) &&
        !(round && round.id === ended && ["closed", "cancelled"].includes(round.state))) {
      // A reload (or another tablet) right after the payment: the round just closed is still shown,
      // with its result, until the dealer taps "Next round" or opens one.
      const r = await request("GET", `/api/rounds/${ended}/`);
      next = r.ok ? r.data : null;
    } else if (round && !["closed", "cancelled"].includes(round.state)) {
      const r = await request("GET", `/api/rounds/${round.id}/`);
      next = r.ok ? r.data : null;
    }
    // A command answered, or a later poll began, while this poll was on its way: what they read is
    // newer (a round just paid flipped back to "Confirm paid", or a slow poll put back a version
    // the server had left, and the next command was refused as a conflict).
    if (answered !== start || mine !== polls) return;
    table = t.data;
    bjGame = game;
    bjLast = last;
    round = next;
    render();
  }

  async function refreshShoe() {
    const t = await request("GET", `/api/tables/${TABLE}/`);
    if (t.ok && t.data) {
      table = t.data;
      renderShoe();
    }
  }

  // ---- rendering -----------------------------------------------------------------------------------
  // Whether this user may deal here: the dealer who holds the table, or a pit boss (the server refuses
  // anyone else a round, a card, a decision, a shuffle or a payment; they follow the table read-only).
  function dealsHere() {
    return PIT || (!!table && table.dealer === USER);
  }

  function render() {
    renderShoe();
    // A scoring game has no shoe: the bar stays only for taking or handing over the table.
    $("btn-recall").hidden = CAN.has("scoring");
    $("shoe").hidden = CAN.has("scoring") && $("btn-take").hidden && $("btn-handover").hidden;
    const inPlay = round && ["in_play", "paused", "settled", "mismatch"].includes(round.state);
    // Only the dealer who holds the table, or a pit boss, opens a round (the server refuses anyone else).
    $("new-round").hidden = !LIVE || inPlay || table.dealer === null || !dealsHere() ||
      (!table.shoe && !FRESH) ||
      (POT && bjGame && round && round.state === "closed"); // the closed hand's panel holds the next-hand button
    $("round").hidden = !round;
    // Neither a round nor the new round's form (this user does not deal here): say so, not a blank page.
    const idle = $("idle");
    idle.hidden = !LIVE || CAN.has("scoring") || !!round || !$("new-round").hidden;
    idle.textContent = idle.hidden ? "" : table.dealer && table.dealer !== USER
      ? `No round open. Held by ${table.dealer}: the next round shows here as it opens.`
      : !dealsHere() && (DEALS || PIT) ? "No round open. Take this table to deal here."
      : dealsHere() && !table.shoe && !FRESH ? "No round open. Shuffle the shoe to start."
      : "No round open at this table: the next round shows here as it opens.";
    if (!$("new-round").hidden) renderNewRound();
    if (round) renderRound();
    else if (pendingScan) { pendingScan = null; $("scan-confirm").hidden = true; } // no round: no unsure scan
  }

  function renderShoe() {
    const s = table.shoe;
    // A scoring game (Contract Rummy) keeps its own stock, shown with the game: no shoe gauge, no shuffle.
    for (const id of ["shoe-fill", "shoe-text", "btn-shuffle"]) $(id).closest(".gauge, span, button").hidden = CAN.has("scoring");
    $("btn-shuffle").hidden = CAN.has("scoring") || FRESH; // a fresh shoe every hand: nothing to shuffle by hand
    $("shoe-cut").hidden = CAN.has("scoring");
    const mine = table.dealer === USER;
    $("btn-take").hidden = mine || !(DEALS || PIT) || (table.dealer !== null && !PIT);
    if (window.TabletPush) window.TabletPush.follow(dealsHere()); // the table's stream: its dealer, pit bosses
    if (window.TabletPlayers) window.TabletPlayers.follow(dealsHere()); // the rated players: the same people
    $("btn-take").textContent = table.dealer ? `Take over from ${table.dealer}` : "Take this table";
    $("btn-handover").hidden = !PIT;
    // Who holds the table, when it is not this user: a dealer relieved by a pit boss sees it at once.
    const hf = $("holder-flag");
    const relieved = heldBefore === USER && table.dealer !== USER;
    hf.hidden = mine || PIT || (!relieved && table.dealer === null);
    hf.textContent = relieved ? (table.dealer ? `A pit boss handed this table to ${table.dealer}: you are no longer the dealer here` :
      "You no longer hold this table") : table.dealer ? `Held by ${table.dealer}: only ${table.dealer} or a pit boss deals here` : "";
    if (table.dealer === USER || table.dealer === null) heldBefore = table.dealer === USER ? USER : heldBefore;
    const inPlay = round && ["in_play", "paused"].includes(round.state);
    $("btn-shuffle").disabled = !!inPlay || table.dealer === null || !dealsHere();
    if (!s) {
      $("shoe-text").textContent = FRESH ? "A fresh shoe every hand: shuffled as each hand opens" : "No shoe yet: shuffle to start";
      $("shuffle-due").hidden = true;
      $("shoe-fill").style.width = "0";
      return;
    }
    if (FRESH) {
      // Every hand from a fresh shoe (recorded as a shuffle when the hand opens): no shuffle point to watch.
      $("shoe-fill").style.width = (100 * s.cards_dealt / s.size).toFixed(1) + "%";
      $("shoe-cut").hidden = true;
      $("shoe-text").textContent = `Shoe ${s.number}: ${s.cards_dealt} card${s.cards_dealt === 1 ? "" : "s"} dealt this hand (a fresh shoe every hand)`;
      $("shuffle-due").hidden = true;
      return;
    }
    $("shoe-fill").style.width = (100 * s.cards_dealt / s.size).toFixed(1) + "%";
    $("shoe-cut").style.left = (100 * s.shuffle_at / s.size).toFixed(1) + "%";
    $("shoe-text").textContent =
      `Shoe ${s.number}: ${s.cards_dealt} of ${s.size} dealt (${Math.round(100 * s.penetration)}%), shuffle at ${s.shuffle_at}`;
    $("shuffle-due").hidden = !s.shuffle_due;
  }

  // The table's limits per bet kind (the table document's "limits"; the main limits when absent).
  const KIND_OF = { main: "main", pp: "perfect-pairs", t3: "21+3", behind: "behind" };
  function limitOf(field) {
    const kind = KIND_OF[field];
    const l = table.limits && table.limits[kind];
    return l ? [cents(l.min), cents(l.max)] : [cents(table.min_bet), cents(table.max_bet)];
  }
  function limitProblem(field, amount) {
    if (!amount || !KIND_OF[field] || POT) return "";
    const [lo, hi] = limitOf(field);
    if (amount < lo) return `below the table minimum of ${money(lo)}`;
    if (amount > hi) return `above the table maximum of ${money(hi)}`;
    return "";
  }
  // An amount as a chip or a limit says it: whole amounts without cents ("25"), others with them ("2.50").
  function chipMoney(v) { return money(v).replace(/\.00$/, ""); }
  // What is wrong with a seat's bet of one kind: outside the table's limits, or a side bet or bet behind at a
  // seat with no main bet (it went nowhere: the round took only the seats with a main bet, and said nothing).
  function betProblem(seat, field) {
    const b = bets[seat];
    if (!POT && field !== "main" && b[field] && !b.main) {
      return field === "behind" ? `no main bet at seat ${seat} to bet behind` : `no main bet at seat ${seat}`;
    }
    return limitProblem(field, b[field] || 0);
  }
  function chipRow(seat, field, values, label) {
    const b = bets[seat];
    const problem = betProblem(seat, field);
    const lim = KIND_OF[field] && !POT ? limitOf(field) : null;
    return el("div", { class: "chip-row" + (problem ? " over" : "") },
      el("span", { class: "label", text: label },
        // whole amounts without cents ("5 – 1000"): with them the limits wrapped onto two lines in tiny type
        lim ? el("small", { class: "limit", text: `${chipMoney(lim[0])} – ${chipMoney(lim[1])}` }) : null),
      // A pot game's stack is whole chips ("10"), not money ("10.00").
      el("span", { class: "amount", "data-amount": `${seat}-${field}`, text: POT ? String(Math.round((b[field] || 0) / 100)) : money(b[field] || 0) }),
      ...[...new Set(values)].sort((x, y) => x - y).map((v) => el("button", {
        class: "chip", type: "button", text: "+" + chipMoney(v), "data-chip": `${seat}-${field}-${v}`,
        onclick: () => { b[field] = (b[field] || 0) + v; renderNewRound(); },
      })),
      el("button", { class: "chip clear", type: "button", text: "×", "aria-label": `clear ${label}`,
        onclick: () => { b[field] = 0; renderNewRound(); } }),
      problem ? el("span", { class: "limit-flag", "data-limit": `${seat}-${field}`, text: `${label} ${money(b[field])}: ${problem}` }) : null);
  }

  function renderNewRound() {
    const box = $("seat-editors");
    box.replaceChildren();
    $("btn-open").hidden = false;
    if (POT && bjGame) {
      // A game is playing: the next hand starts from the stacks the last one left (no chips to enter).
      $("btn-open").hidden = true;
      box.append(bjGameBox());
      return;
    }
    const min = cents(table.min_bet);
    let problems = 0;
    for (let n = 1; n <= SEATS; n++) {
      bets[n] = bets[n] || { main: 0, pp: 0, t3: 0, behind: 0, doubleAlong: true, followSplit: "both" };
      const b = bets[n];
      if (POT) {
        // A pot game: each seat brings a stack of chips; one player deals the hand.
        box.append(el("div", { class: "seat-editor" + (b.main ? " active" : ""), "data-seat": n },
          el("h3", { text: `Seat ${n}` }), chipRow(n, "main", [1000, 5000, 10000], "Stack (chips)"),
          el("button", { class: "toggle" + (b.deals ? " on" : ""), type: "button", "data-dealer": n,
            text: b.deals ? "Deals this hand" : "Make dealer",
            onclick: () => { for (const x of Object.values(bets)) x.deals = false; b.deals = true; renderNewRound(); } })));
        continue;
      }
      const kids = [el("h3", { text: `Seat ${n}` }), chipRow(n, "main", [min, 500, 2500, 10000], "Main")];
      if (CAN.has("side-bets")) {
        kids.push(chipRow(n, "pp", [500, 2500], "Perfect Pairs"), chipRow(n, "t3", [500, 2500], "21+3"),
          chipRow(n, "behind", [min, 2500], "Bet behind"));
        if (b.behind) {
          kids.push(el("div", { class: "chip-row" },
            el("button", { class: "toggle" + (b.doubleAlong ? " on" : ""), type: "button",
              text: "Double along: " + (b.doubleAlong ? "yes" : "no"),
              onclick: () => { b.doubleAlong = !b.doubleAlong; renderNewRound(); } }),
            el("button", { class: "toggle on", type: "button", text: "Follow split: " + b.followSplit,
              onclick: () => { b.followSplit = b.followSplit === "both" ? "first" : "both"; renderNewRound(); } })));
        }
      }
      for (const f of ["main", "pp", "t3", "behind"]) if (betProblem(n, f)) problems += 1;
      box.append(el("div", { class: "seat-editor" + (b.main ? " active" : ""), "data-seat": n }, ...kids));
    }
    // How many players one round takes comes from the game's registry entry (Mini Blackjack: one).
    const playing = Object.values(bets).filter((b) => b.main > 0).length;
    const crowded = playing > PLAYERS;
    $("seats-warning").hidden = !crowded;
    $("seats-warning").textContent = crowded ? `One round takes ${PLAYERS === 1 ? "one player" : PLAYERS + " players"} ` +
      `at this table: clear the bets of ${playing - PLAYERS === 1 ? "one seat" : (playing - PLAYERS) + " seats"}` : "";
    $("btn-open").disabled = problems > 0 || crowded;
  }

  // The game between hands: each player's stack and who deals next, and the one button that deals it.
  function bjGameBox() {
    const dealing = dealsHere();
    return el("div", { class: "bj-game", id: "bj-game" },
        el("h3", { text: `Game ${bjGame.number} · hand ${bjGame.hands_played + 1} · ${bjGame.button} deals` }),
        ...bjGame.players.map((p) => el("div", { class: "chip-row" + (p.eliminated ? " out" : ""), "data-stack": p.player },
          el("span", { class: "label", text: p.player.toLowerCase() === `seat ${p.seat}` ? `Seat ${p.seat}` : `Seat ${p.seat} · ${p.player}` }),
          el("span", { class: "amount", text: p.eliminated ? "out" : `${p.stack} chips` }))),
        // Until the game as the paid hand left it is read (its stacks and version), its buttons wait: a tap
        // in between sent the game's old version and was refused as a conflict.
        dealing ? el("button", { class: "btn primary big", id: "btn-next-hand", type: "button", text: "Deal next hand",
          disabled: !!bjGame.stale, onclick: nextHand }) : null,
        // Asked first, with a reason (one tap ended the game: the button stands under "Deal next hand").
        dealing ? el("button", { class: "btn ghost", id: "btn-end-game", type: "button", text: "End game…",
          disabled: !!bjGame.stale, onclick: () => $("end-game-dialog").showModal() }) : null);
  }

  function seatsPayload() {
    const seats = [];
    for (const [n, b] of Object.entries(bets)) {
      if (!b.main) continue;
      if (POT) {
        seats.push({ seat: Number(n), player: `Seat ${n}`, stack: Math.round(b.main / 100), dealer: !!b.deals });
        continue;
      }
      const wagers = { main: money(b.main) };
      if (b.pp) wagers["perfect-pairs"] = money(b.pp);
      if (b.t3) wagers["21+3"] = money(b.t3);
      const seat = { seat: Number(n), wagers };
      if (b.behind) seat.behind = [{ wagers: { main: money(b.behind) }, double_along: b.doubleAlong, follow_split: b.followSplit }];
      seats.push(seat);
    }
    return seats;
  }

  function cardChip(c) {
    if (!c) return null;
    if (c.face_up === false) {
      return el("span", { class: "playing-card back", "data-code": "back", "data-hole": c.hole ? "1" : null,
        "data-private": c.private ? "1" : null,
        title: c.private ? "the player's private card, face down" : "hole card, face down until the dealer plays",
        "aria-label": "face-down card" });
    }
    const red = /[HD]$/.test(c.code);
    const title = c.source === "scan" ? `scanned, ${Math.round(100 * (c.confidence || 0))}%` : "entered";
    return el("span", { class: "playing-card" + (red ? " red" : "") + (c.code === "JK" ? " joker" : "") + (c.corrected_from ? " corrected" : ""),
      title: title + (c.corrected_from ? `, corrected from ${c.corrected_from}` : ""), "data-code": c.code },
      pretty(c.code),
      c.image ? el("img", { src: c.image, alt: "", class: "thumb" }) : null);
  }
  // Card codes inside the engine's words ("8S 8H: Mixed Pair pays 6:1") as the faces a dealer reads.
  function faces(text) {
    return String(text || "").replace(/\b([2-9TJQKA])([SHDC])\b/g, (m) => pretty(m)).replace(/\bJK\b/g, "Joker");
  }
  function pretty(code) {
    if (code === "JK") return "Joker"; // in words: an emoji joker is a blank box or a speck on many tablets
    const suit = { S: "♠", H: "♥", D: "♦", C: "♣" }[code.slice(-1)];
    return code.slice(0, -1).replace("T", "10") + suit;
  }

  function renderRound() {
    const r = round;
    // An unsure scan belongs to its round while it is in play, as the server says (pending_scan): a round
    // cancelled, paused or replaced by the next one leaves no stale guesses behind.
    syncUnsure(r);
    $("round-title").textContent = `Round ${r.number}`;
    $("round-state").textContent = r.state_label;
    $("round-state").dataset.state = r.state;
    const n = r.next || {};
    const playing = r.state === "in_play";
    // Only the dealer who holds the table, or a pit boss, plays the round (the server refuses anyone
    // else): another user follows it, told who holds the table, with no control to play it.
    const dealing = dealsHere();
    if (!dealing) $("scan-confirm").hidden = true;
    $("btn-pause").hidden = !playing || !dealing;
    $("btn-resume").hidden = r.state !== "paused" || !dealing;
    $("btn-cancel").hidden = !["in_play", "paused"].includes(r.state) || !dealing;
    const follow = $("play-readonly"); // said once: the holder flag says it when somebody holds the table
    follow.hidden = dealing || !["in_play", "paused"].includes(r.state) || !$("holder-flag").hidden;
    follow.textContent = table && table.dealer ? `Held by ${table.dealer}: only ${table.dealer} or a pit boss plays this round.` :
      "Nobody holds this table: take the table first to play this round.";
    let text = n.text || n.reason || "";
    if (!n.text && n.actor && playing) text = `${n.actor}: ${text}`;
    $("prompt").textContent = r.state === "paused" ? "Round paused: resume to continue" :
      r.state === "closed" ? (POT ? "Hand over: the pot is paid" : "Round closed") :
      r.state === "cancelled" ? (POT ? "Hand cancelled: every chip in the pot goes back to who put it in" :
        "Round cancelled: every wager refunded") :
      r.state === "mismatch" ? "Paid differs from due: correct the payment, or a pit boss approves" :
      r.state === "settled" ? (POT ? "Hand settled: pay the pot as shown, then confirm" :
        "Round settled: pay as shown, then confirm") : text;
    $("prompt").dataset.needs = playing ? n.needs : r.state;
    $("hint").hidden = !n.hint;
    $("hint").textContent = n.hint ? `Hint: ${n.hint}` : "";

    renderHands(r);

    // Allowed actions (the engine's can_*), the forced one marked.
    const actions = $("actions");
    actions.replaceChildren();
    // The row keeps its height while the round is played, decision or not: the picker below does not jump
    // up under a finger as a Stand's buttons go (a rank tapped just after Stand landed on what had moved there).
    // Not while an unsure scan's question is open: it moves the picker anyway, and needs the room on screen.
    actions.classList.toggle("held", dealing && playing && !pendingScan);
    if (dealing && playing && n.needs === "decision") {
      for (const a of n.allowed || []) {
        if (POT && a === "raise") {
          const m = (n.extra && n.extra.minimum_raise) || 1;
          for (const by of n.forced === "raise" ? [m] : [m, 2 * m, 5 * m]) {
            actions.append(el("button", { class: "btn big action" + (n.forced === a ? " forced" : ""), "data-action": `raise-${by}`,
              text: `Raise ${by}` + (n.forced === a ? " (must)" : ""), onclick: () => decide("raise", String(by)) }));
          }
          continue;
        }
        const label = (n.labels && n.labels[a]) || a.charAt(0).toUpperCase() + a.slice(1);
        actions.append(el("button", { class: "btn big action" + (n.forced === a ? " forced" : ""), "data-action": a,
          "aria-label": label + (n.forced === a ? ", the rules force it" : ""),
          text: label + (n.forced === a ? " (must)" : ""), onclick: () => decide(a) }));
      }
    }
    if (dealing && playing && n.needs === "settle") {
      actions.append(el("button", { class: "btn primary big", id: "btn-settle", text: "Settle", onclick: settle }));
    }
    // A card may also come while a hand may hit: it is that hand's hit.
    const takesCard = n.needs === "card" || (n.allowed || []).includes("hit");
    // A scan the round waits on is asked about here even when the round takes no card now (a scan of two
    // cards where one was wanted: its second card read surely, "the round takes no card now"); hidden with
    // the scan button, the question stood unseen and every other tap was refused until it was answered.
    $("capture").hidden = !(dealing && playing && (takesCard || !!r.pending_scan));
    $("capture").querySelector(".camera-row").hidden = !takesCard;
    $("picker").hidden = !takesCard;
    // Said beside the scan button: a "Hit (must)" need not be tapped first, the card is the hit.
    const hitByCard = n.needs === "decision" && (n.allowed || []).includes("hit");
    $("card-hit").hidden = !hitByCard;
    $("card-hit").textContent = hitByCard ? "A card scanned or picked now is the hit" : "";
    renderPicker();
    renderSettlement();
    if (dealing && playing && takesCard) keepPickerInSight(`${r.id}/${r.cards.length}/${(r.decisions || []).length}`);
  }
  // A card wanted with the picker below the fold (a split seat's hands side by side pushed it under the
  // 800 px screen): the page scrolls just enough to show it, never so far that the prompt leaves the top,
  // and once per step of the round (a push redrawing the page leaves where the dealer scrolled alone).
  let pickerShownFor = "";
  function keepPickerInSight(step) {
    if (step === pickerShownFor) return;
    pickerShownFor = step;
    requestAnimationFrame(() => {
      const below = $("picker").getBoundingClientRect().bottom - innerHeight;
      const promptTop = $("prompt").getBoundingClientRect().top;
      if (below > 0 && promptTop > 0) scrollBy(0, Math.min(below + 8, promptTop));
    });
  }

  // Hands drawn as the table lies: the dealer, then each seat with its hands side by side (split hands
  // labelled Hand 1, Hand 2), each with its total in words and its marks; what the server's view says.
  function renderHands(r) {
    const hands = $("hands");
    hands.replaceChildren();
    const bySeq = Object.fromEntries(r.cards.map((c) => [c.seq, c]));
    const v = r.view;
    if (!v) return renderGroups(r);
    const d = v.dealer;
    if (d) {
      hands.append(el("div", { class: "hand dealer", "data-hand": "dealer" },
        el("h4", {}, "Dealer", d.total ? el("span", { class: "total", "data-total": "dealer", text: d.total }) : null),
        el("div", { class: "cards" }, ...d.cards.map((q) => cardChip(bySeq[q])))));
    }
    if (v.kind === "pot") return renderPot(r, v, bySeq);
    for (const s of v.seats) {
      const seat = r.seats.find((x) => x.seat === s.seat) || { wagers: {} };
      // The bets as they stand (a double's stake included), in the server's words from the engine's stakes.
      const w = s.bets || Object.entries(seat.wagers).map(([k, a]) => `${BET_WORDS[k] || k} ${a}`).join(" · ") +
        (s.insurance ? ` · insurance ${s.insurance}` : "");
      hands.append(el("div", { class: "hand seat" + (s.split ? " split" : ""), "data-hand": `seat:${s.seat}` },
        el("h4", { text: s.label }),
        el("div", { class: "wagers", text: w }),
        el("div", { class: "seat-hands" }, ...s.hands.map((h) => el("div", {
          class: "sub" + (h.surrendered ? " surrendered" : "") + (h.done ? " done" : ""), "data-sub": h.key },
          h.label ? el("div", { class: "hand-label", text: h.label }) : null,
          el("div", { class: "cards" }, ...h.cards.map((q) => cardChip(bySeq[q]))),
          el("div", { class: "marks" },
            h.total ? el("span", { class: "total" + (/^bust/.test(h.total) ? " bust" : /blackjack|^27$/.test(h.total) ? " top" : ""),
              "data-total": h.key, text: h.total }) : null,
            h.doubled ? el("span", { class: "mark doubled", text: "doubled" }) : null,
            h.surrendered ? el("span", { class: "mark surrendered", text: "surrendered" }) : null)))),
        ...(s.behind || []).map((b, j) => el("div", { class: "behind", "data-behind": `${s.seat}/${j}`, text: b }))));
    }
  }
  // A pot game (Bluffjack): the pot in the middle; each seat's stack as it stands (chips leave it as
  // they go in), what it put in this hand, whose turn it is, and each player's private card as a back.
  function renderPot(r, v, bySeq) {
    const hands = $("hands");
    const over = !["in_play", "paused"].includes(r.state);
    const cancelled = r.state === "cancelled";
    const won = r.settlement.filter((ln) => cents(ln.net) > 0).map((ln) => `Seat ${ln.seat}`);
    hands.append(el("div", { class: "hand pot", "data-pot": v.pot }, el("h4", { text: "Pot" }),
      el("div", { class: "pot-chips", id: "pot-chips", text: cancelled ? `${v.pot} chips, handed back` : `${v.pot} chips` }),
      over && won.length ? el("div", { class: "behind", text: `won by ${won.join(" and ")}` }) : null));
    for (const s of v.seats) {
      const h = s.hands[0];
      const chips = cancelled ? `put in ${s.in_pot}, handed back` : over ? `put in ${s.in_pot}` : `stack ${s.stack} · in the pot ${s.in_pot}`;
      const turn = s.turn && !over; // a cancelled hand has nobody to act (the engine's turn is where it stopped)
      hands.append(el("div", { class: "hand seat" + (turn ? " turn" : "") + (s.marks.includes("folded") ? " folded" : ""),
        "data-hand": `seat:${s.seat}` },
        el("h4", {}, s.label, turn ? el("span", { class: "mark turn-mark", text: "to act" }) : null),
        el("div", { class: "wagers stack-line", "data-stack-now": s.player,
          text: chips + (s.marks.length ? " · " + s.marks.join(" · ") : "") }),
        el("div", { class: "cards" }, ...h.cards.map((q) => cardChip(bySeq[q]))),
        s.private ? el("div", { class: "behind", text: s.private === 1 ? "1 private card (face down)" : `${s.private} private cards` }) : null));
    }
  }
  function renderGroups(r) {
    // Games without a view (Bluffjack): cards grouped by who received them, wagers per seat.
    const groups = {};
    for (const c of r.cards) (groups[c.to.split("/behind")[0]] = groups[c.to.split("/behind")[0]] || []).push(c);
    const hands = $("hands");
    hands.append(el("div", { class: "hand dealer", "data-hand": "dealer" }, el("h4", { text: "Dealer" }),
      ...(groups.dealer || []).map(cardChip)));
    for (const s of r.seats) {
      const keys = Object.keys(groups).filter((k) => k === `seat:${s.seat}` || k.startsWith(`seat:${s.seat}/`) ||
        k === "player" || (s.player && k === `player:${s.player}`));
      const w = Object.entries(s.wagers).map(([k, v]) => `${k} ${v}`).join(" · ") +
        (s.stack !== undefined ? `${s.player}: stack ${s.stack}${s.dealer ? " · deals" : ""}` : "");
      hands.append(el("div", { class: "hand seat", "data-hand": `seat:${s.seat}` },
        el("h4", { text: `Seat ${s.seat}` }), el("div", { class: "wagers", text: w }),
        ...keys.map((k) => el("div", { class: "sub", "data-sub": k }, ...groups[k].map(cardChip)))));
    }
  }

  function renderPicker() {
    const ranks = $("ranks");
    const suits = $("suits");
    ranks.replaceChildren();
    suits.replaceChildren();
    const rs = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
    for (const x of rs) {
      // The ranks wait too: a rank tapped meanwhile stayed chosen once the card landed, one suit tap from
      // recording it again.
      ranks.append(el("button", { class: "pick rank" + (rank === x ? " on" : ""), type: "button", "data-rank": x,
        text: x === "T" ? "10" : x, disabled: !!sending, onclick: () => { rank = x; renderPicker(); } }));
    }
    for (const [s, sym] of [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]]) {
      suits.append(el("button", { class: "pick suit" + (/[HD]/.test(s) ? " red" : ""), type: "button", "data-suit": s,
        text: sym, disabled: rank === null || !!sending, onclick: () => sendCard(rank + s) }));
    }
    // The Joker after the suits: the suits stand where they stand at every table, all on the ranks' line.
    if (CAN.has("jokers")) {
      suits.append(el("button", { class: "pick rank joker", type: "button", "data-rank": "JK", text: "Joker",
        disabled: !!sending, onclick: () => sendCard("JK") }));
    }
    const note = $("sending");
    note.hidden = !sending;
    note.textContent = !sending ? "" : sending === SCAN
      ? "Sending the scan… the next card can be picked or scanned once it is read"
      : `Sending ${sending === "JK" ? "the Joker" : pretty(sending)}… the next card can be picked or scanned once it is recorded`;
    for (const b of document.querySelectorAll("#scan-confirm [data-confirm]")) b.disabled = !!sending;
    // The scan button and the camera's capture wait too (a label cannot be disabled: its input is, and it looks it).
    $("scan-input").disabled = !!sending;
    $("scan-input").closest("label").classList.toggle("disabled", !!sending);
    $("btn-capture").disabled = !!sending;
  }

  function renderSettlement() {
    const r = round;
    // A cancelled pot game settles nothing (the stacks stand as before the hand): no empty table.
    const shown = ["settled", "mismatch", "closed", "cancelled"].includes(r.state) && !(POT && r.state === "cancelled" && !r.settlement.length);
    $("settlement").hidden = !shown;
    if (!shown) return;
    $("lines").replaceChildren(...r.settlement.map((ln) => el("tr", { "data-bet": `${ln.seat}/${ln.bet}` },
      el("td", { text: ln.seat }), el("td", { text: betWords(ln.bet) + (ln.hand !== null && ln.hand !== undefined ? `, hand ${ln.hand + 1}` : "") +
        (ln.behind !== null && ln.behind !== undefined && !/^behind/.test(ln.bet) ? ", behind" : "") }),
      el("td", { text: sayAmount(ln.wager) }), el("td", { text: ln.result }),
      el("td", { class: cents(ln.net) > 0 ? "win" : cents(ln.net) < 0 ? "lose" : "", text: sayAmount(ln.net) }),
      el("td", { class: "detail", text: faces(ln.detail) }))));
    const flag = $("approval-flag");
    flag.hidden = !r.approval_required;
    flag.textContent = r.approval_required ? `Pit-boss approval needed before paying: ${r.approval_reason}` : "";

    // What the dealer hands over, seat by seat: each bet's winnings due in plain figures, the amount
    // handed over (tap it for the keypad when it differs), and a tick per seat as it is paid.
    const pay = $("pay");
    pay.replaceChildren();
    const payable = ["settled", "mismatch"].includes(r.state);
    // Only the dealer who holds the table, or a pit boss, records a payment (the server refuses anyone else):
    // another user reads the payment, with who holds the table, and no control to make it.
    const readOnly = !dealsHere();
    if (payable && readOnly) {
      pay.append(el("p", { class: "flag warn", id: "pay-readonly", text: table && table.dealer ?
        `Held by ${table.dealer}: only ${table.dealer} or a pit boss pays this round.` :
        "Nobody holds this table: take the table first to pay this round." }));
    }
    if (payable) {
      const owed = Object.entries(r.due).filter(([, kinds]) => Object.keys(kinds).length);
      // A surrendered hand: the house keeps half the stake and the dealer hands the other half back.  A refund,
      // not winnings (it is not in what is due and paid), but handed over seat by seat like the rest.
      const refunds = {};
      for (const ln of r.settlement) {
        const back = ln.result === "surrender" ? cents(ln.wager) + cents(ln.net) : 0;
        if (back > 0) (refunds[String(ln.seat)] = refunds[String(ln.seat)] || []).push({ ln, back });
      }
      // A pot game: the stakes are in the pot, not with the players; the winner takes the pot's chips.
      const potView = POT && r.view && r.view.kind === "pot" ? r.view : null;
      // A pot game's share that wins nothing (a tie splitting the pot, each taking back what they put in):
      // nothing due, but chips to push to that player (it read "Nothing to pay from the pot" over 4 chips).
      const shares = {};
      if (potView) {
        for (const ln of r.settlement) {
          const take = ["win", "split"].includes(ln.result) ? cents(ln.wager) + cents(ln.net) : 0;
          if (take > 0) shares[String(ln.seat)] = (shares[String(ln.seat)] || 0) + take;
        }
      }
      const nothingDue = (s) => !r.due[s] || !Object.keys(r.due[s]).length;
      const seats = [...owed, ...[...new Set([...Object.keys(refunds), ...Object.keys(shares)])].filter(nothingDue)
        .map((s) => [s, {}])].sort(([a], [b]) => Number(a) - Number(b));
      const anyRefund = Object.keys(refunds).length > 0;
      // Said as the settlement has it (pushes, refunds and losses from the server's lines), never "the house
      // collects every bet" over a push or a refund.
      const o = outcomes(r);
      const collects = o.lostBets ? "; the house collects the lost bets." : ".";
      pay.append(el("h3", { text: potView ? (owed.length ? "Push the pot: each winner takes back the chips they put in, " +
        "and their winnings" : seats.length ? "Split pot: push each player's share, the chips they put in, back to them" :
        "Nothing to pay from the pot.") :
        owed.length ? "Pay the players (winnings; the stakes of winning bets stay with the player)" +
        (anyRefund ? " and hand back half the stake of each surrendered hand" : "") :
        seats.length ? "Hand back the surrender refunds (half the stake)" + collects :
        o.pushed.length ? "Nothing to pay" + (o.lostBets ? ": the house collects the lost bets." : ".") :
        "Nothing to pay: the house collects every bet." }));
      if (!potView && o.pushed.length) pay.append(el("p", { class: "push-note", id: "push-note", text: pushWords(o.pushed) }));
      const grid = el("div", { class: "pay-seats" });
      for (const [seat, kinds] of seats) {
        let total = 0;
        const back = (refunds[seat] || []).reduce((sum, x) => sum + x.back, 0);
        const rows = Object.entries(kinds).map(([kind, due]) => {
          const k = `${seat}/${kind}`;
          if (readOnly) {
            const recorded = r.paid[seat] && r.paid[seat][kind];
            total += cents(due);
            return el("div", { class: "pay-row", "data-pay": k }, el("span", { class: "label", text: betWords(kind) }),
              el("span", { class: "due", text: sayAmount(due) }), el("span", { class: "amount", text: recorded ? sayAmount(recorded) : "—" }));
          }
          if (!(k in payCents)) payCents[k] = r.paid[seat] && r.paid[seat][kind] !== undefined ? cents(r.paid[seat][kind]) : cents(due);
          total += cents(due);
          const differs = payCents[k] !== cents(due);
          return el("div", { class: "pay-row" + (differs ? " differs" : ""), "data-pay": k },
            el("span", { class: "label", text: betWords(kind) }),
            el("span", { class: "due", text: sayAmount(due) }),
            el("button", { class: "amount paid-amount", type: "button", "data-paid": k, "aria-label": `amount paid on seat ${seat} ${betWords(kind)}: tap to enter`,
              text: sayCents(payCents[k]), onclick: () => keypad(k, `Seat ${seat} ${betInSentence(kind)}: due ${sayAmount(due)}`) }),
            differs ? el("button", { class: "chip", type: "button", "data-as-due": k, text: "= due",
              onclick: () => { payCents[k] = cents(due); seatsPaid.delete(seat); renderSettlement(); } }) : null);
        });
        const refundRows = (refunds[seat] || []).map(({ ln, back: amount }) => el("div", { class: "pay-row refund",
          "data-refund": `${seat}/${ln.bet}` + (ln.hand !== null && ln.hand !== undefined ? `/${ln.hand}` : "") },
          el("span", { class: "label", text: `${betWords(ln.bet)}${ln.behind !== null && ln.behind !== undefined && !/^behind/.test(ln.bet) ? ", behind" : ""}: ` +
            `surrendered, half of ${ln.wager} back` }),
          el("span", { class: "due", text: money(amount) }),
          el("span", { class: "refund-note", text: "refund" })));
        const done = seatsPaid.has(seat);
        const inPot = potView ? Number((potView.seats.find((x) => String(x.seat) === String(seat)) || {}).in_pot || 0) : 0;
        const what = potView ? (total ? `takes ${inPot + total / 100} chips from the pot (wins ${sayCents(total)})` :
          `takes back ${(shares[seat] || 0) / 100} chips from the pot (wins nothing)`) :
          total && back ? `pay ${money(total)} and hand back ${money(back)}` : total ? `pay ${money(total)}` :
          `hand back ${money(back)}`;
        grid.append(el("div", { class: "pay-seat" + (done ? " done" : ""), "data-pay-seat": seat },
          el("h4", { text: `Seat ${seat}: ${what}` }),
          rows.length || refundRows.length ? el("div", { class: "pay-head" }, el("span", { text: "bet" }), el("span", { text: "due" }),
            el("span", { text: "paid" })) : null,
          ...rows, ...refundRows,
          readOnly ? null : el("button", { class: "toggle seat-paid" + (done ? " on" : ""), type: "button", "data-seat-paid": seat,
            text: `Seat ${seat} ${total ? "paid" : "handed back"}${done ? " ✓" : ""}`,
            onclick: () => { done ? seatsPaid.delete(seat) : seatsPaid.add(seat); renderSettlement(); } })));
      }
      pay.append(grid);
      const ticked = seats.filter(([s]) => seatsPaid.has(s)).length;
      const short = Object.entries(payCents).some(([k, c]) => {
        const [seat, kind] = k.split("/");
        return r.due[seat] && r.due[seat][kind] !== undefined && c !== cents(r.due[seat][kind]);
      });
      if (!readOnly) pay.append(el("button", { class: "btn primary big", id: "btn-paid", disabled: r.approval_required, onclick: confirmPaid,
        text: !seats.length ? "Confirm: nothing paid" : short ? "Confirm paid (differs from due)" :
          ticked === seats.length ? "Confirm paid" : `Confirm paid (${tickedWords(ticked, seats.length)})` }));
    } else if (r.state === "closed" && POT && bjGame) {
      pay.append(el("p", { class: "flag ok", id: "closed-flag", text: closedWords(r) }), bjGameBox());
    } else if (r.state === "closed") {
      pay.append(el("p", { class: "flag ok", id: "closed-flag", text: closedWords(r) }));
      // The hand that ended a Bluffjack game: who won it, before the next game's stacks are entered.
      const over = POT && bjLast && bjLast.state !== "playing" && bjLast.hands.some((h) => h.id === r.id) ? bjLast : null;
      if (over) pay.append(el("p", { class: "flag ok", id: "game-over", text: over.winner ?
        `Game ${over.number} over: ${over.winner} holds every chip (${over.stacks[over.winner]} chips)` :
        // Ended early: the stacks as they stood, the record the players leave with.
        `Game ${over.number} ${over.state_label}: ` + Object.entries(over.stacks).map(([p, n]) => `${p} ${n} chips`).join(", ") }));
      pay.append(el("button", { class: "btn primary big", id: "btn-next", text: "Next round", onclick: () => {
        localStorage.setItem(DISMISSED, String(r.id));
        round = null; payCents = {}; seatsPaid.clear(); refresh();
      } }));
    }
    const mm = $("mismatch");
    mm.hidden = r.state !== "mismatch";
    // Short or overpaid, said as such: "the difference is paid" told a dealer who had overpaid to pay more.
    const gap = (d) => String(d.difference).startsWith("-") ? `short by ${sayAmount(String(d.difference).slice(1))}` :
      `overpaid by ${sayAmount(d.difference)}`;
    // "Seat 2 main bet", "Seat 2 Perfect Pairs" (a bet's own name keeps its capitals, as in the table above).
    const inLine = (w) => /^(Perfect Pairs|21\+3)/.test(w) ? w : w.charAt(0).toLowerCase() + w.slice(1);
    mm.textContent = r.discrepancies.map((d) => `Seat ${d.seat} ${inLine(betWords(d.bet))}: paid ${sayAmount(d.paid)}, due ${sayAmount(d.due)} (${gap(d)})`).join("; ") +
      (r.state === "mismatch" ? " — the round stays open until what is paid matches what is due (set what you hand over and confirm again) or a pit boss approves." : "");
    // A pit boss's rejection of this payment, with the reason: the dealer pays again.
    const rej = (r.rejections || []).filter((x) => x.current);
    const rf = $("rejected-flag");
    const wasHidden = rf.hidden;
    rf.hidden = !rej.length || !payable || readOnly;
    if (wasHidden && !rf.hidden) rf.scrollIntoView({ block: "nearest" }); // a new rejection: in sight at once
    rf.textContent = rej.length ? `Pit boss ${rej[rej.length - 1].by} rejected this payment: ${rej[rej.length - 1].reason}. ` +
      "Set what you hand over and confirm again." : "";

    const ap = $("approve");
    const needs = r.state === "mismatch" || (r.state === "settled" && r.approval_required);
    ap.hidden = !(PIT && needs);
    const reasons = $("reasons");
    reasons.replaceChildren();
    for (const text of ["verified on camera", "player accepted the amount", "chip shortage, difference paid later"]) {
      reasons.append(el("button", { class: "toggle" + (approveReason === text ? " on" : ""), type: "button", text,
        "data-reason": text, onclick: () => { approveReason = text; renderSettlement(); } }));
    }
    $("btn-approve").disabled = !approveReason;
    $("reject-reasons").replaceChildren(...["pay the full amount due", "wrong seat paid, pay again", "recount the chips on camera"]
      .map((text) => el("button", { class: "toggle" + (rejectReason === text ? " on" : ""), type: "button", text,
        "data-reject-reason": text, onclick: () => { rejectReason = text; renderSettlement(); } })));
    $("btn-reject").disabled = !rejectReason || rej.length > 0;
    renderCorrection();
  }

  // What the settlement did with the bets, read from the server's lines (their wager and net; no rule here):
  // won (winnings due), pushed (net 0: the stake stays with the player), partly handed back (a loss smaller
  // than the stake: a surrender's refund), or lost.  lost: cents the house keeps; lostBets: bets lost whole.
  function outcomes(r) {
    const o = { pushed: [], pushedCents: 0, refunded: 0, lost: 0, lostBets: 0 };
    for (const ln of r.settlement) {
      const wager = cents(ln.wager);
      const net = cents(ln.net);
      if (net === 0 && wager > 0) { o.pushed.push(ln); o.pushedCents += wager; }
      if (net >= 0) continue;
      o.lost += -net;
      if (wager + net > 0) o.refunded += wager + net;
      else o.lostBets += 1;
    }
    return o;
  }
  // "Seat 1 main bet 5.00 pushed: the stake stays with the player".
  function pushWords(lines) {
    const one = (ln) => `Seat ${ln.seat} ${betWords(ln.bet).toLowerCase()}` +
      (ln.hand !== null && ln.hand !== undefined ? `, hand ${ln.hand + 1}` : "") + ` ${ln.wager}`;
    return lines.length === 1 ? `${one(lines[0])} pushed: the stake stays with the player` :
      `${lines.map(one).join(", ")} pushed: the stakes stay with the players`;
  }

  // "1 seat, not ticked yet", "3 seats, none ticked yet", "1 of 3 seats ticked": never "0 of 1 seats ticked".
  function tickedWords(ticked, seats) {
    if (ticked === 0) return seats === 1 ? "1 seat, not ticked yet" : `${seats} seats, none ticked yet`;
    return `${ticked} of ${seats} seats ticked`;
  }

  function closedWords(r) {
    // What happened: paid as due, or the approval that closed it (who approved what, and why), after
    // any rejection by a pit boss, and any card a pit boss corrected.
    const short = r.approvals.filter((a) => a.kind !== "large_payout");
    const large = r.approvals.filter((a) => a.kind === "large_payout");
    const short_ = r.discrepancies.some((d) => cents(d.paid) < cents(d.due));
    const over = r.discrepancies.some((d) => cents(d.paid) > cents(d.due));
    const kindWords = (k) => ({ mismatch: short_ ? "approved short payment" : over ? "approved overpayment" : "approved payment",
      large_payout: "approved large payout", interrupted: "approved interrupted round" }[k] || `approved ${String(k).replace(/_/g, " ")}`);
    const parts = [];
    if (short.length) {
      parts.push("Round closed: " + short.map((a) => `${kindWords(a.kind)} by ${a.approved_by}: ${a.reason}`).join("; ") +
        (r.discrepancies.length ? " (" + r.discrepancies.map((d) => `Seat ${d.seat} ${BET_WORDS[d.bet] || d.bet} paid ${sayAmount(d.paid)} of ${sayAmount(d.due)}`).join(", ") + ")" : ""));
    } else {
      // What the settlement did, from its lines: wins paid, refunds handed back, pushes returned, losses collected.
      const o = outcomes(r);
      const paid = Object.keys(r.due).some((s) => Object.keys(r.due[s]).length);
      const also = [];
      if (o.refunded) also.push(`surrender refund handed back (${money(o.refunded)})`);
      if (o.pushed.length === 1) also.push(`the bet pushed (stake ${o.pushed[0].wager} returned)`);
      else if (o.pushed.length) also.push(`${o.pushed.length} bets pushed (stakes ${money(o.pushedCents)} returned)`);
      if (!paid && also.length && o.lost) also.push(`the house collected the rest (${money(o.lost)})`);
      parts.push(paid ? ["Round closed: paid as due", ...also].join("; ") :
        also.length ? "Round closed: nothing to pay, " + also.join("; ") : "Round closed: nothing to pay, the house collected");
    }
    const rejections = r.rejections || [];
    if (rejections.length) parts.push(rejections.map((x) => `first payment rejected by ${x.by}: ${x.reason}`).join("; "));
    if (large.length) parts.push(large.map((a) => `${kindWords(a.kind)} by ${a.approved_by}: ${a.reason}`).join("; "));
    const fixed = r.cards.filter((c) => c.corrected_from && c.corrected_by && c.correction_reason &&
      !/low-confidence scan/.test(c.correction_reason));
    if (fixed.length) parts.push(fixed.map((c) => `correction: card #${c.seq} ${pretty(c.corrected_from)} → ${pretty(c.code)} by ${c.corrected_by} (${c.correction_reason})`).join("; "));
    return parts.join(" · ");
  }

  // ---- pit boss: correct a card after settlement and see the re-settlement -------------------------
  function renderCorrection() {
    const r = round;
    const box = $("correct");
    const can = PIT && ["settled", "mismatch", "closed"].includes(r.state) && r.cards.length > 0;
    box.hidden = !can;
    if (!can) return;
    $("fix-cards").replaceChildren(...r.cards.map((c) => el("button", {
      class: "toggle" + (fix.seq === c.seq ? " on" : ""), type: "button", "data-fix-seq": c.seq,
      text: `#${c.seq} ${pretty(c.code)} → ${placeWords(c.hand || c.to)}`, onclick: () => { fix.seq = c.seq; renderCorrection(); } })));
    // Only cards the round's shoe can hold (the server's shoe_cards, the engine's composition of the shoe):
    // a Joker only where the game's shoe has Jokers; a round without a shoe offers every card.
    const holds = (code) => !r.shoe_cards || r.shoe_cards.includes(code);
    const rs = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
    $("fix-ranks").replaceChildren(...rs.filter((x) => ["S", "H", "D", "C"].some((s) => holds(x + s))).map((x) =>
      el("button", { class: "pick rank" + (fix.rank === x ? " on" : ""),
      type: "button", "data-fix-rank": x, text: x === "T" ? "10" : x, onclick: () => { fix.rank = x; renderCorrection(); } })),
      ...(holds("JK") ? [el("button", { class: "pick rank" + (fix.code === "JK" ? " on" : ""), type: "button",
        "data-fix-rank": "JK", text: "Joker", onclick: () => { fix.rank = null; fix.code = "JK"; renderCorrection(); } })] : []));
    $("fix-suits").replaceChildren(...[["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]].map(([s, sym]) => el("button", {
      class: "pick suit" + (/[HD]/.test(s) ? " red" : "") + (fix.code === fix.rank + s ? " on" : ""), type: "button",
      "data-fix-suit": s, text: sym, disabled: fix.rank === null || !holds(fix.rank + s),
      onclick: () => { fix.code = fix.rank + s; renderCorrection(); } })));
    $("fix-reasons").replaceChildren(...["misread scan, checked on camera", "dealer entered the wrong card",
      "card exposed and replaced"].map((text) => el("button", { class: "toggle" + (fix.reason === text ? " on" : ""),
      type: "button", "data-fix-reason": text, text, onclick: () => { fix.reason = text; renderCorrection(); } })));
    const ready = fix.seq !== null && fix.code && fix.reason;
    $("fix-summary").textContent = ready ? `Card #${fix.seq} becomes ${pretty(fix.code)} (${fix.reason})` : "Pick the card, its right value and a reason";
    $("btn-correct").disabled = !ready;
  }
  function lineKey(ln) {
    return `seat ${ln.seat} ${ln.bet}` + (ln.hand !== null && ln.hand !== undefined ? ` hand ${ln.hand + 1}` : "") +
      (ln.behind !== null && ln.behind !== undefined ? ` behind ${ln.behind}` : "");
  }
  async function correctCard() {
    const before = Object.fromEntries(round.settlement.map((ln) => [lineKey(ln), ln]));
    const r = await command(`/api/rounds/${round.id}/cards/${fix.seq}/correct/`,
      { code: fix.code, reason: fix.reason, version: round.version });
    if (!r) return;
    round = r;
    const changes = r.settlement.map((ln) => {
      const old = before[lineKey(ln)];
      return old && old.net === ln.net && old.result === ln.result ? null :
        `${lineKey(ln)}: ${old ? `${old.result} ${old.net}` : "—"} → ${ln.result} ${ln.net}`;
    }).filter(Boolean);
    const out = $("resettle");
    out.hidden = false;
    out.replaceChildren(el("h4", { text: `Re-settled after correcting card #${fix.seq} to ${pretty(fix.code)}` }),
      ...(changes.length ? changes : ["no line changed"]).map((t) => el("div", { class: "change", text: t })),
      el("div", { text: `Round now ${r.state_label}` + (r.discrepancies.length ? ": " + r.discrepancies.map((d) =>
        `seat ${d.seat} ${d.bet} paid ${d.paid}, due ${d.due}`).join("; ") : "") }));
    fix = { seq: null, rank: null, code: null, reason: null, before: null };
    payCents = {};
      seatsPaid.clear();
    render();
  }
  async function loadRound(id) {
    const r = await request("GET", `/api/rounds/${id}/`);
    if (!r.ok) return showError(r.data);
    round = r.data;
    $("recall-dialog").close();
    $("resettle").hidden = true;
    render();
  }

  // ---- commands ------------------------------------------------------------------------------------
  // A dealer holds one table at a time: taking this one releases the one held before.  Asked first, in words,
  // and said after (the server closes the old session; the tablet must not do it silently).
  let releasing = null; // the table this user holds elsewhere, while the take dialog is open
  async function take() {
    const r = await request("GET", "/api/tables/");
    const held = r.ok ? r.data.find((t) => t.dealer === USER && t.id !== TABLE) : null;
    if (!held) return takeNow(null);
    releasing = held;
    const here = table ? table.number : "";
    $("take-text").textContent = `You are the dealer at table ${held.number}. Taking table ${here} releases table ` +
      `${held.number}: nobody deals there until a dealer takes it` +
      (held.round ? ", and its open round waits for that dealer." : ".");
    $("take-yes").textContent = `Take table ${here}, release table ${held.number}`;
    $("take-no").textContent = `Stay at table ${held.number}`;
    $("take-dialog").showModal();
  }
  async function takeNow(released) {
    $("take-dialog").close();
    releasing = null;
    if (await command(`/api/tables/${TABLE}/open/`, {})) {
      if (released) toast(`You now deal at table ${table.number}. Table ${released.number} is released: nobody holds it.`);
      await refresh();
    }
  }
  async function handoverAsk() {
    const r = await request("GET", `/api/tables/${TABLE}/dealers/`);
    if (!r.ok) return showError(r.data);
    $("handover-list").replaceChildren(...r.data.filter((d) => d.username !== table.dealer).map((d) => el("button", {
      class: "btn", type: "button", "data-handover": d.username,
      text: d.username + (d.table ? ` (now at table ${d.table})` : " (free)") })));
    $("handover-dialog").showModal();
  }
  async function handover(username) {
    $("handover-dialog").close();
    if (await command(`/api/tables/${TABLE}/open/`, { dealer: username })) {
      toast(`Table handed over to ${username}`);
      await refresh();
    }
  }
  async function shuffle(reason) {
    if (await command(`/api/tables/${TABLE}/shuffle/`, { reason })) {
      toast("Shoe shuffled: tell the players of the reshuffle");
      await refresh();
    }
  }
  async function openRound() {
    const seats = seatsPayload();
    if (!seats.length) return showError({ error: "place a main bet on at least one seat" });
    seatsSent = seats;
    const r = await command(`/api/tables/${TABLE}/rounds/`, { seats });
    if (r) {
      round = r;
      payCents = {};
      seatsPaid.clear();
      localStorage.removeItem(DISMISSED);
      if (FRESH) toast("A fresh shoe for this hand: tell the players");
      for (const k of Object.keys(bets)) delete bets[k];
      await refresh();
    }
  }
  async function nextHand() {
    const r = await command(`/api/bluffjack/games/${bjGame.id}/hands/`, { version: bjGame.version });
    if (r) {
      round = r;
      payCents = {};
      seatsPaid.clear();
      localStorage.removeItem(DISMISSED);
      toast("A fresh shoe for this hand: tell the players");
      await refresh();
    }
  }
  async function endGame(reason) {
    if (!bjGame) return;
    if (await command(`/api/bluffjack/games/${bjGame.id}/end/`, { reason, version: bjGame.version })) {
      bjGame = null;
      await refresh();
    }
  }
  async function decide(action, amount) {
    // A hit or double is sent at once; the server then asks for its card, which comes picked or scanned.
    // Meant for the player on screen now (who): a second tap that lands while the first is on its way
    // would otherwise be sent after it and decide for the next player (a double tap on Stand stood two
    // seats).  Dropped here once the turn has passed; the server refuses it too (409) if it gets there.
    const who = round.next && round.next.actor;
    const body = { action, version: round.version };
    if (who) body.who = who;
    if (amount !== undefined) body.amount = amount;
    const id = round.id;
    const still = () => !!round && round.id === id && !!round.next && round.next.actor === who &&
      round.state === "in_play" && round.next.needs === "decision";
    const r = await command(`/api/rounds/${round.id}/decisions/`, body, { still });
    if (r) { round = r; render(); }
  }
  // One card at a time: while a picked card is on its way (the network down, the tablet re-sending it) the
  // picker shows it as sending and takes no other card.  A second tap once queued behind it and, the
  // first recorded, was recorded too: the card dealt twice, the copy given to the next hand.
  // The picker held while a card or a scan is on its way, and let go (no rank left chosen either way).
  function holdPicker(what) {
    sending = what;
    rank = null;
    hideToast(); // an earlier toast ("Shoe shuffled") at the bottom covered the picker's "Sending" line
    renderPicker();
  }
  function releasePicker() {
    sending = null;
    rank = null;
    renderPicker();
  }
  async function sendCard(code) {
    if (sending) return;
    holdPicker(code);
    try {
      const body = { code, version: round.version };
      const answering = !!pendingScan;
      if (pendingScan) body.scan = pendingScan.scan;
      const before = round.cards.length;
      const r = await command(`/api/rounds/${round.id}/cards/`, body);
      sending = null;
      pendingScan = null;
      $("scan-confirm").hidden = true;
      if (r) round = r;
      render();
      if (r && answering) thenWords(before + 1);
    } finally {
      if (sending) releasePicker();
    }
  }
  // The scan's later cards the reader was sure of, recorded after the dealer's answer (or "Not a card"):
  // said as a scan's cards are ("Then read 7♥ (96%)"; a face-down card unnamed).
  function thenWords(from) {
    const then = round.cards.slice(from);
    if (!then.length) return;
    const shown = then.filter((c) => c.face_up !== false);
    const hidden = then.length - shown.length;
    const back = hidden ? (then.some((c) => c.face_up === false && c.private) ? "a private card" : "the hole card") : "";
    toast("Then read " + [...shown.map((c) => `${pretty(c.code)} (${pct(c.confidence || 0)})`), ...(back ? [back] : [])]
      .join(", "));
  }
  async function scan(file) {
    if (!round || sending) return;
    const form = new FormData();
    form.append("image", file, file.name || "camera.jpg"); // a file picked, or a camera frame (a Blob)
    // Emptied at once: the same image chosen again is a new choice (it was silently dropped while the first
    // was on its way).
    $("scan-input").value = "";
    holdPicker(SCAN);
    let r;
    try {
      r = await command(`/api/rounds/${round.id}/scans/`, null, { form });
    } finally {
      releasePicker();
    }
    if (!r) return;
    round = r.round;
    // The cards recorded (a scan of several records those before the one it asks about); a question alone
    // hides an earlier scan's "Read ...", which is not this scan's answer.
    if (r.recorded.length) toast(readWords(r));
    else hideToast();
    render(); // an unsure read is the round's pending_scan: renderRound asks the dealer
  }
  // A confidence in whole per cent, rounded down: a read just under the threshold (0.898) never shows as
  // sure as one recorded at it ("90%").
  function pct(confidence) { return `${Math.floor(100 * confidence + 1e-9)}%`; }
  // A scan's toast: the cards it recorded, as the round now draws them.  A card drawn face down (the dealer's
  // hole card, a Bluffjack private card) is not named: "Hole card read (97%)", "Private card read (97%)".
  function readWords(r) {
    const n = r.recorded.length;
    const dealt = n ? round.cards.slice(-n) : []; // the scan's cards are the round's last ones
    const hidden = dealt.filter((c) => c.face_up === false);
    const shown = r.recorded.filter((code, i) => !dealt[i] || dealt[i].face_up !== false);
    const conf = " (" + r.candidates.slice(0, n).map((c) => pct(c.confidence)).join(", ") + ")";
    const back = hidden.length ? (hidden.some((c) => c.private) ? "Private card read" : "Hole card read") : "";
    if (!shown.length && back) return back + conf;
    return "Read " + shown.map(pretty).join(" ") + (back ? " and the " + back.toLowerCase().replace(/ read$/, "") : "") + conf;
  }
  // The unsure scan the round waits on is part of the round (the server's pending_scan): a reload or
  // another tablet asks the dealer again; a card picked then still names the scan.
  function syncUnsure(r) {
    const p = r.state === "in_play" ? r.pending_scan : null;
    const box = $("scan-confirm");
    if (!p) {
      pendingScan = null;
      box.hidden = true;
      if ($("scan-dialog").open) $("scan-dialog").close(); // answered elsewhere: no stale scan left large
      return;
    }
    if (pendingScan && pendingScan.scan === p.scan && pendingScan.card === p.card && !box.hidden) return;
    pendingScan = { round: r, scan: p.scan, card: p.card };
    // A scan of several cards asks about one at a time, left to right: that card cut out of the scan and
    // outlined (the large view shows the whole scan with it outlined), its place named.
    const several = p.of > 1 && p.corners && p.corners.length >= 3;
    box.hidden = false;
    // The reader's best guesses (valid cards the shoe can still deal), each a card face with its
    // confidence: one tap confirms it; otherwise the picker below.
    // None where the round takes no card now (why "round"): a tap on the read card was only refused again.
    const guesses = p.why === "round" ? []
      : p.guesses || p.candidates.filter((c) => /^([2-9TJQKA][SHDC]|JK)$/.test(c.code));
    // The scan itself beside the guesses, so the dealer compares the reader's guess with what was scanned
    // (a blurred K♥ offered as a Joker); a tap shows it large.  Shown for a face-down card too: the
    // tablet faces the dealer, who confirms it; only the toasts keep it unnamed.
    const look = p.image ? el("button", { class: "scan-look", type: "button", "aria-label": "show the scan large",
      title: "the scan: tap to enlarge", onclick: () => showScan(p.image, several ? p.corners : null) },
      several ? cardCrop(p) :
      el("img", { class: "scan-thumb", id: "scan-confirm-image", src: p.image, alt: "the scan being asked about" })) : null;
    const drops = several ? [["Not a card", "not a card", true], ["Scan the rest again", "scan the rest again", false]]
      : [["Scan it again", "scan the card again", false], ["No card was dealt", "no card was dealt", false]];
    // Why it is asked (the server's pending_scan.why), in words: a region the reader did not recognise may
    // be no card at all (its guesses' confidence shown at most the reader's in the region, not one that looks sure).
    const asked = p.candidates[p.card] || {};
    const unknown = p.why === "unknown";
    const which = several ? `Card ${p.card + 1} of ${p.of} in the scan` : "The card";
    const noCard = several ? "Not a card" : "No card was dealt";
    const pickIt = guesses.length ? "tap the card it is, or pick it below" : "pick the card it is below";
    const words = {
      none: "No card recognised: pick it below",
      unknown: `${which} was not recognised, perhaps not a card: tap ${noCard}, or the card it is`,
      // A Joker read at a game without Jokers is not "no more of it in the shoe": the game uses none.
      shoe: asked.code === "JK" && !CAN.has("jokers")
        ? `${which} read as a Joker, but this game uses no Jokers: pick the card it is, or tap ${noCard}`
        : `${which} read ${pretty(asked.code || "")}, but the shoe holds no more of it: pick the card it is, or tap ${noCard}`,
      round: `${which} read ${pretty(asked.code || "")}, but the round takes no card now: tap ${noCard}` +
        (several ? " or Scan the rest again" : ""),
    }[p.why] || (asked.code === "JK" && !CAN.has("jokers")
      // Unsure, and a Joker at a game without them: no guess may be left to tap (it said "tap the card it is").
      ? `${which} looks like a Joker, but this game uses no Jokers: ${pickIt}, or tap ${noCard}`
      : `Unsure read${several ? ` of card ${p.card + 1} of ${p.of} in the scan` : ""}` +
        // no guess left because the shoe holds none of what the reader saw: said, not an empty row of guesses
        (!guesses.length && /^[2-9TJQKA][SHDC]$/.test(asked.code || "")
          ? ` (${pretty(asked.code)}?, but the shoe holds no more of it)` : "") + `: ${pickIt}`);
    box.replaceChildren(...(look ? [look] : []), el("div", { class: "scan-ask" }, el("p", { text: words }),
      el("div", { class: "guesses" },
      ...guesses.map((c) => el("button", { class: "guess" + (/[HD]$/.test(c.code) ? " red" : ""), type: "button",
        "data-confirm": c.code, "aria-label": `confirm ${pretty(c.code)}`, onclick: () => sendCard(c.code) },
        el("span", { class: "face" + (c.code === "JK" ? " joker" : ""), text: c.code === "JK" ? "Joker" : pretty(c.code) }),
        // not recognised: a guess is no surer than the reader is that a card lies there at all
        el("span", { class: "conf", text: pct(unknown ? Math.min(c.confidence, asked.confidence || 0) : c.confidence) }))),
        // Until it is answered the server takes no other scan, card or decision (a new scan once replaced the
        // question and the card it stood for was lost): the way out when no card stands behind it.
        el("span", { class: "scan-drop" },
          ...drops.map(([text, reason, onlyThis]) => el("button", { type: "button", class: "btn", "data-drop-scan": reason,
            text, onclick: () => dropScan(p.scan, reason, onlyThis) }))))));
    // The question says "pick it below": with many hands drawn it pushed the picker under the fold at
    // 1280x800; the page scrolls just enough to show the picker under it.
    requestAnimationFrame(() => $("picker").scrollIntoView({ block: "nearest" }));
  }
  // The outline of a card of the scan, drawn over the scan's image in the image's own pixels (viewBox).
  const SVG = "http://www.w3.org/2000/svg";
  function outline(corners, viewBox) {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "scan-outline");
    svg.setAttribute("aria-hidden", "true");
    if (viewBox) svg.setAttribute("viewBox", viewBox.join(" "));
    const poly = document.createElementNS(SVG, "polygon");
    poly.setAttribute("points", corners.map((c) => c.join(",")).join(" "));
    svg.append(poly);
    return svg;
  }
  // The card asked about cut out of the scan (its outline with a margin, scaled to fit the thumbnail).
  function cardCrop(p) {
    const xs = p.corners.map((c) => c[0]), ys = p.corners.map((c) => c[1]);
    const x0 = Math.min(...xs), y0 = Math.min(...ys), w = Math.max(...xs) - x0, h = Math.max(...ys) - y0;
    const m = 0.15 * Math.max(w, h);
    const box = [x0 - m, y0 - m, w + 2 * m, h + 2 * m];
    const img = el("img", { id: "scan-confirm-image", src: p.image, alt: `card ${p.card + 1} of ${p.of} in the scan` });
    const frame = el("span", { class: "scan-thumb scan-crop" }, img, outline(p.corners, box));
    const place = () => { // the image scaled as the outline's viewBox is (centred, whole box shown)
      // the box kept inside the image (a card near its edge is not shown beside a band of nothing)
      box[2] = Math.min(box[2], img.naturalWidth);
      box[3] = Math.min(box[3], img.naturalHeight);
      box[0] = Math.max(0, Math.min(box[0], img.naturalWidth - box[2]));
      box[1] = Math.max(0, Math.min(box[1], img.naturalHeight - box[3]));
      frame.querySelector(".scan-outline").setAttribute("viewBox", box.join(" "));
      const s = Math.min(frame.clientWidth / box[2], frame.clientHeight / box[3]);
      img.style.width = `${img.naturalWidth * s}px`;
      img.style.left = `${(frame.clientWidth - box[2] * s) / 2 - box[0] * s}px`;
      img.style.top = `${(frame.clientHeight - box[3] * s) / 2 - box[1] * s}px`;
    };
    if (img.complete && img.naturalWidth) requestAnimationFrame(place);
    else img.addEventListener("load", place);
    return frame;
  }
  // The unsure scan large (a dialog over the page; a tap on it, or Close, puts it away), the card asked
  // about outlined when the scan found several.
  function showScan(src, corners) {
    const d = $("scan-dialog");
    const img = $("scan-dialog-image");
    const frame = img.parentElement;
    frame.querySelectorAll(".scan-outline").forEach((o) => o.remove());
    img.src = src;
    if (corners) {
      const svg = outline(corners, null);
      frame.append(svg);
      const fit = () => svg.setAttribute("viewBox", `0 0 ${img.naturalWidth} ${img.naturalHeight}`);
      if (img.complete && img.naturalWidth) fit();
      img.addEventListener("load", fit, { once: true });
    }
    if (!d.open) d.showModal();
  }
  $("scan-dialog-image").addEventListener("click", () => $("scan-dialog").close());
  async function dropScan(scanId, reason, onlyThis) {
    const body = { reason, version: round.version };
    if (onlyThis) body.only_this_card = true;
    const before = round.cards.length;
    const r = await command(`/api/rounds/${round.id}/scans/${scanId}/dismiss/`, body);
    if (!r) return;
    pendingScan = null;
    $("scan-confirm").hidden = true;
    round = r;
    render();
    if (onlyThis) thenWords(before);
    if (reason === "scan the card again") toast("Scan the card again");
    if (reason === "scan the rest again") toast("Scan the cards not yet recorded again");
  }
  // ---- the camera: a live preview; capture on tap, or by itself when a card is held still ----------
  const CAMERA = "tablet-camera"; // remembered on this tablet: the camera comes back after a reload
  const Cam = window.TabletCamera;
  function cameraButtons() {
    const on = !!(Cam && Cam.running());
    $("btn-camera").textContent = on ? "Camera off" : "Camera";
    $("btn-capture").hidden = !on;
    $("btn-auto").hidden = !on;
    $("camera-video").hidden = !on;
    $("btn-auto").textContent = "Auto capture: " + (on && Cam.auto() ? "on" : "off");
    $("btn-auto").classList.toggle("on", on && Cam.auto());
  }
  async function cameraOn() {
    try {
      await Cam.start($("camera-video"), {
        onCapture: (blob) => scan(blob),
        // Only while the round waits for a card, nothing is on its way and no unsure read waits.
        canAuto: () => !busy && !sending && !pendingScan && round && round.state === "in_play" && !$("capture").hidden,
        onState: (text) => { $("camera-state").textContent = text; },
      });
      localStorage.setItem(CAMERA, "1");
    } catch (e) {
      showError({ error: `the camera could not start (${e.message || e.name}): scan or pick the card` });
    }
    cameraButtons();
  }
  function cameraOff() {
    Cam.stop();
    localStorage.removeItem(CAMERA);
    $("camera-state").textContent = "";
    cameraButtons();
  }

  async function settle() {
    const r = await command(`/api/rounds/${round.id}/settle/`, { version: round.version });
    if (r) {
      round = r;
      payCents = {};
      render();
      $("settlement").scrollIntoView({ block: "start" }); // what to pay, in sight at once
    }
  }
  async function confirmPaid() {
    const paid = {};
    for (const [k, c] of Object.entries(payCents)) {
      const [seat, kind] = k.split("/");
      (paid[seat] = paid[seat] || {})[kind] = money(c);
    }
    const r = await command(`/api/rounds/${round.id}/paid/`, { paid, version: round.version });
    if (r && POT && bjGame) bjGame = { ...bjGame, stale: true }; // read again just below
    if (r) { round = r; seatsPaid.clear(); render(); }
    if (r && POT) await refresh(); // the stacks the hand left, for the next hand
  }
  async function reject() {
    const r = await command(`/api/rounds/${round.id}/reject/`, { reason: rejectReason, version: round.version });
    if (r) { round = r; rejectReason = null; render(); }
  }
  // The keypad: what was actually handed over on one bet, typed (no keyboard on the tablet).
  let keyTarget = null;
  function keypad(k, title) {
    keyTarget = k;
    $("keypad-title").textContent = title;
    $("keypad-value").textContent = sayCents(payCents[k]);
    $("keypad-value").dataset.typed = "";
    $("keypad-dialog").showModal();
  }
  function keypadPress(key) {
    const v = $("keypad-value");
    let typed = v.dataset.typed || "";
    if (key === "back") typed = typed.slice(0, -1);
    else if (key === "clear") typed = "";
    else if (key === "." && typed.includes(".")) return;
    else if (/\.\d\d$/.test(typed)) return; // two decimals at most
    else typed = (typed + key).replace(/^0+(?=\d)/, "").slice(0, 9);
    v.dataset.typed = typed;
    v.textContent = typed ? typed : "0.00";
  }
  function keypadDone(ok) {
    const typed = $("keypad-value").dataset.typed;
    if (ok && keyTarget) {
      payCents[keyTarget] = typed ? cents(typed) : payCents[keyTarget];
      seatsPaid.delete(keyTarget.split("/")[0]);
    }
    keyTarget = null;
    $("keypad-dialog").close();
    renderSettlement();
  }
  async function approve() {
    const r = await command(`/api/rounds/${round.id}/approve/`, { reason: approveReason, version: round.version });
    if (r) { round = r; approveReason = null; render(); }
  }
  async function simple(cmd, body = {}) {
    const r = await command(`/api/rounds/${round.id}/${cmd}/`, { ...body, version: round.version });
    if (r) { round = r; render(); }
  }
  async function recall() {
    const r = await request("GET", `/api/tables/${TABLE}/recall/`);
    if (!r.ok) return showError(r.data);
    $("recall-list").replaceChildren(...r.data.map((x) => el("div", { class: "recall" },
      el("h4", { "data-recall-round": x.number, text: `Round ${x.number} · ${x.state_label} · ${when(x)}` }),
      el("div", {}, ...x.cards.map(cardChip)),
      el("div", { "data-recall-decisions": x.number, text: x.decisions.map((d) => `${placeWords(d.actor)} ${d.action}`)
        .join(", ").replace(/^./, (c) => c.toUpperCase()) }),
      // Bets in the words of the settlement table ("Perfect Pairs", "Insurance behind", "Main bet, hand 2"), not API keys.
      el("div", { "data-recall-lines": x.number, text: x.settlement.map((l) => `Seat ${l.seat} ${betWords(l.bet)}` +
        (l.hand !== null && l.hand !== undefined ? `, hand ${l.hand + 1}` : "") + `: ${recallResult(l)}`).join("; ") }),
      el("div", { "data-recall-paid": x.number, text: x.payments.filter((p) => !p.superseded)
        .map((p) => `Paid seat ${p.seat} ${betWords(p.kind)} ${p.amount}`).join("; ") }),
      x.approvals.length ? el("div", { text: "approved: " + x.approvals.map((a) => `${a.kind} by ${a.approved_by} (${a.reason})`).join("; ") }) : null,
      x.cards.some((c) => c.corrected_from) ? el("div", { text: "corrections: " + x.cards.filter((c) => c.corrected_from)
        .map((c) => `${c.corrected_from}→${c.code} by ${c.corrected_by}` + (c.correction_reason ? ` (${c.correction_reason})` : ""))
        .join("; ") }) : null,
      PIT && ["settled", "mismatch", "closed"].includes(x.state) ? el("button", { class: "btn", type: "button",
        "data-recall-correct": x.id, text: "Correct a card", onclick: () => loadRound(x.id) }) : null)));
    $("recall-dialog").showModal();
    $("recall-dialog").scrollTop = 0; // the newest round first in sight
  }
  // A settlement line's result and amount as said elsewhere: "win 5.00", "lose 10.00" (it read "lose -10.00"),
  // "push"; in chips at a pot game.
  function recallResult(l) {
    const c = cents(l.net);
    if (c === 0) return l.result;
    return `${l.result} ${sayCents(Math.abs(c))}` + (c < 0 && l.result !== "lose" && l.result !== "bust" ? " lost" : "");
  }
  // When a round opened, in the dashboard's words on the casino's clock ("Wed 25 Nov 22:00", the round
  // document's opened_words): never the browser's locale ("Wed, Nov 25") nor the server's ISO time.
  const when = (x) => x.opened_words || "";

  app.addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-cmd],[data-cancel-reason],[data-shuffle-reason],[data-end-reason],[data-key],[data-handover]");
    if (!b) return;
    if (b.dataset.handover) return handover(b.dataset.handover);
    if (b.dataset.key) return keypadPress(b.dataset.key);
    if (b.dataset.cancelReason) {
      $("cancel-dialog").close();
      return simple("cancel", { reason: b.dataset.cancelReason });
    }
    if (b.dataset.endReason) {
      $("end-game-dialog").close();
      return endGame(b.dataset.endReason);
    }
    if (b.dataset.shuffleReason) {
      $("shuffle-dialog").close();
      return shuffle(b.dataset.shuffleReason);
    }
    ({
      shuffle: () => $("shuffle-dialog").showModal(),
      "shuffle-close": () => $("shuffle-dialog").close(),
      take, "take-yes": () => takeNow(releasing), "take-no": () => { $("take-dialog").close(); releasing = null; },
      open: openRound, recall, approve, reject, correct: correctCard,
      "keypad-ok": () => keypadDone(true), "keypad-cancel": () => keypadDone(false),
      pause: () => simple("pause", { reason: "paused at the table" }),
      resume: () => simple("resume"),
      "cancel-ask": () => $("cancel-dialog").showModal(),
      "cancel-close": () => $("cancel-dialog").close(),
      "end-game-close": () => $("end-game-dialog").close(),
      "recall-close": () => $("recall-dialog").close(),
      "scan-close": () => $("scan-dialog").close(),
      handover: handoverAsk, "handover-close": () => $("handover-dialog").close(),
      camera: () => (Cam.running() ? cameraOff() : cameraOn()),
      capture: () => Cam.capture(),
      auto: () => { Cam.setAuto(!Cam.auto()); cameraButtons(); },
    })[b.dataset.cmd]();
  });
  $("scan-input").addEventListener("change", (ev) => ev.target.files[0] && scan(ev.target.files[0]));
  window.addEventListener("online", () => refresh());

  resendPending().then(refresh).then(() => { if (Cam && localStorage.getItem(CAMERA)) cameraOn(); });
  // A push channel (server-sent events) calls this when the table, its round or its game changed.
  window.TabletPage = { refresh };
  // Another device (the pit boss) may change the round: keep the view current (push.js says so at once;
  // with its stream live, a poll every 15 s is only the fallback).
  let ticks = 0;
  const pushed = () => window.TabletPush && window.TabletPush.live && ++ticks % 5 !== 0;
  setInterval(() => { if (!busy && !document.hidden && !pushed()) refresh(); }, 3000);
})();
