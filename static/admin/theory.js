/* Back office: poll a pay table's theory while its simulation runs, show the progress, and swap in
   the figures when done (no reload).  The block carries its JSON URL in data-theory-url. */
(function () {
  "use strict";
  var INTERVAL_MS = 1000;
  var MAX_FAILURES = 5;

  function poll(block) {
    var url = block.getAttribute("data-theory-url");
    var failures = 0;
    function tick() {
      fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
        .then(function (r) { if (!r.ok) { throw new Error("HTTP " + r.status); } return r.json(); })
        .then(function (data) {
          failures = 0;
          if (data.status === "pending" || data.status === "running") {
            var pct = Math.round(((data.simulation && data.simulation.progress) || 0) * 100);
            var bar = block.querySelector(".theory-progress progress");
            var text = block.querySelector(".theory-progress-text");
            if (bar) { bar.value = pct; bar.textContent = pct + "%"; }
            if (text) { text.textContent = pct + "%"; }
            window.setTimeout(tick, INTERVAL_MS);
            return;
          }
          // Done or failed: the server renders the block; replace ours with it.
          var holder = document.createElement("div");
          holder.innerHTML = data.html;
          var fresh = holder.querySelector(".theory");
          if (fresh) { block.replaceWith(fresh); }
        })
        .catch(function () {
          failures += 1;
          if (failures < MAX_FAILURES) { window.setTimeout(tick, INTERVAL_MS * failures * 2); }
        });
    }
    window.setTimeout(tick, INTERVAL_MS);
  }

  function start() {
    var blocks = document.querySelectorAll(".theory[data-theory-url]");
    for (var i = 0; i < blocks.length; i++) {
      var status = blocks[i].getAttribute("data-status");
      if (status === "pending" || status === "running") { poll(blocks[i]); }
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

/* The theory as the lines are edited: on a draft's change page, every change to a line (odds, multiple,
   deleted, added) posts the form as it stands to the preview URL (nothing is saved) and shows the
   figures it returns, marked as a preview.  Exact lines come back in well under a second. */
(function () {
  "use strict";
  var DELAY_MS = 400;

  function start() {
    var block = document.querySelector(".theory[data-preview-url]");
    var form = document.querySelector("#paytable_form");
    if (!block || !form || !form.querySelector("[name$='-odds']:not([readonly])")) { return; }
    var timer = null;
    var asked = 0;
    function preview() {
      var mine = ++asked;
      var current = document.querySelector(".theory[data-preview-url]");
      fetch(current.getAttribute("data-preview-url"), {
        method: "POST", credentials: "same-origin", body: new FormData(form),
        headers: {"Accept": "application/json", "X-CSRFToken": form.querySelector("[name=csrfmiddlewaretoken]").value}
      })
        .then(function (r) { if (!r.ok) { throw new Error("HTTP " + r.status); } return r.json(); })
        .then(function (data) {
          if (mine !== asked) { return; } // a later edit's answer is on its way
          var holder = document.createElement("div");
          holder.innerHTML = data.html;
          var fresh = holder.querySelector(".theory");
          var now = document.querySelector(".theory[data-preview-url]");
          if (fresh && now) { now.replaceWith(fresh); }
        })
        .catch(function () { /* the saved figures stay; Save computes them anyway */ });
    }
    function changed(ev) {
      if (!ev.target.name || !/^lines-/.test(ev.target.name)) { return; }
      window.clearTimeout(timer);
      timer = window.setTimeout(preview, DELAY_MS);
    }
    form.addEventListener("input", changed);
    form.addEventListener("change", changed);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
