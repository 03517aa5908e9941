/* What every tablet page shares: DOM helpers and the API client with idempotent retries.
 *
 * request() re-sends the very same command (same Idempotency-Key) after a dropped network, so the
 * server records it once; resendPending() replays a command a reload interrupted.  Loaded before
 * tablet.js and rummy.js, which use it as window.TabletKit.
 */
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs = {}, ...kids) => {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") n.className = v;
      else if (k === "text") n.textContent = v;
      else if (k.startsWith("on")) n.addEventListener(k.slice(2), v);
      else if (v !== false && v !== null && v !== undefined) n.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids) if (kid !== null && kid !== undefined) n.append(kid);
    return n;
  };
  function csrf() {
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function newKey() {
    return (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()).slice(0, 100);
  }
  // onNet(online) is told whether the last attempt reached the server (the tablet's network badge).
  async function request(method, url, body, key, onNet) {
    const headers = { "X-CSRFToken": csrf(), Accept: "application/json" };
    let payload;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    }
    if (key) headers["Idempotency-Key"] = key;
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await fetch(url, { method, headers, body: payload, credentials: "same-origin" });
        if (onNet) onNet(true);
        const data = r.status === 204 ? null : await r.json().catch(() => ({ error: "unreadable answer" }));
        return { ok: r.ok, status: r.status, data };
      } catch (e) {
        // Network down: wait and send the very same command again (same Idempotency-Key).
        if (onNet) onNet(false);
        await new Promise((res) => setTimeout(res, Math.min(500 * 2 ** attempt, 5000)));
      }
    }
  }
  async function resendPending(pendingKey, showError, onNet) {
    const raw = localStorage.getItem(pendingKey);
    if (!raw) return;
    const { url, body, key } = JSON.parse(raw);
    const r = await request("POST", url, body, key, onNet);
    localStorage.removeItem(pendingKey);
    if (!r.ok && r.status !== 409) showError(r.data);
  }
  // An API refusal ({"error", "field"?, "rule"?}, or a validation answer keyed by field) as the sentence the
  // dealer reads: the rule id and the field path stay out of the text (support finds them in showError's
  // data attributes and title), and never raw JSON.
  // fields: the page's words for its field paths ({card_number: "Card number"}): a generic message
  // ("Ensure this field has ...") then says which field.
  function errorText(data, fields = {}) {
    if (!data) return "";
    if (typeof data !== "object") return String(data);
    let text = data.error || data.detail || "";
    if (!text) {
      const v = Object.values(data)[0];
      text = Array.isArray(v) ? v.join(" ") : v && typeof v === "object" ? errorText(v) : String(v || "refused");
    }
    text = String(text).replace(/\s*\[[a-z0-9_.-]+\.[a-z0-9_.-]+\]\s*$/i, "");
    const where = data.field && fields[String(data.field).split(/[.[]/)[0]];
    text = (where ? `${where}: ` : "") + (where ? text : text.charAt(0).toUpperCase() + text.slice(1));
    return text.replace(/([^.!?])$/, "$1.");
  }
  // Shows a refusal in the box (hidden when data is null), the field and the rule kept for support.
  function showErrorIn(box, data, fields) {
    box.hidden = !data;
    box.textContent = data ? errorText(data, fields) : "";
    box.dataset.field = (data && data.field) || "";
    box.dataset.rule = (data && data.rule) || "";
    box.title = data ? [data.field, data.rule].filter(Boolean).join(" · ") : "";
  }
  window.TabletKit = { $, el, csrf, newKey, request, resendPending, errorText, showErrorIn };
})();
