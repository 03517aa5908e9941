/* The reports page: an auditor runs the audit of a chosen gaming day and watches its progress
   (POST reports/run/, then poll reports/run/<day>/ every second until the report is written). */
(function () {
  "use strict";
  var INTERVAL_MS = 1000;
  var section = document.getElementById("report-run");
  if (!section) { return; }
  var form = section.querySelector("form");
  var status = section.querySelector(".report-run-status");
  var bar = status.querySelector("progress");
  var text = status.querySelector(".report-run-text");
  var files = status.querySelector(".report-run-files");
  var button = form.querySelector("button");

  function show(data) {
    var pct = Math.round((data.progress || 0) * 100);
    bar.value = pct;
    bar.textContent = pct + "%";
    section.setAttribute("data-status", data.status || "");
    // The day's row in the list below, drawn before this run: its status follows the run (a re-run
    // of a day already reported must not read "done" while it runs).
    var row = data.day && document.querySelector('tr[data-day="' + data.day + '"] .report-status');
    if (row && data.status && data.status !== "none") { row.textContent = data.status; }
    text.textContent = data.error ? data.error : ((data.day_words || data.day) + ": " + data.stage + " (" + pct + "%)");
    files.textContent = "";
    if (data.files) {
      ["html", "pdf", "csv"].forEach(function (kind) {
        var a = document.createElement("a");
        a.href = data.files[kind];
        a.textContent = kind.toUpperCase();
        a.className = "report-file report-file-" + kind;
        files.appendChild(document.createTextNode(" "));
        files.appendChild(a);
      });
    }
  }

  function poll(url) {
    fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (data) {
        show(data);
        if (data.status === "running") { window.setTimeout(function () { poll(url); }, INTERVAL_MS); }
        else {
          button.disabled = false;
          var empty = document.getElementById("reports-empty");  // the list below was drawn before this report
          if (empty && data.status === "done") { empty.firstElementChild.textContent = "The report of " + (data.day_words || data.day) + " is ready: its files are linked above."; }
        }
      })
      .catch(function () { window.setTimeout(function () { poll(url); }, INTERVAL_MS * 3); });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var day = form.querySelector("input[name=day]").value;  // in words ("Wed 25 Nov 2026"): the server reads it
    button.disabled = true;
    status.hidden = false;
    show({day: day, stage: "asking", progress: 0, status: "running"});
    fetch(form.action, {method: "POST", credentials: "same-origin", body: new FormData(form),
                        headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json().then(function (data) { return {ok: r.ok, code: r.status, data: data}; }); })
      .then(function (res) {
        if (!res.ok && res.code !== 409) { show({day: day, error: res.data.error, progress: 0}); button.disabled = false; return; }
        if (res.code === 409) { show(res.data); }
        poll(res.data.progress_url);
      })
      .catch(function () { show({day: day, error: "the server did not answer; try again", progress: 0}); button.disabled = false; });
  });
}());
