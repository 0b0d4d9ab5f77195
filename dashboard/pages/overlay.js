// The streaming overlay (OBS browser source, 1920x1080, transparent): score bar, last move, round.
// /overlay shows every widget; /overlay/NAME one of them.
"use strict";
const params = new URLSearchParams(location.search);
const widget = location.pathname.split("/")[2] || "";
let strings = {}, lang = params.get("lang") || "";
function t(key, values = {}) {
  return (strings[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => (name in values ? values[name] : `{${name}}`));
}
function show(state) {
  const on = (name) => !widget || widget === name;
  document.getElementById("widget-score").innerHTML = on("score")
    ? state.scores.map((s, p) => `<span>${t("player", { n: p + 1 })}: <b>${s}</b></span>`).join("") : "";
  const last = state.log[state.log.length - 1];
  document.getElementById("widget-last-move").textContent = on("last-move") && last ? last.text[lang] : "";
  document.getElementById("widget-round").textContent = on("round") ? t("dash.round", { n: state.round }) : "";
  if (widget === "suggestions" || params.get("suggest") === "1") suggestFor(state);
}
let suggestedAt = -1;
async function suggestFor(state) {
  // Only when asked for, and once a position: the search takes a core for a second.
  if (state.events === suggestedAt || state.to_move < 0) return;
  suggestedAt = state.events;
  const data = await (await fetch("/api/suggestions?time=1&top=3")).json();
  document.getElementById("widget-suggestions").innerHTML = data.moves.map((s) =>
    `<div>${s.text[lang]} · ${s.reason[lang]} · ${t("dash.win", { n: Math.round(100 * s.win) })}</div>`).join("");
}
(async () => {
  if (widget) document.body.classList.add("one");
  const data = await (await fetch(`/api/strings${lang ? `?lang=${lang}` : ""}`)).json();
  strings = data.strings; lang = data.lang; document.documentElement.lang = lang;
  const source = new EventSource("/events");
  source.addEventListener("state", (event) => show(JSON.parse(event.data)));
  source.addEventListener("update", (event) => show(JSON.parse(event.data).state));
})();
