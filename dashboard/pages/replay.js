// A game of the history, step by step (/api/games/ID/replay): buttons, the slider or the arrow
// keys, "event N of M", the players named as the record names them.
"use strict";
const { t, say, titleZones, api, escapeHtml, playerName, playerColor } = azul;
const id = location.pathname.split("/")[2];
let steps = [];
let record = null;   // the game's azulcam-record/1: its game and the players' names
let places = {};
const $ = (name) => document.getElementById(name);

function show(k) {
  k = Math.max(0, Math.min(steps.length - 1, k));
  $("step").value = String(k);
  const step = steps[k];
  const named = { names: Array.isArray(record.players) ? record.players : null };
  $("round").textContent = t("dash.round", { n: step.round });
  $("count").textContent = t("dash.event_of", { n: k, total: steps.length - 1 });
  $("event").textContent = step.text ? `${k}. ${say(step, named)}` : t("dash.start_of_game");
  $("scores").innerHTML = `<tr>${step.scores.map((s, p) =>
    `<th><span style="color:${playerColor(p)}">●</span> ${escapeHtml(playerName(named, p))}</th><td class="score">${s}</td>`).join("")}</tr>`;
  $("table-view").innerHTML = step.table_svg;
  titleZones($("table-view"), record.game, places);
  $("boards").innerHTML = step.boards_svg.map((svg, p) =>
    `<figure class="board-card" data-player="${p}"><figcaption><span class="swatch" style="background:${playerColor(p)}"></span><span class="name">${
      escapeHtml(playerName(named, p))}</span><span class="score">${step.scores[p]}</span></figcaption>${svg}</figure>`).join("");
  for (const figure of $("boards").querySelectorAll("figure")) titleZones(figure, record.game, places, `boards.${figure.dataset.player}.`);
  $("first").disabled = $("previous").disabled = k === 0;
  $("next").disabled = $("last").disabled = k === steps.length - 1;
}

(async () => {
  await azul.loadStrings(azul.params.get("lang") || localStorage.getItem("azulcam.lang") || "");
  $("export").href = `/api/games/${encodeURIComponent(id)}`;
  try {
    [steps, record] = await Promise.all([api(`/api/games/${encodeURIComponent(id)}/replay`), api(`/api/games/${encodeURIComponent(id)}`)]);
  } catch (problem) {
    $("controls").hidden = true;
    $("missing").hidden = false;
    $("missing").textContent = azul.word(problem);
    return;
  }
  const title = t("dash.replay_title", { id, game: t(`game.${record.game}`) });
  $("title").textContent = title;
  document.title = title;
  places = await api(`/api/places?game=${encodeURIComponent(id)}&lang=${encodeURIComponent(azul.lang)}`).catch(() => ({}));
  const slider = $("step");
  slider.max = steps.length - 1;
  slider.addEventListener("input", () => show(Number(slider.value)));
  $("first").addEventListener("click", () => show(0));
  $("previous").addEventListener("click", () => show(Number(slider.value) - 1));
  $("next").addEventListener("click", () => show(Number(slider.value) + 1));
  $("last").addEventListener("click", () => show(steps.length - 1));
  document.addEventListener("keydown", (event) => {
    if (event.target === slider) return;  // the slider moves itself by its keys
    const by = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity }[event.key];
    if (by !== undefined) { event.preventDefault(); show(Number(slider.value) + by); }
  });
  show(steps.length - 1);
})();
