// The dashboard page: the state from /api/state, then every update from /events (SSE). The
// table is drawn by the server (SVG); a tap on a zone asks /api/zones/ZONE what the rules allow
// there. Every refusal is shown where it was asked for, worded from its code.
"use strict";
const { t, word, api, post, escapeHtml, playerName, playerColor } = azul;
let state = null;
let alternatives = [];
let suggestionsFor = "";  // the position the suggestions shown are for
let waitingOn = null;     // a correction the watch thread had not made when answered (202): its note
const $ = (id) => document.getElementById(id);

function note(id, problem, ok = false) {
  const el = $(id);
  el.textContent = problem ? (typeof problem === "string" ? problem : word(problem)) : "";
  el.classList.toggle("ok", ok);
}

function render() {
  if (!state) return;
  $("game-name").textContent = t(`game.${state.game}`);
  $("round").textContent = t("dash.round", { n: state.round });
  const turn = $("turn");
  turn.hidden = state.over;
  turn.textContent = state.to_move >= 0 ? t("dash.to_move", { player: playerName(state, state.to_move) }) : t("dash.chance_due");
  renderBanner();
  $("table-view").innerHTML = state.table_svg;
  for (const el of $("table-view").querySelectorAll(".zone[data-zone]")) {
    el.addEventListener("click", () => openZone(el.dataset.zone));
  }
  for (const old of $("boards").querySelectorAll("figure.board-card")) old.remove();
  $("boards").insertAdjacentHTML("beforeend", state.boards_svg.map((svg, p) => {
    const classes = ["board-card", p === state.to_move && !state.over ? "to-move" : "", state.winners.includes(p) ? "winner" : ""];
    const tag = p === state.to_move && !state.over ? `<span class="tag">${escapeHtml(t("dash.their_turn"))}</span>` : "";
    return `<figure class="${classes.join(" ")}" data-player="${p}"><figcaption><span class="swatch" style="background:${
      playerColor(p)}"></span><span class="name">${escapeHtml(playerName(state, p))}</span>${tag}<span class="score">${
      state.scores[p]}</span></figcaption>${svg}</figure>`;
  }).join(""));
  for (const el of $("boards").querySelectorAll("figure .zone[data-zone]")) {
    const p = el.closest("figure").dataset.player;
    el.addEventListener("click", () => openZone(`boards.${p}.${el.dataset.zone}`));
  }
  renderScores();
  const last = state.log.filter((e) => e.kind !== "undo").at(-1);
  $("last-move").textContent = last ? last.text[azul.lang] : "";
  $("log").innerHTML = state.log.map((e) =>
    `<li value="${e.n}" class="${e.kind}">${escapeHtml(e.text[azul.lang] ?? e.kind)}</li>`).join("");
  $("log").scrollTop = $("log").scrollHeight;
  $("alerts").innerHTML = state.alerts.length
    ? state.alerts.map((a) => `<li>${escapeHtml(word(a))}</li>`).join("") : `<li class="none">${escapeHtml(t("dash.no_alerts"))}</li>`;
  $("unsure").innerHTML = state.unsure.length
    ? state.unsure.map((z) => `<li><button type="button" data-zone="${escapeHtml(z)}">${escapeHtml(
      (state.places[z] || {})[azul.lang] || z)}</button></li>`).join("")
    : `<li class="none">${escapeHtml(t("dash.nothing_to_confirm"))}</li>`;
  for (const el of $("unsure").querySelectorAll("button[data-zone]")) el.addEventListener("click", () => openZone(el.dataset.zone));
  if (state.position !== suggestionsFor) { $("suggested").innerHTML = ""; note("suggest-note", null); }
  $("suggest").disabled = $("suggest").classList.contains("busy") || state.to_move < 0;
}

function renderBanner() {
  const banner = $("banner");
  banner.hidden = !state.over;
  if (!state.over) return;
  const names = state.winners.map((p) => playerName(state, p));
  const best = Math.max(...state.scores);
  banner.textContent = names.length === 1 ? t("dash.winner", { player: names[0], n: best })
    : t("dash.winners", { players: names.join(" · "), n: best });
}

