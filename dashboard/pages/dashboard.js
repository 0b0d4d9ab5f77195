// The dashboard page: the state from /api/state, then every update from /events (SSE).
// Every word comes from the catalogue the command line uses (/api/strings); corrections go to
// /api/corrections, with the page's ?token= where the dashboard has one.
"use strict";
const params = new URLSearchParams(location.search);
const token = params.get("token");
let strings = {}, lang = params.get("lang") || localStorage.getItem("azulcam.lang") || "";
let state = null;

function t(key, values = {}) {
  const template = strings[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in values ? values[name] : `{${name}}`));
}
function player(p) { return t("player", { n: p + 1 }); }

async function loadStrings() {
  const reply = await fetch(`/api/strings${lang ? `?lang=${lang}` : ""}`);
  const data = await reply.json();
  strings = data.strings; lang = data.lang;
  document.documentElement.lang = lang;
  document.getElementById("lang").value = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}

function render() {
  if (!state) return;
  document.getElementById("round").textContent = t("dash.round", { n: state.round });
  document.getElementById("turn").textContent = state.over ? t("dash.over")
    : state.to_move >= 0 ? t("dash.to_move", { player: player(state.to_move) }) : t("dash.chance_due");
  const scores = document.getElementById("scores");
  const parts = Object.keys(state.breakdown[0] || {});
  const head = `<tr><th></th>${state.scores.map((_, p) => `<th>${player(p)}</th>`).join("")}</tr>`;
  const rows = parts.map((part) => `<tr><td>${t(`breakdown.${state.game}.${part}`)}</td>${
    state.breakdown.map((b) => `<td>${b[part]}</td>`).join("")}</tr>`).join("");
  const total = `<tr class="total"><th>${t("breakdown.total")}</th>${state.scores.map((s) => `<th class="score">${s}</th>`).join("")}</tr>`;
  scores.innerHTML = head + rows + total;
  const boards = document.getElementById("boards");
  boards.innerHTML = state.boards_svg.map((svg, p) =>
    `<figure data-player="${p}" class="${p === state.to_move ? "to-move" : ""}"><figcaption>${player(p)} · ${
      t("dash.points", { n: state.scores[p] })}</figcaption>${svg}</figure>`).join("");
  for (const rect of boards.querySelectorAll("rect[data-zone]")) {
    const p = rect.closest("figure").dataset.player;
    rect.addEventListener("click", () => askZone(`boards.${p}.${rect.dataset.zone}`));
  }
  document.getElementById("log").innerHTML = state.log.map((e) => `<li>${e.text[lang] ?? e.kind}</li>`).join("");
  document.getElementById("alerts").innerHTML = state.alerts.length
    ? state.alerts.map((a) => `<li>${escapeHtml((a.text && a.text[lang]) || a.message)}</li>`).join("") : `<li class="none">${t("dash.no_alerts")}</li>`;
  const unsure = document.getElementById("unsure");
  unsure.innerHTML = state.unsure.length ? state.unsure.map((z) => `<li data-zone="${z}">${z}</li>`).join("")
    : `<li class="none">${t("dash.nothing_to_confirm")}</li>`;
  for (const li of unsure.querySelectorAll("li[data-zone]")) li.addEventListener("click", () => askZone(li.dataset.zone));
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

const TILES = { azul: ["blue", "yellow", "red", "black", "white", "joker", "first_player"],
  pavilion: ["purple", "green", "orange", "yellow", "blue", "red", "first_player"] };

function askZone(zone) {
  const form = document.getElementById("set-zone");
  form.hidden = false;
  form.dataset.zone = zone;
  document.getElementById("set-zone-label").textContent = t("dash.set_zone", { zone });
  const select = document.getElementById("set-zone-content");
  select.innerHTML = `<option value="">${t("dash.empty")}</option>` +
    TILES[state.game].map((c) => `<option value="${c}">${t(`tile.${c}`) ?? c}</option>`).join("");
}

async function correct(body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const reply = await fetch("/api/corrections", { method: "POST", headers, body: JSON.stringify(body) });
  if (!reply.ok) {
    const detail = await reply.json().catch(() => ({}));
    alert(t("dash.refused", { message: JSON.stringify(detail.detail ?? reply.status) }));
  }
}

document.getElementById("set-zone").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target, value = document.getElementById("set-zone-content").value;
  const loose = /\.(hand)$|^factories\.|^center$/.test(form.dataset.zone);
  correct({ overrule: { zone: form.dataset.zone, content: loose ? (value ? [value] : []) : (value || null) } });
  form.hidden = true;
});
document.getElementById("undo").addEventListener("click", () => correct({ undo: true }));
document.getElementById("suggest").addEventListener("click", async () => {
  const data = await (await fetch("/api/suggestions?time=1")).json();
  document.getElementById("suggested").innerHTML = data.moves.map((s) =>
    `<li>${escapeHtml(s.text[lang])} · ${escapeHtml(s.reason[lang])} · ${t("dash.win", { n: Math.round(100 * s.win) })}</li>`).join("");
});
let alternatives = [];
async function loadAlternatives() {
  alternatives = await (await fetch("/api/alternatives")).json();
  document.getElementById("replace").hidden = !alternatives.length;
  document.getElementById("replace-move").innerHTML = alternatives.map((a, k) =>
    `<option value="${k}"${a.last ? " selected" : ""}>${escapeHtml(a.text[lang])}</option>`).join("");
}
document.getElementById("replace").addEventListener("submit", (event) => {
  event.preventDefault();
  const chosen = alternatives[Number(document.getElementById("replace-move").value)];
  if (chosen && !chosen.last) correct({ replace: chosen.event });
});
document.getElementById("new-game").addEventListener("click", () => correct({ new: true }));
document.getElementById("lang").addEventListener("change", async (event) => {
  lang = event.target.value; localStorage.setItem("azulcam.lang", lang);
  await loadStrings(); render(); loadGames(); loadAlternatives();
});

async function loadGames() {
  const games = await (await fetch("/api/games")).json();
  document.getElementById("games").innerHTML = games.map((g) =>
    `<li><a href="/games/${g.id}">#${g.id} ${t(`game.${g.game}`)}</a> · ${g.scores.join(" – ") || "–"} · <a href="/api/games/${g.id}">${t("dash.export")}</a></li>`).join("");
}

function listen() {
  const source = new EventSource("/events");
  const connection = document.getElementById("connection");
  source.addEventListener("open", () => { connection.textContent = t("dash.live"); });
  source.addEventListener("error", () => { connection.textContent = t("dash.offline"); });
  source.addEventListener("state", (event) => { state = JSON.parse(event.data); render(); });
  source.addEventListener("update", (event) => {
    const message = JSON.parse(event.data);
    state = message.state; render();
    window.azulcamLastUpdate = { at: performance.now(), event: message.event };
    if (message.event.kind === "refused") alert((message.event.text && message.event.text[lang]) || message.event.message);
    if (["move", "chance", "position", "start", "undo"].includes(message.event.kind)) { loadGames(); loadAlternatives(); }
  });
}

// The camera view never ends loading (MJPEG): started once the page has loaded.
window.addEventListener("load", () => { document.getElementById("camera").src = "/stream.mjpg"; });
(async () => { await loadStrings(); state = await (await fetch("/api/state")).json(); render(); loadGames(); loadAlternatives(); listen(); })();
