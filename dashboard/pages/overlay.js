// The streaming overlay (an OBS browser source, 1920 x 1080, transparent). /overlay shows the
// score bar, the last move, the round and the game-over banner; ?boards=1 adds mini boards,
// ?suggest=1 the suggestions; /overlay/NAME shows that widget alone, nothing else drawn.
// ?names=Ann,Bob names the players where the game does not.
"use strict";
const { t, api, say, escapeHtml, playerName, playerColor } = azul;
const only = location.pathname.split("/")[2] || "";
const asked = (name) => azul.params.get(name) === "1";
const WIDGETS = only ? [only]
  : ["score", "last-move", "round", "banner", ...(asked("boards") ? ["boards"] : []), ...(asked("suggest") ? ["suggestions"] : [])];
const widgets = {};
for (const name of WIDGETS) {
  const el = document.createElement("div");
  el.id = `widget-${name}`;
  el.className = `widget ${name}`;
  el.hidden = true;
  document.body.appendChild(el);
  widgets[name] = el;
}
if (only) document.body.classList.add("one");

function fill(name, html) {
  const el = widgets[name];
  if (!el) return;
  el.innerHTML = html;
  el.hidden = !html;
}

function show(state) {
  fill("score", state.scores.map((s, p) => `<span class="player${p === state.to_move && !state.over ? " to-move" : ""}" style="--color:${
    playerColor(p)}"><i></i>${escapeHtml(playerName(state, p))} <b>${s}</b></span>`).join(""));
  const last = state.log.filter((e) => e.kind !== "undo").at(-1);
  fill("last-move", last ? escapeHtml(say(last, state)) : "");
  fill("round", state.over ? escapeHtml(t("dash.over")) : escapeHtml(t("dash.round", { n: state.round })));
  if (state.over) {
    const names = state.winners.map((p) => playerName(state, p));
    const best = Math.max(...state.scores);
    fill("banner", escapeHtml(names.length === 1 ? t("dash.winner", { player: names[0], n: best })
      : t("dash.winners", { players: names.join(" · "), n: best })));
  } else {
    fill("banner", "");
  }
  fill("boards", state.boards_svg.map((svg, p) => `<figure style="--color:${playerColor(p)}"><figcaption>${
    escapeHtml(playerName(state, p))} · ${state.scores[p]}</figcaption>${svg}</figure>`).join(""));
  if (widgets.suggestions) suggestFor(state);
  place();
}

// -- where each widget goes: round the frame's edges, none over another ---------------------------
const FRAME = { width: 1920, height: 1080 }, EDGE = 40, TOP = 30, GAP = 24;
// The mini boards' column on the right: at most this wide, as many columns as make them largest.
const BOARDS_MOST_WIDTH = 760, BOARD_MOST = 360;

function box(name) {
  const el = widgets[name];
  return el && !el.hidden ? el.getBoundingClientRect() : null;
}

function place() {
  if (only) return;
  const round = box("round");
  if (widgets.score) widgets.score.style.maxWidth = `${FRAME.width - 2 * EDGE - (round ? round.width + GAP : 0)}px`;
  const score = box("score");
  const top = Math.max(TOP + (round ? round.height : 0), score ? score.bottom : 0) + GAP;
  let left = FRAME.width - EDGE;  // where the boards' column begins
  if (widgets.boards && !widgets.boards.hidden) left = placeBoards(top);
  // Below, from the bottom up on the left: the last move, then the suggestions; no wider than
  // the room the boards leave.
  const room = left - EDGE - GAP;
  let bottom = FRAME.height - EDGE;
  for (const name of ["last-move", "suggestions"]) {
    const el = widgets[name];
    if (!el || el.hidden) continue;
    el.style.maxWidth = `${Math.min(room, 1200)}px`;
    el.style.bottom = "auto";
    el.style.top = `${bottom - el.offsetHeight}px`;
    bottom -= el.offsetHeight + GAP;
  }
  const banner = widgets.banner;
  if (banner && !banner.hidden) {  // in the room left between the top row, the boards and the bottom
    banner.style.maxWidth = `${room}px`;
    const x = EDGE + (room - banner.offsetWidth) / 2;
    const y = top + Math.max(0, (bottom - top - banner.offsetHeight) / 2);
    banner.style.left = `${Math.max(EDGE, x)}px`;
    banner.style.top = `${y}px`;
  }
}

function placeBoards(top) {
  const el = widgets.boards;
  const figures = el.querySelectorAll("figure");
  const svg = el.querySelector("svg");
  if (!figures.length || !svg) return FRAME.width - EDGE;
  const [, , w, h] = svg.getAttribute("viewBox").split(" ").map(Number);
  const caption = el.querySelector("figcaption").offsetHeight + 4;
  const pad = 20, gap = 10, height = FRAME.height - EDGE - top;
  let best = { width: 0, columns: 1 };
  for (let columns = 1; columns <= figures.length; columns++) {
    const rows = Math.ceil(figures.length / columns);
    const byHeight = ((height - pad - gap * (rows - 1)) / rows - caption) * (w / h);
    const byWidth = (BOARDS_MOST_WIDTH - pad - gap * (columns - 1)) / columns;
    const width = Math.min(byHeight, byWidth, BOARD_MOST);
    if (width > best.width + 0.5) best = { width, columns };
  }
  el.style.setProperty("--columns", best.columns);
  el.style.setProperty("--board-w", `${Math.floor(best.width)}px`);
  el.style.top = `${top}px`;
  return el.getBoundingClientRect().left;
}

let suggestedAt = "";
async function suggestFor(state) {
  // Once a position, and only where asked for: the search takes a core for a second.
  if (state.position === suggestedAt) return;
  suggestedAt = state.position;
  if (state.to_move < 0 || state.over) { fill("suggestions", ""); place(); return; }
  try {
    const data = await api("/api/suggestions?time=1&top=3");
    if (data.position !== suggestedAt) return;
    fill("suggestions", data.moves.map((s) => `<div>${escapeHtml(say(s, state))} · ${
      escapeHtml(t("dash.win", { n: Math.round(100 * s.win) }))}</div>`).join(""));
    place();
  } catch (problem) {
    suggestedAt = "";  // busy: asked again at the next update
  }
}

(async () => {
  await azul.loadStrings(azul.params.get("lang") || "");
  const source = new EventSource("/events");
  source.addEventListener("state", (event) => show(JSON.parse(event.data)));
  source.addEventListener("update", (event) => show(JSON.parse(event.data).state));
})();