function renderScores() {
  const parts = Object.keys(state.breakdown[0] || {});
  const head = `<thead><tr><th></th>${state.scores.map((_, p) =>
    `<th><span style="color:${playerColor(p)}">●</span> ${escapeHtml(playerName(state, p))}</th>`).join("")}</tr></thead>`;
  const rows = parts.map((part) => `<tr><td>${escapeHtml(t(`breakdown.${state.game}.${part}`))}</td>${
    state.breakdown.map((b) => `<td>${b[part]}</td>`).join("")}</tr>`).join("");
  const total = `<tr class="total"><th>${escapeHtml(t("breakdown.total"))}</th>${
    state.scores.map((s) => `<th class="score">${s}</th>`).join("")}</tr>`;
  $("scores").innerHTML = head + `<tbody>${rows}${total}</tbody>`;
}

// -- a zone tapped: what the rules allow there, in words ------------------------------------------
let asked = null;  // the zone asked about, its choices, and what is chosen

async function openZone(zone) {
  let data;
  try {
    data = await api(`/api/zones/${encodeURIComponent(zone)}`);
  } catch (problem) {
    note("controls-note", problem);
    return;
  }
  asked = { ...data, chosen: data.loose ? countsOf(data.now) : data.now };
  $("zone-place").textContent = data.place[azul.lang];
  $("zone-now").textContent = t("dash.zone_now", { content: contentWords(data, data.now) });
  note("zone-note", null);
  drawChoices();
  const dialog = $("zone-dialog");
  if (!dialog.open) dialog.showModal();
}

function countsOf(list) {
  const counts = {};
  for (const kind of list || []) counts[kind] = (counts[kind] || 0) + 1;
  return counts;
}
function contentWords(data, content) {
  const words = (kind) => (data.choices.find((c) => c.content === kind) || { text: {} }).text[azul.lang] || kind;
  if (!data.loose) return content === null ? t("dash.empty") : words(content);
  const counts = Object.entries(countsOf(content));
  return counts.length ? counts.map(([k, n]) => `${n} × ${words(k)}`).join(", ") : t("none");
}

function drawChoices() {
  const box = $("zone-choices");
  if (!asked.loose) {
    box.className = "choices";
    box.innerHTML = asked.choices.map((c, k) => `<button type="button" data-k="${k}" aria-pressed="${
      c.content === asked.chosen}">${escapeHtml(c.text[azul.lang])}</button>`).join("");
    for (const b of box.querySelectorAll("button")) {
      b.addEventListener("click", () => { asked.chosen = asked.choices[Number(b.dataset.k)].content; drawChoices(); });
    }
    return;
  }
  box.className = "counts";
  box.innerHTML = asked.choices.map((c, k) => `<span>${escapeHtml(c.text[azul.lang])}</span>
    <button type="button" data-k="${k}" data-step="-1" aria-label="−">−</button><output>${asked.chosen[c.content] || 0}</output>
    <button type="button" data-k="${k}" data-step="1" aria-label="+">+</button>`).join("");
  for (const b of box.querySelectorAll("button")) {
    b.addEventListener("click", () => {
      const kind = asked.choices[Number(b.dataset.k)].content;
      const total = Object.values(asked.chosen).reduce((a, n) => a + n, 0);
      const next = (asked.chosen[kind] || 0) + Number(b.dataset.step);
      if (next < 0 || (Number(b.dataset.step) > 0 && total >= asked.most)) return;
      asked.chosen[kind] = next;
      drawChoices();
    });
  }
}

$("zone-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const content = asked.loose ? Object.entries(asked.chosen).flatMap(([k, n]) => Array(n).fill(k)) : asked.chosen;
  if (await correct({ overrule: { zone: asked.zone, content } }, "zone-note")) $("zone-dialog").close();
});
$("zone-cancel").addEventListener("click", () => $("zone-dialog").close());

