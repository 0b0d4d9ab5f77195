// The streaming overlay (an OBS browser source, 1920 x 1080, transparent). /overlay shows the
// score bar, the last move, the round and the game-over banner; ?boards=1 adds mini boards,
// ?suggest=1 the suggestions; /overlay/NAME shows that widget alone, nothing else drawn.
// ?names=Ann,Bob names the players where the game does not.
"use strict";
const { t, api, escapeHtml, playerName, playerColor } = azul;
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
  fill("last-move", last ? escapeHtml(last.text[azul.lang]) : "");
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
}

let suggestedAt = "";
async function suggestFor(state) {
  // Once a position, and only where asked for: the search takes a core for a second.
  if (state.position === suggestedAt) return;
  suggestedAt = state.position;
  if (state.to_move < 0 || state.over) { fill("suggestions", ""); return; }
  try {
    const data = await api("/api/suggestions?time=1&top=3");
    if (data.position !== suggestedAt) return;
    fill("suggestions", data.moves.map((s) => `<div>${escapeHtml(s.text[azul.lang])} · ${
      escapeHtml(t("dash.win", { n: Math.round(100 * s.win) }))}</div>`).join(""));
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
