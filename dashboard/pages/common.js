// What every page shares: the catalogue's words (/api/strings), the API's refusals worded as
// codes with parameters, players' names and colours. Loaded before each page's own script.
"use strict";
const azul = (() => {
  const params = new URLSearchParams(location.search);
  let strings = {};
  let lang = "";
  // Each player's colour, on the boards' captions and the overlay.
  const PLAYER_COLORS = ["#e4572e", "#2e86de", "#f2b134", "#5cb85c"];

  function t(key, values = {}) {
    const template = strings[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (_, name) => (name in values ? values[name] : `{${name}}`));
  }
  // A message that travels as a code with its parameters (a refusal, an alert, a warning).
  function word(problem) {
    if (!problem) return "";
    if (problem.text && problem.text[lang]) return problem.text[lang];
    const values = { ...(problem.params || {}) };
    if (problem.code === "follow.refused" && values.reason) values.reason = t(values.reason, values.params || {});
    return t(problem.code, values);
  }
  async function loadStrings(wanted) {
    const reply = await fetch(`/api/strings${wanted ? `?lang=${encodeURIComponent(wanted)}` : ""}`);
    const data = await reply.json();
    strings = data.strings; lang = data.lang;
    document.documentElement.lang = lang;
    for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
    for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
    return lang;
  }
  // JSON from the API; a refusal is thrown as its detail (a code with parameters).
  async function api(path, options = {}) {
    const reply = await fetch(path, { credentials: "same-origin", ...options });
    const data = await reply.json().catch(() => ({}));
    if (!reply.ok) throw (data.detail && data.detail.code ? data.detail : { code: "http.error", params: { status: reply.status } });
    return data;
  }
  function post(path, body) {
    return api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  }
  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }
  function playerName(state, p) {
    const names = (params.get("names") || "").split(",").map((s) => s.trim());
    const name = names[p] || (state.names && state.names[p]) || "";
    return name ? name : t("player", { n: p + 1 });
  }
  function playerColor(p) { return PLAYER_COLORS[p % PLAYER_COLORS.length]; }
  return { params, t, word, loadStrings, api, post, escapeHtml, playerName, playerColor, get lang() { return lang; } };
})();
