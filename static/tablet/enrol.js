/* Enrol a new deck at the tablet (tables/templates/tablet/enrol.html): a games manager scans the deck's cards
 * in any order; the server names each card with the deck as the witness and asks only where it is unsure.
 *
 * Everything lives on the server (/api/tables/<table>/enrolments/...): the page only draws the session,
 * so a reload, or another tablet, picks it up where it was.  The cards still missing are the picker: while
 * a scan waits for an answer, a missing card of the grid names it with one tap.
 */
(function () {
  "use strict";
  const { $, el, newKey, request } = window.TabletKit;
  const root = $("enrol");
  const TABLE = root.dataset.table;
  const MAY_ASSIGN = root.dataset.mayAssign === "1";
  const BASE = `/api/tables/${TABLE}/enrolments/`;
  const DONE_KEY = `enrol-finished-${TABLE}`;
  let doc = null; // the session as the server last drew it
  let deckChoice = null;
  let inspect = null; // a named scan the person tapped in the grid
  let busy = false;

  const net = (online) => { $("net").textContent = online ? "online" : "offline: retrying"; $("net").className = "net " + (online ? "ok" : "bad"); };
  const red = (code) => /[HD]$/.test(code);
  const url = (path = "") => `${BASE}${doc.id}/${path}`;

  function showError(data) {
    const box = $("error");
    if (!data) { box.hidden = true; return; }
    box.textContent = (data.error || "something went wrong").replace(/^./, (c) => c.toUpperCase());
    box.hidden = false;
  }
  function say(text, kind) {
    const m = $("message");
    m.textContent = text;
    m.className = "prompt" + (kind ? " " + kind : "");
  }

  async function call(method, path, body) {
    showError(null);
    const r = await request(method, path, body, method === "GET" ? null : newKey(), net);
    if (!r.ok) showError(r.data);
    return r;
  }

  // ---- start ---------------------------------------------------------------------------------
  function drawStart(page) {
    $("session").hidden = true;
    $("start").hidden = false;
    if (page.design) $("current-design").textContent = page.design;
    deckChoice = deckChoice || page.suggested_deck;
    $("deck-choice").replaceChildren(...page.decks.map((d) => el("button", {
      class: "deck-option" + (d.slug === deckChoice ? " on" : ""), type: "button", "data-deck": d.slug,
      "aria-pressed": d.slug === deckChoice ? "true" : "false",
      onclick: () => { deckChoice = d.slug; drawStart(page); },
    }, el("span", { class: "deck-name", text: d.name }), el("span", { class: "deck-games", text: `${d.cards} cards · ${d.games}` }))));
  }

  async function start() {
    const name = $("design-name").value.trim();
    if (!name) { showError({ error: "name the deck design first (as the back office will list it)" }); $("design-name").focus(); return; }
    const r = await call("POST", BASE, { name, deck: deckChoice });
    if (r.ok) { localStorage.removeItem(DONE_KEY); draw(r.data); say("Scan the first card: any card, in any order."); }
  }

  // ---- the session ---------------------------------------------------------------------------
  function waitingScan() {
    if (!doc || !doc.waiting.length) return null;
    return doc.scans.find((s) => s.seq === doc.waiting[0]) || null;
  }

  function drawGrid() {
    const asking = waitingScan();
    const cells = doc.grid.map((c) => {
      const named = c.scans.length;
      const full = named >= c.copies;
      const label = c.copies > 1 ? `${c.face} ${named}/${c.copies}` : c.face;
      const cls = "cell" + (red(c.code) ? " red" : "") + (full ? " named" : named ? " partly" : "") + (c.code === "JK" ? " joker" : "");
      const pickable = asking && !full && doc.status === "open";
      const tappable = doc.status === "open" && (pickable || (!asking && named));
      return el("button", {
        class: cls + (pickable ? " pickable" : ""), type: "button", "data-code": c.code, "data-named": named ? "1" : "0",
        title: c.words, disabled: !tappable,
        onclick: () => (pickable ? answer(asking.seq, c.code, false) : showNamed(c)),
      }, el("span", { class: "face", text: label }));
    });
    $("deck-grid").replaceChildren(...cells);
    $("grid-hint").textContent = asking ? "Tap the card it is: the cards still missing are lit." :
      doc.status === "open" ? "Tap a named card to see its scan or drop it." : "";
  }

  function guessButton(seq, g) {
    return el("button", { class: "guess" + (red(g.code) ? " red" : ""), type: "button", "data-guess": g.code,
      onclick: () => answer(seq, g.code, false) },
    el("span", { class: "face" + (g.code === "JK" ? " joker" : ""), text: g.face }),
    el("span", { class: "conf", text: `${Math.round(100 * g.confidence)}%` }));
  }

  function drawQuestion() {
    const box = $("question");
    const s = waitingScan();
    const shown = s || (inspect && doc.scans.find((x) => x.seq === inspect));
    if (!shown || doc.status !== "open") { box.hidden = true; return; }
    box.hidden = false;
    $("question-image").src = shown.image;
    const actions = [];
    let guesses = [];
    let hint = "";
    if (s && s.duplicate_of) {
      const earlier = (doc.grid.find((c) => c.code === s.duplicate_of) || { scans: [] }).scans;
      say(`You already scanned ${s.duplicate_words}${earlier.length ? ` (scan ${earlier.join(", ")})` : ""}: scan ${s.seq} looks the same.`, "warn");
      actions.push(el("button", { class: "btn primary big", type: "button", id: "btn-replace",
        text: `Keep this scan as ${s.duplicate_words}`, onclick: () => answer(s.seq, s.duplicate_of, true) }));
      actions.push(el("button", { class: "btn big", type: "button", id: "btn-drop", text: "Drop this scan",
        onclick: () => drop(s.seq) }));
      hint = "Or, if it is another card, tap it in the deck on the right.";
    } else if (s) {
      say(s.found === 1 ? `Not sure of scan ${s.seq}: which card is it?` :
        s.found ? `Scan ${s.seq} shows ${s.found} cards: which card did you mean? (one card at a time)` :
          `No card found in scan ${s.seq}: which card is it? Or drop it and scan again.`, "warn");
      guesses = s.guesses.map((g) => guessButton(s.seq, g));
      actions.push(el("button", { class: "btn big", type: "button", id: "btn-drop", text: "Drop this scan",
        onclick: () => drop(s.seq) }));
      hint = guesses.length ? "Tap the card it is, or tap it in the deck on the right." : "Tap the card it is in the deck on the right.";
    } else {
      const by = shown.named_by === "reader" ? `named by the reader, ${Math.round(100 * shown.confidence)}% sure` : "named by you";
      say(`Scan ${shown.seq}: ${shown.words}, ${by}.`);
      actions.push(el("button", { class: "btn big", type: "button", id: "btn-drop", text: "Drop this scan",
        onclick: () => { inspect = null; drop(shown.seq); } }));
      actions.push(el("button", { class: "btn ghost big", type: "button", text: "Close",
        onclick: () => { inspect = null; drawQuestion(); say(""); } }));
    }
    if (s && doc.waiting.length > 1) hint += ` ${doc.waiting.length - 1} more scan${doc.waiting.length > 2 ? "s wait" : " waits"} after this one.`;
    $("guesses").replaceChildren(...guesses);
    $("question-actions").replaceChildren(...actions);
    $("question-hint").textContent = hint;
  }

  function showNamed(card) {
    inspect = card.scans[card.scans.length - 1];
    drawQuestion();
  }

  function draw(d) {
    doc = d;
    root.dataset.scans = String(d.scans.length); // (tests wait on it)
    root.dataset.status = d.status;
    $("start").hidden = true;
    $("session").hidden = false;
    $("session-title").textContent = `${d.name} · ${d.deck_label}`;
    const missing = d.missing.length;
    $("progress").textContent = `${d.named} of ${d.total} named · ${missing} missing`;
    const open = d.status === "open";
    const complete = open && !missing && !d.waiting.length;
    for (const id of ["scan-label", "btn-camera", "session-actions"]) $(id).hidden = !open;
    $("btn-undo").disabled = !d.scans.length;
    if (complete && $("finish").hidden) $("finish-name").value = d.name;
    $("finish").hidden = !complete;
    $("done").hidden = d.status !== "finished";
    if (!open) stopCamera();
    if (d.status === "finished") {
      $("done-text").textContent = d.assigned ? `${d.table_label} now reads its cards with “${d.name}”.` :
        `The deck design “${d.name}” is learned from ${d.total} scans.`;
      $("btn-assign").hidden = d.assigned || !MAY_ASSIGN;
      $("btn-assign").textContent = `Read ${d.table_label}'s cards with “${d.name}”`;
      say("");
    } else if (complete) {
      say("Every card of the deck is named.", "ok");
    }
    drawGrid();
    drawQuestion();
  }

  // ---- commands ------------------------------------------------------------------------------
  async function scan(file) {
    if (!doc || busy) return;
    busy = true;
    inspect = null;
    const form = new FormData();
    form.append("image", file, file.name || "capture.jpg");
    say("Reading the card…");
    try {
      const r = await call("POST", url("scans/"), form);
      if (r.ok) {
        draw(r.data.enrolment);
        if (r.data.outcome === "named") say(`${r.data.message}. Next card.`, "ok");
      } else say("");
    } finally {
      busy = false;
      $("scan-input").value = "";
    }
  }

  async function answer(seq, code, replace) {
    const r = await call("POST", url(`scans/${seq}/`), { code, replace });
    if (r.ok) {
      const named = r.data.scans.find((s) => s.seq === seq);
      draw(r.data);
      if (!waitingScan() && named) say(`Scan ${seq} is ${named.words}. Next card.`, "ok");
    }
  }

  async function drop(seq) {
    const r = await call("DELETE", url(`scans/${seq}/`));
    if (r.ok) { draw(r.data); if (!waitingScan()) say(`Scan ${seq} dropped.`); }
  }

  async function undo() {
    const last = doc.scans[doc.scans.length - 1];
    const r = await call("POST", url("undo/"), {});
    if (r.ok) { inspect = null; draw(r.data); if (!waitingScan()) say(last && last.words ? `Undone: ${last.words} is missing again.` : "Last scan undone."); }
  }

  async function finish() {
    $("btn-finish").disabled = true;
    say("Learning the deck: this takes a few seconds…");
    const name = $("finish-name").value.trim();
    const r = await call("POST", url("finish/"), name && name !== doc.name ? { name } : {});
    $("btn-finish").disabled = false;
    if (r.ok) { localStorage.setItem(DONE_KEY, String(r.data.id)); draw(r.data); } else say("");
  }

  async function assign() {
    const r = await call("POST", url("assign/"), {});
    if (r.ok) draw(r.data);
  }

  async function abandon() {
    $("abandon-dialog").close();
    const r = await call("POST", url("abandon/"), {});
    if (r.ok) { doc = null; stopCamera(); load(); }
  }

  // ---- camera --------------------------------------------------------------------------------
  function stopCamera() {
    if (!window.TabletCamera || !window.TabletCamera.running()) return;
    window.TabletCamera.stop();
    $("camera-video").hidden = true;
    $("btn-capture").hidden = true;
    $("camera-state").textContent = "";
  }
  async function camera() {
    if (window.TabletCamera.running()) { stopCamera(); return; }
    try {
      await window.TabletCamera.start($("camera-video"), {
        onCapture: (blob) => scan(blob),
        canAuto: () => !busy && !waitingScan() && doc && doc.status === "open",
        onState: (s) => { $("camera-state").textContent = s; },
      });
      $("camera-video").hidden = false;
      $("btn-capture").hidden = false;
    } catch (e) {
      showError({ error: `the camera could not start (${e.message || e.name}): use "Scan a card" instead` });
    }
  }

  // ---- load ----------------------------------------------------------------------------------
  async function load() {
    const r = await call("GET", BASE);
    if (!r.ok) return;
    if (r.data.open) { draw(r.data.open); if (!waitingScan()) say(`${r.data.open.missing.length} cards to go: scan the next one.`); return; }
    const finished = localStorage.getItem(DONE_KEY);
    if (finished) {
      const d = await request("GET", `${BASE}${finished}/`, undefined, null, net);
      if (d.ok && d.data.status === "finished") { draw(d.data); return; }
      localStorage.removeItem(DONE_KEY);
    }
    drawStart(r.data);
  }

  $("btn-start").addEventListener("click", start);
  $("design-name").addEventListener("keydown", (ev) => { if (ev.key === "Enter") start(); });
  $("scan-input").addEventListener("change", (ev) => ev.target.files[0] && scan(ev.target.files[0]));
  $("btn-camera").addEventListener("click", camera);
  $("btn-capture").addEventListener("click", () => window.TabletCamera.capture());
  $("btn-undo").addEventListener("click", undo);
  $("btn-finish").addEventListener("click", finish);
  $("btn-assign").addEventListener("click", assign);
  $("btn-another").addEventListener("click", () => { localStorage.removeItem(DONE_KEY); doc = null; say(""); load(); });
  $("btn-abandon").addEventListener("click", () => $("abandon-dialog").showModal());
  $("btn-abandon-yes").addEventListener("click", abandon);
  $("btn-abandon-no").addEventListener("click", () => $("abandon-dialog").close());
  load();
})();
