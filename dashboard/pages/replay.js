// A game of the history, step by step: a slider over its positions (/api/games/ID/replay).
"use strict";
const id = location.pathname.split("/")[2];
const params = new URLSearchParams(location.search);
let strings = {}, lang = params.get("lang") || localStorage.getItem("azulcam.lang") || "", steps = [];
function t(key, values = {}) {
  return (strings[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => (name in values ? values[name] : `{${name}}`));
}
function show(k) {
  const step = steps[k];
  document.getElementById("round").textContent = t("dash.round", { n: step.round });
  document.getElementById("event").textContent = step.text ? `${k}. ${step.text[lang]}` : "";
  document.getElementById("scores").innerHTML = `<tr>${step.scores.map((s, p) =>
    `<th>${t("player", { n: p + 1 })}</th><td class="score">${s}</td>`).join("")}</tr>`;
  document.getElementById("boards").innerHTML = step.boards_svg.map((svg, p) =>
    `<figure><figcaption>${t("player", { n: p + 1 })}</figcaption>${svg}</figure>`).join("");
}
(async () => {
  const data = await (await fetch(`/api/strings${lang ? `?lang=${lang}` : ""}`)).json();
  strings = data.strings; lang = data.lang; document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  document.getElementById("export").href = `/api/games/${id}`;
  steps = await (await fetch(`/api/games/${id}/replay`)).json();
  const slider = document.getElementById("step");
  slider.max = steps.length - 1; slider.value = steps.length - 1;
  slider.addEventListener("input", () => show(Number(slider.value)));
  show(steps.length - 1);
})();
