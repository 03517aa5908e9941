// Pit-boss floor: tiles by pit and the alerts, kept live by the push channel (server-sent events,
// docs/push.md).  Each event redraws its table's tile from the event itself; the alerts are read again
// only when an event says they changed.  The JSON endpoints are read in full at start, after the stream
// reconnects, and every data-poll seconds as a fallback (a proxy that drops the stream, a lost event).
(function () {
  "use strict";
  var list = document.getElementById("alerts");
  var floor = document.getElementById("floor");
  if (!list || !floor) { return; }
  var canDecide = list.dataset.canDecide === "1";
  var roundUrl = list.dataset.roundUrl.replace(/0\/$/, "");
  var tableUrl = floor.dataset.tableUrl.replace(/0\/$/, "");
  var pollSeconds = parseInt(floor.dataset.poll, 10) || 60;
  var seen = {};
  var first = true;
  var alertTables = {};  // table id -> true while it has an open alert
  var tiles = {};        // table id -> the tile's last data
  var LABELS = {closed: "closed", open: "open, no round", in_round: "in a round",
                waiting_payment: "waiting for payment", alert: "alert"};
  var DECISIONS = /^(round\.approve|round\.reject|round\.cancel|audit\.finding\.acknowledge)/;
  var filters = {pit: document.getElementById("f-pit"), game: document.getElementById("f-game"),
                 state: document.getElementById("f-state"), kind: document.getElementById("a-kind"),
                 table: document.getElementById("a-table"), sound: document.getElementById("a-sound")};

  function csrf() {
    var m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    if (m) { return decodeURIComponent(m[1]); }
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }

  function clock(iso) {
    // "14:05:09" today, "Tue 14:05" on another day: never a raw ISO timestamp.
    var d = new Date(iso), now = new Date();
    var hms = d.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false});
    if (d.toDateString() === now.toDateString()) { return hms; }
    // "Wed 25 Nov 22:00", as the pages write days (not the browser locale's "Wed, Nov 25").
    var part = function (opts) { return d.toLocaleDateString("en-GB", opts); };
    return part({weekday: "short"}) + " " + d.getDate() + " " + part({month: "short"}) + " " + hms.slice(0, 5);
  }

  // ---------------------------------------------------------------------------------------------
  // Sound: a short beep for a new alert, if the pit boss switched it on (remembered in this browser).

  var audio = null;
  if (filters.sound) {
    filters.sound.checked = localStorage.getItem("floor.sound") === "1";
    filters.sound.addEventListener("change", function () {
      localStorage.setItem("floor.sound", filters.sound.checked ? "1" : "0");
      if (filters.sound.checked) { beep(); }
    });
  }
  function beep() {
    if (!filters.sound || !filters.sound.checked) { return; }
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = 880; g.gain.value = 0.08;
      o.connect(g); g.connect(audio.destination);
      o.start(); o.stop(audio.currentTime + 0.18);
    } catch (e) { /* no audio: the list still shows it */ }
  }

  // ---------------------------------------------------------------------------------------------
  // Alerts

  function decide(alert, decision, reason, li) {
    var status = li.querySelector(".status");
    status.textContent = "sending…";
    fetch(list.dataset.decide, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()},
      body: JSON.stringify({alert: alert.id, decision: decision, reason: reason})
    }).then(function (r) { return r.json().then(function (b) { return [r.status, b]; }); })
      .then(function (res) {
        if (res[0] === 200) {
          if (document.activeElement && li.contains(document.activeElement)) { document.activeElement.blur(); }
          if (li.parentNode) { li.parentNode.removeChild(li); }
          loadAlerts();
        }
        else { status.textContent = res[1].error || ("error " + res[0]); }
      }).catch(function () { status.textContent = "network error: try again"; });
  }

  function alertItem(a) {
    var li = el("li", {"class": "alert " + a.severity + (seen[a.id] || first ? "" : " new"), "data-id": a.id,
                       "data-kind": a.group, "data-table": String(a.table_number)});
    var head = el("div", {"class": "head"});
    head.appendChild(el("time", {"datetime": a.at, "title": "when it happened"}, clock(a.at)));
    head.appendChild(el("span", {"class": "kind"}, a.kind_label));
    var t = el("a", {"href": tableUrl + a.table + "/", "class": "table"}, "table " + a.table_number);
    head.appendChild(t);
    if (a.round) {
      head.appendChild(el("a", {"href": roundUrl + a.round + "/", "class": "drill"},
                          "round " + (a.round_number || a.round)));
    }
    if (a.dealer) { head.appendChild(el("span", {"class": "dealer"}, "dealer " + a.dealer)); }
    li.appendChild(head);
    li.appendChild(el("div", {"class": "msg"}, a.message));
    if (canDecide) {
      var form = el("form", {"class": "decide"});
      var reason = el("input", {"name": "reason", "placeholder": "reason", "required": "required", "aria-label": "reason"});
      form.appendChild(reason);
      a.actions.forEach(function (action) {
        var b = el("button", {"type": "submit", "value": action, "class": action}, action);
        b.addEventListener("click", function () { form.dataset.action = action; });
        form.appendChild(b);
      });
      form.addEventListener("submit", function (ev) {
        ev.preventDefault();
        if (!reason.value.trim()) { reason.focus(); return; }
        decide(a, form.dataset.action || a.actions[0], reason.value.trim(), li);
      });
      li.appendChild(form);
    }
    li.appendChild(el("span", {"class": "status"}));
    return li;
  }

  function alertVisible(li) {
    var kind = filters.kind ? filters.kind.value : "", table = filters.table ? filters.table.value.trim() : "";
    return (!kind || li.dataset.kind === kind) && (!table || li.dataset.table === table);
  }

  function filterAlerts() {
    var shown = 0;
    Array.prototype.forEach.call(list.querySelectorAll("li.alert"), function (li) {
      var on = alertVisible(li);
      li.hidden = !on;
      if (on) { shown++; }
    });
    document.getElementById("alert-count").textContent = shown;
  }

  function renderAlerts(data) {
    var active = document.activeElement && document.activeElement.closest ? document.activeElement.closest("li.alert") : null;
    var keep = active ? active.dataset.id : null;
    var fresh = false;
    Array.prototype.slice.call(list.children).forEach(function (li) {
      if (li.dataset.id !== keep) { list.removeChild(li); }
    });
    var before = alertTables;
    alertTables = {};
    data.alerts.forEach(function (a) {
      alertTables[a.table] = true;
      if (a.id === keep) { return; }
      if (!seen[a.id] && !first) { fresh = true; }
      list.appendChild(alertItem(a));
      seen[a.id] = true;
    });
    if (!data.alerts.length && !keep) { list.appendChild(el("li", {"class": "none"}, "No open alerts.")); }
    Object.keys(before).concat(Object.keys(alertTables)).forEach(function (id) {
      if (tiles[id]) { drawTile(tiles[id]); }
    });
    filterAlerts();
    if (fresh) { beep(); }
    first = false;
  }

  // ---------------------------------------------------------------------------------------------
  // Tiles

  // A payout mismatch first, then the round in progress, then an open alert, then the table (the same
  // order as tables.selectors.floor_live.tile_state); an alert behind a round shows as a mark.
  function tileState(t) {
    if (t.round_state === "mismatch") { return "alert"; }
    var open = t.status !== "closed";
    if (open && (t.round_state === "in_play" || t.round_state === "paused")) { return "in_round"; }
    if (open && t.round_state === "settled") { return "waiting_payment"; }
    if (alertTables[t.id]) { return "alert"; }
    if (!open) { return "closed"; }
    return "open";
  }

  function pct(v) { return v === null || v === undefined ? "—" : Number(v).toFixed(1) + "%"; }

  function holdText(t) {
    if (!t.hold) { return "no hold yet"; }
    var text = "hold " + pct(t.hold.hold_pct) + " · theory " + pct(t.hold.theo_hold_pct);
    return text + (t.hold_as_of ? " · as of " + clock(t.hold_as_of) : "");
  }

  function drawTile(t) {
    var a = document.getElementById("tile-" + t.id);
    if (!a) { return; }
    var state = tileState(t);
    a.className = "tile tile-" + state + (t.hold && t.hold.flagged ? " flagged" : "") +
      (alertTables[t.id] && state !== "alert" ? " has-alert" : "");
    a.dataset.state = state;
    a.textContent = "";
    a.appendChild(el("span", {"class": "num"}, String(t.number)));
    a.appendChild(document.createTextNode(" "));
    a.appendChild(el("span", {"class": "game"}, t.game_name));
    a.appendChild(el("span", {"class": "state"}, LABELS[state] + (t.round_number && state !== "open" && state !== "closed" ? " · round " + t.round_number : "")));
    a.appendChild(el("span", {"class": "dealer"}, t.dealer || "no dealer"));
    var rph = el("span", {"class": "rph"}); rph.appendChild(el("b", {}, String(t.rounds_this_hour))); rph.appendChild(document.createTextNode(" rounds/h"));
    a.appendChild(rph);
    a.appendChild(el("span", {"class": "hold", "title": t.hold ? "win " + t.hold.win + " on " + t.hold.handle + "; theory band " + t.hold.band_low + " … " + t.hold.band_high : ""}, holdText(t)));
    a.hidden = !tileVisible(a);
  }

  function tileVisible(a) {
    var pit = filters.pit ? filters.pit.value : "", game = filters.game ? filters.game.value : "", state = filters.state ? filters.state.value : "";
    return (!pit || a.dataset.pit === pit) && (!game || a.dataset.game === game) && (!state || a.dataset.state === state);
  }

  function filterTiles() {
    Array.prototype.forEach.call(floor.querySelectorAll(".tile"), function (a) { a.hidden = !tileVisible(a); });
    Array.prototype.forEach.call(floor.querySelectorAll(".pit"), function (p) {
      p.hidden = !p.querySelector(".tile:not([hidden])");
    });
  }

  // A floor read is a snapshot; pushes go on arriving while it is on its way.  So each tile keeps the
  // pushes it drew lately, and a read's tile has those that came after the read began applied again on
  // top: they carry states, not changes (the round's state, the table's status, the dealer, the hold),
  // so applying one the read already holds changes nothing, and a slow read never puts back a state a
  // push has moved on from.  The one count, rounds per hour, takes a round.open only if its event is
  // newer than the read (above its events_upto; docs/push.md).
  var pushSeq = 0;       // pushes drawn so far
  var KEEP = 50;         // pushes a tile remembers for reads in flight
  var early = {};        // table id -> pushes that came before the tile's first read
  function renderFloor(data, startedAt) {
    var upto = data.events_upto || 0;
    data.tables.forEach(function (t) {
      var mine = tiles[t.id];
      t.recent = (mine ? mine.recent || [] : early[t.id] || []).filter(function (p) { return p.seq > startedAt; });
      t.recent.forEach(function (p) { applyPush(t, p.e, !p.e.event || p.e.event > upto); });
      delete early[t.id];
      tiles[t.id] = t; drawTile(t);
    });
    filterTiles();
  }

  // ---------------------------------------------------------------------------------------------
  // Push

  var alertTimer = null;
  function alertsSoon() {
    if (alertTimer) { return; }
    alertTimer = setTimeout(function () { alertTimer = null; loadAlerts(); }, 250);
  }

  function applyPush(t, e, counts) {
    if (e.kind === "hold") {
      t.hold = e.hold && e.hold.rounds ? e.hold : null;
      t.hold_as_of = e.as_of;
    } else if (e.kind === "event") {
      if (e.table_status) { t.status = e.table_status; }
      if (e.action === "table.open") { t.dealer = e.dealer || null; }
      if (e.action === "table.close") { t.dealer = null; }
      if (e.action === "round.open" && counts) { t.rounds_this_hour += 1; }
      if (e.round) {
        var open = ["in_play", "paused", "settled", "mismatch"].indexOf(e.round_state) >= 0;
        if (open || e.round === t.round) {
          t.round = open ? e.round : null;
          t.round_number = open ? e.round_number : null;
          t.round_state = open ? e.round_state : null;
        }
      }
    }
  }

  function onPush(ev) {
    var e;
    try { e = JSON.parse(ev.data); } catch (x) { return; }
    var t = tiles[e.table];
    if (e.kind === "findings") { alertsSoon(); return; }
    if (!t) {  // before the first read has answered: kept for it
      early[e.table] = (early[e.table] || []).concat([{seq: ++pushSeq, e: e}]).slice(-KEEP);
      return;
    }
    applyPush(t, e, true);
    t.recent = (t.recent || []).concat([{seq: ++pushSeq, e: e}]).slice(-KEEP);
    if (e.kind === "event" && (e.round_state === "mismatch" || e.approval_required || DECISIONS.test(e.action || "") ||
        (alertTables[e.table] && /^round\.(paid|card\.correct)/.test(e.action || "")))) { alertsSoon(); }
    drawTile(t);
    window.floorLastPush = e;  // for the load test and the browser tests: the last event drawn
  }

  var live = document.getElementById("live");
  function setLive(on, text) { if (live) { live.className = "live " + (on ? "on" : "off"); live.textContent = text; } }

  function connect() {
    if (!window.EventSource || !floor.dataset.events) { setLive(false, "polling"); return; }
    var source = new EventSource(floor.dataset.events);
    source.addEventListener("stream-open", function () { setLive(true, "live"); loadAll(); });
    source.addEventListener("floor", onPush);
    source.addEventListener("stream-error", function () { setLive(false, "polling"); source.close(); });
    source.onerror = function () {
      // EventSource retries a dropped stream by itself; a refused one (no ASGI server, rights gone) is
      // closed for good: poll more often instead.
      if (source.readyState === EventSource.CLOSED) { setLive(false, "polling"); startPolling(10); }
      else { setLive(false, "reconnecting…"); }
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Reads

  function get(url, then) {
    fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(then).catch(function () { /* a missed read: the next push or poll catches up */ });
  }
  function loadAlerts() { get(list.dataset.url, renderAlerts); }
  function loadFloor() { var startedAt = pushSeq; get(floor.dataset.url, function (data) { renderFloor(data, startedAt); }); }
  function loadAll() { loadFloor(); loadAlerts(); }

  ["pit", "game", "state"].forEach(function (k) { if (filters[k]) { filters[k].addEventListener("change", filterTiles); } });
  if (filters.kind) { filters.kind.addEventListener("change", filterAlerts); }
  if (filters.table) { filters.table.addEventListener("input", filterAlerts); }
  var pollTimer = null;
  function startPolling(seconds) {
    if (pollTimer) { clearInterval(pollTimer); }
    pollTimer = setInterval(loadAll, seconds * 1000);
  }
  loadAll();
  connect();
  startPolling(pollSeconds);
})();
