// The dashboard page: the state from /api/state, then every update from /events (SSE). The
// table is drawn by the server (SVG); a tap on a zone asks /api/zones/ZONE what the rules allow
// there. Every refusal is shown where it was asked for, worded from its code.
"use strict";
const { t, word, say, holds, titleZones, api, post, escapeHtml, playerName, playerColor } = azul;
let state = null;
let alternatives = [];
let suggestionsFor = "";  // the position the suggestions shown are for
let waitingOn = null;     // a correction the watch thread had not made when answered (202): its note
let places = {};          // every zone of the game in words (the tooltips), for ``placesFor``
let placesFor = "";
const drawn = new Map();  // what each card shows now ("table", or a player's board), as drawn
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
  // A card is drawn again only where what it shows changed: the others stay as they are (no
  // flicker, a tooltip or a tap in progress kept).
  if (drawn.get("table") !== state.table_svg) {
    drawn.set("table", state.table_svg);
    $("table-view").innerHTML = state.table_svg;
    for (const el of $("table-view").querySelectorAll(".zone[data-zone]")) {
      el.addEventListener("click", () => openZone(el.dataset.zone));
    }
  }
  const figures = [...$("boards").querySelectorAll("figure.board-card")];
  if (figures.length !== state.boards_svg.length) {
    for (const old of figures) old.remove();
    figures.length = 0;
  }
  state.boards_svg.forEach((svg, p) => {
    const classes = ["board-card", p === state.to_move && !state.over ? "to-move" : "", state.winners.includes(p) ? "winner" : ""];
    const tag = p === state.to_move && !state.over ? `<span class="tag">${escapeHtml(t("dash.their_turn"))}</span>` : "";
    const html = `<figure class="${classes.join(" ")}" data-player="${p}"><figcaption><span class="swatch" style="background:${
      playerColor(p)}"></span><span class="name">${escapeHtml(playerName(state, p))}</span>${tag}<span class="score">${
      state.scores[p]}</span></figcaption>${svg}</figure>`;
    if (figures[p] && drawn.get(p) === html) return;
    drawn.set(p, html);
    const holder = document.createElement("div");
    holder.innerHTML = html;
    const figure = holder.firstElementChild;
    if (figures[p]) figures[p].replaceWith(figure); else $("boards").appendChild(figure);
    for (const el of figure.querySelectorAll(".zone[data-zone]")) el.addEventListener("click", () => openZone(`boards.${p}.${el.dataset.zone}`));
  });
  titleAll();
  loadPlaces();
  fitTable();
  renderScores();
  const last = state.log.filter((e) => e.kind !== "undo").at(-1);
  $("last-move").textContent = last ? say(last, state) : "";
  $("log").innerHTML = state.log.map((e) =>
    `<li value="${e.n}" class="${e.kind}">${escapeHtml(say(e, state) || e.kind)}</li>`).join("");
  $("log").scrollTop = $("log").scrollHeight;
  $("alerts").innerHTML = state.alerts.length
    ? state.alerts.map((a) => `<li>${escapeHtml(word(a))}</li>`).join("") : `<li class="none">${escapeHtml(t("dash.no_alerts"))}</li>`;
  const toConfirm = state.to_confirm || state.unsure;
  $("unsure").innerHTML = toConfirm.length
    ? toConfirm.map((z) => `<li><button type="button" data-zone="${escapeHtml(z)}">${escapeHtml(
      (state.places[z] || {})[azul.lang] || z)}</button></li>`).join("")
    : `<li class="none">${escapeHtml(t("dash.nothing_to_confirm"))}</li>`;
  for (const el of $("unsure").querySelectorAll("button[data-zone]")) el.addEventListener("click", () => openZone(el.dataset.zone));
  if (state.position !== suggestionsFor) { $("suggested").innerHTML = ""; note("suggest-note", null); }
  $("suggest").disabled = $("suggest").classList.contains("busy") || state.to_move < 0;
}

// -- a landscape screen: the table fitted to it -------------------------------------------------------
// The displays' card in a column of its own on the left, the boards in a grid of equal cells
// beside it: the card's width and the boards' columns are those that cover the most of the room
// with every card on the screen (each keeps its drawing's shape; the side column scrolls).
const landscape = window.matchMedia("(orientation: landscape) and (min-width: 640px)");

