// The table's push channel (docs/push.md): server-sent events say that the table, its round or its game
// changed (another device dealt, a pit boss approved, rejected or handed the table over); the tablet then
// reads them again at once.  The stream is followed by whoever may follow it — the dealer holding the
// table, pit bosses — so tablet.js calls follow() as the table's holder changes.  Polling stays as the
// fallback: every 3 s without the stream, every 15 s with it.  Under a WSGI server the stream is refused
// and the tablet simply polls.
(function () {
  "use strict";
  var app = document.getElementById("app");
  var source = null;
  var pending = null;
  var push = { live: false, follow: follow };
  window.TabletPush = push;

  function reread() {
    if (pending) { return; }
    pending = setTimeout(function () {
      pending = null;
      if (window.TabletRummy) { window.TabletRummy.load(); } else if (window.TabletPage) { window.TabletPage.refresh(); }
    }, 150); // a burst of events (a card and its hit) is one read
  }

  function follow(allowed) {
    if (!app || !app.dataset.events || !window.EventSource) { return; }
    if (!allowed) {
      if (source) { source.close(); source = null; push.live = false; }
      return;
    }
    if (source) { return; }
    source = new EventSource(app.dataset.events);
    source.addEventListener("stream-open", function () { push.live = true; reread(); });
    source.addEventListener("floor", reread);
    source.addEventListener("stream-error", function () { push.live = false; if (source) { source.close(); } });
    source.onerror = function () { push.live = false; }; // EventSource reconnects by itself; polling meanwhile
  }
})();
