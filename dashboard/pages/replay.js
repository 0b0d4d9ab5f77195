// A game of the history, step by step: a slider over its positions (/api/games/ID/replay).
"use strict";
const { t, api, escapeHtml, playerColor } = azul;
const id = location.pathname.split("/")[2];
let steps = [];
const $ = (name) => document.getElementById(name);

function show(k) {
  const step = steps[k];
  $("round").textContent = t("dash.round", { n: step.round });
  $("event").textContent = step.text ? `${k}. ${step.text[azul.lang]}` : t("dash.start_of_game");
  $("scores").innerHTML = `<tr>${step.scores.map((s, p) =>
    `<th><span style="color:${playerColor(p)}">●</span> ${escapeHtml(t("player", { n: p + 1 }))}</th><td class="score">${s}</td>`).join("")}</tr>`;
  $("table-view").innerHTML = step.table_svg;
  $("boards").innerHTML = step.boards_svg.map((svg, p) =>
    `<figure class="board-card"><figcaption><span class="swatch" style="background:${playerColor(p)}"></span>${
      escapeHtml(t("player", { n: p + 1 }))}<span class="score">${step.scores[p]}</span></figcaption>${svg}</figure>`).join("");
}

(async () => {
  await azul.loadStrings(azul.params.get("lang") || localStorage.getItem("azulcam.lang") || "");
  $("export").href = `/api/games/${encodeURIComponent(id)}`;
  try {
    steps = await api(`/api/games/${encodeURIComponent(id)}/replay`);
  } catch (problem) {
    $("controls").hidden = true;
    $("missing").hidden = false;
    $("missing").textContent = azul.word(problem);
    return;
  }
  const slider = $("step");
  slider.max = steps.length - 1; slider.value = steps.length - 1;
  slider.addEventListener("input", () => show(Number(slider.value)));
  show(steps.length - 1);
})();
