// Pit-boss dashboard: polls the alerts (2 s) and the floor (10 s) and redraws them without a reload.
(function () {
  "use strict";
  var list = document.getElementById("alerts");
  var floor = document.getElementById("floor");
  if (!list || !floor) { return; }
  var canDecide = list.dataset.canDecide === "1";
  var roundUrl = list.dataset.roundUrl.replace(/0\/$/, "");
  var tableUrl = floor.dataset.tableUrl.replace(/0\/$/, "");
  var seen = {};
  var first = true;

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
          // Decided: let go of the focus (a focused alert is kept across redraws) and redraw.
          if (document.activeElement && li.contains(document.activeElement)) { document.activeElement.blur(); }
          if (li.parentNode) { li.parentNode.removeChild(li); }
          pollAlerts();
        }
        else { status.textContent = res[1].error || ("error " + res[0]); }
      }).catch(function () { status.textContent = "network error: try again"; });
  }

  function alertItem(a) {
    var li = el("li", {"class": "alert " + a.severity + (seen[a.id] || first ? "" : " new"), "data-id": a.id});
    li.appendChild(el("strong", {}, a.title));
    li.appendChild(document.createTextNode(" "));
    li.appendChild(el("span", {"class": "msg"}, a.message));
    if (a.round) {
      var link = el("a", {"href": roundUrl + a.round + "/", "class": "drill"}, "round trail");
      li.appendChild(document.createTextNode(" "));
      li.appendChild(link);
    }
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

  function renderAlerts(data) {
    // Keep an alert whose form is being filled in: a redraw must not eat the pit boss's typing.
    var active = document.activeElement && document.activeElement.closest ? document.activeElement.closest("li.alert") : null;
    var keep = active ? active.dataset.id : null;
    var ids = {};
    data.alerts.forEach(function (a) { ids[a.id] = true; });
    Array.prototype.slice.call(list.children).forEach(function (li) {
      if (li.dataset.id !== keep) { list.removeChild(li); }
    });
    data.alerts.forEach(function (a) {
      if (a.id === keep) { return; }
      list.appendChild(alertItem(a));
      seen[a.id] = true;
    });
    if (!data.alerts.length && !keep) { list.appendChild(el("li", {"class": "none"}, "No open alerts.")); }
    document.getElementById("alert-count").textContent = data.alerts.length;
    first = false;
  }

  function band(hold) {
    // A small chart: the theory's band (grey), theory (tick), actual win (dot, red when outside).
    var svgNS = "http://www.w3.org/2000/svg";
    var svg = document.createElementNS(svgNS, "svg");
    svg.setAttribute("width", "160"); svg.setAttribute("height", "18"); svg.setAttribute("role", "img");
    if (!hold) { return svg; }
    var lo = parseFloat(hold.band_low), hi = parseFloat(hold.band_high), win = parseFloat(hold.win), th = parseFloat(hold.theo_win);
    var min = Math.min(lo, win), max = Math.max(hi, win), span = (max - min) || 1;
    function x(v) { return 4 + (v - min) / span * 152; }
    function add(tag, attrs) { var e = document.createElementNS(svgNS, tag); Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); }); svg.appendChild(e); }
    add("rect", {x: x(lo), y: 5, width: Math.max(x(hi) - x(lo), 1), height: 8, fill: "#cdd8e0"});
    add("line", {x1: x(th), x2: x(th), y1: 2, y2: 16, stroke: "#555"});
    add("circle", {cx: x(win), cy: 9, r: 4, fill: hold.flagged ? "#c33" : "#274"});
    var title = document.createElementNS(svgNS, "title");
    title.textContent = "win " + hold.win + ", theory " + hold.theo_win + ", band " + hold.band_low + " … " + hold.band_high;
    svg.appendChild(title);
    return svg;
  }

  function pct(v) { return v === null || v === undefined ? "—" : v.toFixed(2) + "%"; }

  function renderFloor(data) {
    var body = floor.querySelector("tbody");
    body.textContent = "";
    data.tables.forEach(function (t) {
      var tr = el("tr", {"data-id": t.id, "class": t.hold && t.hold.flagged ? "flagged" : ""});
      var a = el("a", {"href": tableUrl + t.id + "/"}, String(t.number));
      var td = el("td"); td.appendChild(a); tr.appendChild(td);
      [t.game_name, t.status, t.dealer || "—", t.min_bet + "–" + t.max_bet, String(t.rounds_this_hour),
       t.penetration === null ? "—" : Math.round(t.penetration * 100) + "%",
       t.hold ? pct(t.hold.hold_pct) : "—", t.hold ? pct(t.hold.theo_hold_pct) : "—"
      ].forEach(function (v) { tr.appendChild(el("td", {}, v)); });
      var chart = el("td", {"class": "chart"}); chart.appendChild(band(t.hold)); tr.appendChild(chart);
      body.appendChild(tr);
    });
  }

  function get(url, then) {
    fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(then).catch(function () { /* a missed poll: the next one catches up */ });
  }
  function pollAlerts() { get(list.dataset.url, renderAlerts); }
  function pollFloor() { get(floor.dataset.url, renderFloor); }
  pollAlerts(); pollFloor();
  setInterval(pollAlerts, 2000);
  setInterval(pollFloor, 10000);
})();
