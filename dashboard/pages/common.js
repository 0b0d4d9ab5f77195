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
  // JSON from the API; a refusal is thrown as its detail (a code with parameters), with the
  // server's words of it in the page's language, which it was asked in: a parameter that is
  // itself a message (the engine's reason for refusing a correction) is worded there.
  async function api(path, options = {}) {
    const headers = { ...(lang ? { "Accept-Language": lang } : {}), ...(options.headers || {}) };
    const reply = await fetch(path, { credentials: "same-origin", ...options, headers });
    const data = await reply.json().catch(() => ({}));
    if (!reply.ok) {
      if (!(data.detail && data.detail.code)) throw { code: "http.error", params: { status: reply.status } };
      throw lang && data.detail.message ? { ...data.detail, text: { [lang]: data.detail.message } } : data.detail;
    }
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
  // A count in words: the catalogue's KEY.one or KEY.other, as this language says n of a thing.
  function count(key, n) {
    const form = new Intl.PluralRules(lang || "en").select(n) === "one" ? "one" : "other";
    return t(`${key}.${form}`, { n });
  }
  // A line the server cut where a player is named (``parts``), worded with this page's names;
  // a line without parts, as it is (``text``).
  function say(line, state) {
    const parts = line.parts && line.parts[lang];
    if (!parts) return (line.text || {})[lang] || "";
    return parts.map((part) => (typeof part === "string" ? part : playerName(state, part.player))).join("");
  }
  // What lies in a zone, in words: one slot's tile ("a blue tile"), or loose tiles counted
  // ("2 blue tiles and the first-player marker"); ``nothing``: the words for none there.
  function holds(kinds, game, nothing = t("dash.empty")) {
    const one = (kind) => t(kind === "first_player" ? `tile.first_player.${game}` : `tile.${kind}`);
    if (!kinds.length) return nothing;
    if (kinds.length === 1) return one(kinds[0]);
    const counted = {};
    for (const kind of kinds) counted[kind] = (counted[kind] || 0) + 1;
    const parts = Object.entries(counted).map(([kind, n]) => (kind === "first_player" || !strings[`tiles.${kind}.one`]
      ? one(kind) : count(`tiles.${kind}`, n)));
    return parts.length === 1 ? parts[0] : t("list.and", { head: parts.slice(0, -1).join(t("list.comma")), last: parts.at(-1) });
  }
  // Each zone of a drawing (``root``) given its tooltip: its place (``places``, by zone; a board's
  // zones are named less their ``boards.P.``: ``prefix``) and what lies there.
  function titleZones(root, game, places, prefix = "") {
    for (const el of root.querySelectorAll(".zone[data-zone]")) {
      const zone = prefix + el.dataset.zone;
      const kinds = (el.dataset.holds || "").split(",").filter(Boolean);
      const loose = zone === "center" || zone.startsWith("factories.") || zone.endsWith(".hand");  // as follow.corrections.is_loose
      let title = el.querySelector("title");
      if (!title) { title = document.createElementNS("http://www.w3.org/2000/svg", "title"); el.appendChild(title); }
      title.textContent = `${places[zone] || zone}: ${holds(kinds, game, loose ? t("none") : t("dash.empty"))}`;
    }
  }
  return { params, t, word, count, say, holds, titleZones, loadStrings, api, post, escapeHtml, playerName, playerColor,
           get lang() { return lang; } };
})();