function chromeOf(card) {
  // A card's drawing's shape (width over height), and what the card adds round it (caption, padding).
  const svg = card.querySelector("svg");
  const [, , w, h] = svg.getAttribute("viewBox").split(" ").map(Number);
  const drawn = svg.getBoundingClientRect();
  return { aspect: w / h, x: card.offsetWidth - drawn.width, y: card.offsetHeight - drawn.height };
}

function fitTable() {
  const boards = $("boards");
  const tableCard = boards.querySelector(".table-card");
  const cards = [...boards.querySelectorAll("figure.board-card")];
  boards.style.removeProperty("grid-template-columns");
  for (const el of [tableCard, ...cards]) { el.style.removeProperty("height"); el.style.removeProperty("grid-row"); }
  if (!landscape.matches || !cards.length) return;
  const play = document.querySelector(".play");
  const gap = parseFloat(getComputedStyle(boards).columnGap) || 0;
  const banner = $("banner").hidden ? 0 : $("banner").offsetHeight + gap;
  const width = boards.clientWidth, height = play.clientHeight - banner;
  const board = chromeOf(cards[0]), table = chromeOf(tableCard);
  // Every tile readable (the smaller of the two drawings' scales at least 0.7 of the largest it
  // can be), and among those the most of the room spanned.
  const [tableWide] = tableCard.querySelector("svg").getAttribute("viewBox").split(" ").slice(2).map(Number);
  const [boardWide] = cards[0].querySelector("svg").getAttribute("viewBox").split(" ").slice(2).map(Number);
  const fits = [];
  // The displays' card a column of its own (``share`` of the width), or one more cell of the grid (0).
  for (const share of [0, ...Array.from({ length: 21 }, (_, k) => 0.16 + 0.02 * k)]) {
    for (let columns = 1; columns <= cards.length + (share ? 0 : 1); columns++) {
      const rows = Math.ceil((cards.length + (share ? 0 : 1)) / columns);
      const cellH = (height - gap * (rows - 1)) / rows;
      let tableW = Math.min(share * width, (height - table.y) * table.aspect + table.x);
      const room = share ? width - tableW - gap * columns : width - gap * (columns - 1);
      const cellW = Math.min(room / columns, (cellH - board.y) * board.aspect + board.x);
      if (cellW <= 0) continue;
      const boardH = (cellW - board.x) / board.aspect + board.y;
      if (!share) tableW = Math.min(cellW, (boardH - table.y) * table.aspect + table.x);  // in a row of boards
      const tableH = share ? (tableW - table.x) / table.aspect + table.y : boardH;
      // The room the table's cards span together.
      const across = share ? tableW + columns * (cellW + gap) : Math.min(columns, cards.length + 1) * (cellW + gap) - gap;
      const down = Math.max(share ? tableH : 0, rows * (boardH + gap) - gap);
      const covered = across * down;
      const scale = Math.min((tableW - table.x) / tableWide, (cellW - board.x) / boardWide);
      fits.push({ scale, covered, share, tableW, tableH, columns, rows, cellW, boardH });
    }
  }
  if (!fits.length) return;
  const sharpest = Math.max(...fits.map((f) => f.scale));
  const best = fits.filter((f) => f.scale >= 0.7 * sharpest).reduce((a, b) => (b.covered > a.covered ? b : a));
  const cell = `${Math.floor(best.cellW)}px`;
  boards.style.gridTemplateColumns = best.share ? `${Math.floor(best.tableW)}px repeat(${best.columns}, ${cell})`
    : `repeat(${best.columns}, ${cell})`;
  if (best.share) tableCard.style.gridRow = `1 / span ${best.rows}`;
  tableCard.style.height = `${Math.floor(best.tableH)}px`;
  for (const card of cards) card.style.height = `${Math.floor(best.boardH)}px`;
}
window.addEventListener("resize", fitTable);
landscape.addEventListener("change", fitTable);

