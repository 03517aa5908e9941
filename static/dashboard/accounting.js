// Accounting page: the pit's, the cage's and the count team's forms call the accounting API
// (session + CSRF, an Idempotency-Key per submission) and reload the page when it answers.
(function () {
  "use strict";

  function csrf() {
    var m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    if (m) { return decodeURIComponent(m[1]); }
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function key() {
    return "acct-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

  // Form fields → JSON body: "chips.25" fields make {"chips": {"25": n}} (empty counts left out),
  // fields marked data-int are whole numbers, empty optional fields are left out.
  function body(form) {
    var out = {};
    Array.prototype.forEach.call(form.elements, function (f) {
      if (!f.name || f.name === "csrfmiddlewaretoken" || f.dataset.path !== undefined) { return; }
      var v = f.value.trim();
      if (v === "") { return; }
      var dot = f.name.indexOf(".");  // "chips.0.50": the group, then the denomination (which has a dot)
      if (dot > 0) {
        var group = f.name.slice(0, dot);
        out[group] = out[group] || {};
        out[group][f.name.slice(dot + 1)] = parseInt(v, 10);
      } else {
        out[f.name] = f.dataset.int !== undefined ? parseInt(v, 10) : v;
      }
    });
    if (form.dataset.needsChips !== undefined && !out.chips) { out.chips = {}; }
    return out;
  }

  function url(form) {
    var u = form.dataset.api;
    Array.prototype.forEach.call(form.querySelectorAll("[data-path]"), function (f) {
      u = u.replace("{" + f.dataset.path + "}", encodeURIComponent(f.value));
    });
    return u;
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.dataset.api) { return; }
    ev.preventDefault();
    var status = form.querySelector(".status");
    var button = ev.submitter;
    var payload = body(form);
    if (button && button.name) { payload[button.name] = button.value; }
    status.textContent = "sending…";
    fetch(url(form), {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf(), "Idempotency-Key": key()},
      body: JSON.stringify(payload)
    }).then(function (r) { return r.json().then(function (b) { return [r.status, b]; }); })
      .then(function (res) {
        if (res[0] < 300) { window.location.reload(); return; }
        status.textContent = (res[1].field ? res[1].field + ": " : "") + (res[1].error || "refused");
        status.className = "status flag";
      })
      .catch(function () { status.textContent = "no answer: try again"; status.className = "status flag"; });
  });
})();