// -- corrections ------------------------------------------------------------------------------------
// Made before the next frame; a refusal is shown in place (``where``), on this page only.
async function correct(body, where = "controls-note") {
  note(where, null);
  try {
    const outcome = await post("/api/corrections", body);
    if (!outcome.done) waitingOn = where;
    return true;
  } catch (problem) {
    note(where, problem);
    return false;
  }
}

$("undo").addEventListener("click", () => correct({ undo: true }));
$("new-game").addEventListener("click", () => { $("new-game-ask").hidden = true; $("new-game-confirm").hidden = false; });
$("new-game-no").addEventListener("click", () => { $("new-game-ask").hidden = false; $("new-game-confirm").hidden = true; });
$("new-game-yes").addEventListener("click", async () => {
  $("new-game-ask").hidden = false; $("new-game-confirm").hidden = true;
  await correct({ new: true });
});
$("replace").addEventListener("submit", (event) => {
  event.preventDefault();
  const chosen = alternatives[Number($("replace-move").value)];
  if (chosen && !chosen.last) correct({ replace: chosen.event });
});

async function loadAlternatives() {
  alternatives = await api("/api/alternatives").catch(() => []);
  $("replace").hidden = !alternatives.length;
  $("replace-move").innerHTML = alternatives.map((a, k) =>
    `<option value="${k}"${a.last ? " selected" : ""}>${escapeHtml(a.text[azul.lang])}</option>`).join("");
}

// -- suggestions: searched when asked, dropped once the game moves on -----------------------------------
$("suggest").addEventListener("click", async () => {
  const button = $("suggest");
  button.disabled = true; button.classList.add("busy");
  note("suggest-note", null);
  try {
    const data = await api("/api/suggestions?time=1&top=3");
    suggestionsFor = data.position;
    if (state && data.position === state.position) {
      $("suggested").innerHTML = data.moves.map((s) => `<li>${escapeHtml(s.text[azul.lang])} <span class="why">${
        escapeHtml(s.reason[azul.lang])} · ${escapeHtml(t("dash.win", { n: Math.round(100 * s.win) }))}</span></li>`).join("");
    }
  } catch (problem) {
    note("suggest-note", problem);
  } finally {
    button.classList.remove("busy");
    button.disabled = !state || state.to_move < 0;
  }
});

async function loadGames() {
  const games = await api("/api/games?limit=20").catch(() => []);
  $("games").innerHTML = games.map((g) => `<li><a href="/games/${g.id}">#${g.id} ${escapeHtml(t(`game.${g.game}`))}</a>
    <span>${g.scores.join(" – ") || "–"}</span><a href="/api/games/${g.id}">${escapeHtml(t("dash.export"))}</a></li>`).join("");
}

$("lang").addEventListener("change", async (event) => {
  localStorage.setItem("azulcam.lang", event.target.value);
  await azul.loadStrings(event.target.value);
  $("lang").value = azul.lang;
  render(); loadGames(); loadAlternatives();
});

function listen() {
  const source = new EventSource("/events");
  const connection = $("connection");
  source.addEventListener("open", () => { connection.textContent = t("dash.live"); });
  source.addEventListener("error", () => { connection.textContent = t("dash.offline"); });
  source.addEventListener("state", (event) => { state = JSON.parse(event.data); render(); });
  source.addEventListener("update", (event) => {
    const message = JSON.parse(event.data);
    state = message.state; render();
    window.azulcamLastUpdate = { at: performance.now(), event: message.event };
    if (message.event.kind === "refused" && waitingOn) { note(waitingOn, message.event); waitingOn = null; }
    if (["move", "chance", "position", "start", "undo"].includes(message.event.kind)) {
      waitingOn = null; loadGames(); loadAlternatives();
    }
  });
}

(async () => {
  await azul.loadStrings(azul.params.get("lang") || localStorage.getItem("azulcam.lang") || "");
  $("lang").value = azul.lang;
  state = await api("/api/state");
  render(); loadGames(); loadAlternatives(); listen();
  // The camera view never ends loading (MJPEG): asked for once the page has loaded, and only when opened.
  document.querySelector("details.camera").addEventListener("toggle", (event) => {
    $("camera").src = event.target.open ? "/stream.mjpg" : "";
  });
})();
