// "Is this your table?": the camera's last reading of a still view (/api/reading) drawn; a tap on
// a space it got wrong opens the zone dialog (dashboard.js ``openZone``) on what it read there;
// Teach sends the corrections (/api/teach), and the reading comes back read again with what this
// table's memory learnt, and is drawn anew.
"use strict";
const teaching = { reading: null, corrections: new Map() };

async function openTeach() {
  note("teach-note", null);
  try {
    teaching.reading = await api("/api/reading");
  } catch (problem) {
    note("controls-note", problem);
    return;
  }
  teaching.corrections.clear();
  drawTeach();
  $("teach-dialog").showModal();
}

// What the reading has in ``zone``, corrected: a slot's tile (null: empty), a loose zone's tiles.
function readIn(zone) {
  if (teaching.corrections.has(zone)) return teaching.corrections.get(zone);
  const seen = teaching.reading.observation;
  const counted = (counts) => Object.entries(counts || {}).flatMap(([k, n]) => Array(n).fill(k));
  const parts = zone.split(".");
  if (zone === "center") return counted(seen.center);
  if (parts[0] === "factories") return [...((seen.factories[Number(parts[1])] || {}).tiles || [])];
  if (parts[0] === "supply") return (seen.supply || [])[Number(parts[1])] ?? null;
  const board = seen.boards.find((b) => b.player === Number(parts[1])) || { slots: {}, hand: {} };
  if (parts[2] === "hand") return counted(board.hand);
  return board.slots[parts.slice(2).join(".")] ?? null;
}

function askAbout(zone) {
  openZone(zone, { read: readIn(zone), set: (z, content) => { teaching.corrections.set(z, content); drawTeach(); } });
}

function drawTeach() {
  const reading = teaching.reading;
  $("teach-table").innerHTML = reading.table_svg;
  for (const el of $("teach-table").querySelectorAll(".zone[data-zone]")) el.addEventListener("click", () => askAbout(el.dataset.zone));
  $("teach-boards").innerHTML = reading.boards_svg.map((svg, k) => {
    const p = reading.observation.boards[k].player;
    return `<figure class="board-card" data-player="${p}"><figcaption><span class="swatch" style="background:${
      playerColor(p)}"></span><span class="name">${escapeHtml(playerName(state, p))}</span></figcaption>${svg}</figure>`;
  }).join("");
  for (const figure of $("teach-boards").querySelectorAll("figure[data-player]")) {
    for (const el of figure.querySelectorAll(".zone[data-zone]")) {
      el.addEventListener("click", () => askAbout(`boards.${figure.dataset.player}.${el.dataset.zone}`));
    }
  }
  const game = state ? state.game : reading.observation.game;
  const said = [...teaching.corrections.entries()];
  $("teach-corrections").innerHTML = said.length
    ? said.map(([zone, content]) => `<li data-zone="${escapeHtml(zone)}">${escapeHtml(places[zone] || zone)}: ${
      escapeHtml(holds(content === null ? [] : [].concat(content), game))}</li>`).join("")
    : `<li class="none">${escapeHtml(t("dash.teach_none"))}</li>`;
}

$("teach-open").addEventListener("click", openTeach);
$("teach-close").addEventListener("click", () => $("teach-dialog").close());
$("teach-go").addEventListener("click", async () => {
  note("teach-note", null);
  const corrections = [...teaching.corrections.entries()].map(([zone, content]) => ({ zone, content }));
  $("teach-go").disabled = true;
  try {
    teaching.reading = await post("/api/teach", { corrections });
    teaching.corrections.clear();
    drawTeach();
    note("teach-note", t("dash.teach_learnt", teaching.reading.taught), true);
  } catch (problem) {
    note("teach-note", problem);
  } finally {
    $("teach-go").disabled = false;
  }
});
