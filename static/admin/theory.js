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
