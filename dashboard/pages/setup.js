// The set-up page (a first run, no profile): choose the game, find the boards in the camera's
// picture or place their corners by hand (four clicks each: top left, top right, bottom right,
// bottom left, as their owner sees them), then start the game from this view.
"use strict";
const { t, api, post, escapeHtml } = azul;
const $ = (id) => document.getElementById(id);
let size = null;
let boards = [];      // each board's corners, in the picture's pixels
let scoring = null;   // Summer Pavilion's scoring board
let placing = null;   // placing by hand: {board: k, corners: [...]}
let games = {};       // what each game asks of the set-up, by name (/api/setup/games)

function note(problem) { $("setup-note").textContent = problem ? azul.word(problem) : ""; }
function players() { return Number($("players").value); }
function game() { return $("game").value; }
function spec() { return games[game()] || { face: "", flags: [], scoring_board: false }; }
function jokers() { return spec().flags.includes("jokers"); }
function wanted() { return players() + (spec().scoring_board ? 1 : 0); }  // the scoring board too, where there is one

function drawOptions() {
  for (const option of $("side").options) option.textContent = t(`option.${game()}.${spec().face}.${option.value}`);
  $("jokers-row").hidden = !jokers();
  const names = $("names");
  const kept = [...names.querySelectorAll("input")].map((i) => i.value);
  names.innerHTML = Array.from({ length: players() }, (_, p) => `<label><span>${escapeHtml(t("player", { n: p + 1 }))}</span>
    <input class="choice" maxlength="24" data-player="${p}" value="${escapeHtml(kept[p] || "")}" placeholder="${
      escapeHtml(t("setup.name"))}"></label>`).join("");
}

// A board's label: the name typed for its player, else "Player N".
function nameOf(k) {
  const typed = ($("names").querySelector(`input[data-player="${k}"]`) || { value: "" }).value.trim();
  return typed || t("player", { n: k + 1 });
}

function drawMarks() {
  const svg = $("marks");
  if (!size) return;
  svg.setAttribute("viewBox", `0 0 ${size[0]} ${size[1]}`);
  const all = boards.map((c, k) => ({ corners: c, label: nameOf(k) }));
  if (scoring) all.push({ corners: scoring, label: t("setup.scoring") });
  if (placing) all.push({ corners: placing.corners, label: "…", open: true });
  const stroke = Math.max(size[0], size[1]) / 300;
  svg.innerHTML = all.map(({ corners, label, open }) => {
    if (!corners.length) return "";
    const points = corners.map(([x, y]) => `${x},${y}`).join(" ");
    // The label in the board's middle: a corner may lie beside another board.
    const [x, y] = [0, 1].map((i) => corners.reduce((sum, c) => sum + c[i], 0) / corners.length);
    const shape = open ? `<polyline points="${points}"/>` : `<polygon points="${points}"/>`;
    return `<g class="found" style="stroke-width:${stroke}">${shape}${corners.map(([cx, cy]) =>
      `<circle cx="${cx}" cy="${cy}" r="${stroke * 2.5}"/>`).join("")}<text x="${x}" y="${y}" font-size="${
      stroke * 12}" stroke-width="${stroke * 2}">${escapeHtml(label)}</text></g>`;
  }).join("");
  const done = boards.length === players() && (!spec().scoring_board || scoring);
  $("start").disabled = !done;
  $("found").textContent = boards.length ? t("setup.found", { n: boards.length + (scoring ? 1 : 0), wanted: wanted() }) : "";
  $("placing").textContent = placing ? t("setup.placing", { what: placing.board < players() ? nameOf(placing.board)
    : t("setup.scoring"), corner: t(`setup.corner.${placing.corners.length}`) }) : "";
}

async function refresh() {
  const state = await api("/api/setup").catch(() => ({ set_up: false, size: null }));
  if (state.set_up) { location.href = `/${location.search}`; return; }
  size = state.size;
  $("snapshot").src = `/setup/snapshot.jpg?at=${Date.now()}`;
  drawMarks();
}

$("find").addEventListener("click", async () => {
  note(null); placing = null;
  $("find").disabled = true; $("find").classList.add("busy");
  try {
    const found = await post("/api/setup/find", { game: game(), players: players(), side: $("side").value });
    boards = found.boards; scoring = found.scoring;
  } catch (problem) {
    note(problem);
  } finally {
    $("find").disabled = false; $("find").classList.remove("busy");
    drawMarks();
  }
});

$("place").addEventListener("click", () => {
  note(null);
  boards = []; scoring = null;
  placing = { board: 0, corners: [] };
  drawMarks();
});

$("view").addEventListener("click", (event) => {
  if (!placing || !size) return;
  const box = $("snapshot").getBoundingClientRect();
  const x = ((event.clientX - box.left) / box.width) * size[0];
  const y = ((event.clientY - box.top) / box.height) * size[1];
  placing.corners.push([Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
  if (placing.corners.length === 4) {
    if (placing.board < players()) boards.push(placing.corners); else scoring = placing.corners;
    placing = placing.board + 1 < wanted() ? { board: placing.board + 1, corners: [] } : null;
  }
  drawMarks();
});

$("refresh").addEventListener("click", refresh);
$("names").addEventListener("input", drawMarks);
for (const id of ["game", "players", "side"]) {
  $(id).addEventListener("change", () => { boards = []; scoring = null; placing = null; drawOptions(); drawMarks(); });
}

$("start").addEventListener("click", async () => {
  note(null);
  $("start").disabled = true; $("start").classList.add("busy");
  const names = [...$("names").querySelectorAll("input")].map((i) => i.value.trim());
  try {
    await post("/api/setup/start", { game: game(), side: $("side").value, jokers: jokers() && $("jokers").checked,
      boards, scoring, names: names.some(Boolean) ? names.map((n, p) => n || t("player", { n: p + 1 })) : null });
    location.href = `/${location.search}`;  // the language asked for goes on
  } catch (problem) {
    note(problem);
    $("start").disabled = false;
  } finally {
    $("start").classList.remove("busy");
  }
});

$("lang").addEventListener("change", async (event) => {
  localStorage.setItem("azulcam.lang", event.target.value);
  await azul.loadStrings(event.target.value);
  $("lang").value = azul.lang;
  drawOptions(); drawMarks();
});

(async () => {
  await azul.loadStrings(azul.params.get("lang") || localStorage.getItem("azulcam.lang") || "");
  $("lang").value = azul.lang;
  games = await api("/api/setup/games").catch(() => ({}));
  drawOptions();
  await refresh();
})();