// The tooltips: each zone's place and what lies there, in the page's language.
function titleAll() {
  titleZones($("table-view"), state.game, places);
  for (const figure of $("boards").querySelectorAll("figure.board-card")) {
    titleZones(figure, state.game, places, `boards.${figure.dataset.player}.`);
  }
}
async function loadPlaces() {
  const key = `${state.game_id}:${azul.lang}`;
  if (key === placesFor) return;
  placesFor = key;
  places = await api(`/api/places?lang=${encodeURIComponent(azul.lang)}`).catch(() => ({}));
  if (state) titleAll();
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
    `<th title="${escapeHtml(playerName(state, p))}"><span style="color:${playerColor(p)}">●</span> ${
      escapeHtml(playerName(state, p))}</th>`).join("")}</tr></thead>`;
  const rows = parts.map((part) => `<tr><td>${escapeHtml(t(`breakdown.${state.game}.${part}`))}</td>${
    state.breakdown.map((b) => `<td>${b[part]}</td>`).join("")}</tr>`).join("");
  const total = `<tr class="total"><th>${escapeHtml(t("breakdown.total"))}</th>${
    state.scores.map((s) => `<th class="score">${s}</th>`).join("")}</tr>`;
  $("scores").innerHTML = head + `<tbody>${rows}${total}</tbody>`;
}

// -- a zone tapped: what the rules allow there, in words ------------------------------------------
let asked = null;  // the zone asked about, its choices, and what is chosen

// ``teaching``: the zone asked about in "Is this your table?" (teach.js): what the camera read
// there (``read``: a slot's tile or null, a loose zone's tiles) and what to do with the choice
// (``set``), in place of an overrule.
async function openZone(zone, teaching = null) {
  let data;
  try {
    data = await api(`/api/zones/${encodeURIComponent(zone)}`);
  } catch (problem) {
    note(teaching ? "teach-note" : "controls-note", problem);
    return;
  }
  const now = teaching ? teaching.read : data.now;
  asked = { ...data, now, teaching, chosen: data.loose ? countsOf(now) : now };
  $("zone-place").textContent = data.place[azul.lang];
  const shown = now === null ? [] : [].concat(now);
  const words = teaching ? ["dash.zone_read", "dash.zone_read_empty"] : ["dash.zone_now", "dash.zone_now_empty"];
  $("zone-now").textContent = shown.length ? t(words[0], { content: holds(shown, state.game) }) : t(words[1]);
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
  if (asked.teaching) { asked.teaching.set(asked.zone, content); $("zone-dialog").close(); return; }
  if (await correct({ overrule: { zone: asked.zone, content } }, "zone-note")) $("zone-dialog").close();
});
$("zone-cancel").addEventListener("click", () => $("zone-dialog").close());

// -- corrections ------------------------------------------------------------------------------------
// Made before the next frame; a refusal is shown in place (``where``), on this page only. True
// once made; "waiting" where the watch has not got to it yet (its outcome then comes on /events).
async function correct(body, where = "controls-note") {
  note(where, null);
  try {
    const outcome = await post("/api/corrections", body);
    if (!outcome.done) { waitingOn = where; return "waiting"; }
    return true;
  } catch (problem) {
    note(where, problem);
    return false;
  }
}

// An undo stays undone while the table still shows the move (the tracker holds it): said so.
let undoneNote = false;
$("undo").addEventListener("click", async () => {
  if ((await correct({ undo: true })) === true) { note("controls-note", t("dash.undone_held"), true); undoneNote = true; }
});
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
    `<option value="${k}"${a.last ? " selected" : ""}>${escapeHtml(say(a, state))}</option>`).join("");
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
      $("suggested").innerHTML = data.moves.map((s) => `<li>${escapeHtml(say(s, state))} <span class="why">${
        escapeHtml([s.reason[azul.lang], s.outlook[azul.lang]].filter(Boolean).join(" · "))} · ${
        escapeHtml(t("dash.win", { n: Math.round(100 * s.win) }))}</span></li>`).join("");
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
    if (undoneNote && ["move", "chance", "position", "start"].includes(message.event.kind)) {  // the table changed
      note("controls-note", null); undoneNote = false;
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
