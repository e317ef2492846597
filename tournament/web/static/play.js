"use strict";
// The page of one game: it shows what the server sends of the person's seat, posts
// their choices, and asks the server to play chance and the bots one step at a time,
// so each of the bot's moves is told as it comes.
const root = document.getElementById("play");
const id = root.dataset.id;
const $ = name => document.getElementById(name);
// A pause between the bot's moves, so each can be read as it comes.
const PACE = 400;
let view = null;
let busy = false;
// The pattern of card names the game draws red, from its layout.
let red = null;

async function call(path, body) {
  const options = body === undefined ? {} : {method: "POST", body: JSON.stringify(body),
                                             headers: {"content-type": "application/json"}};
  const response = await fetch("/api/games/" + id + path, options);
  const answer = await response.json();
  if (!response.ok) throw Object.assign(new Error(answer.error), {status: response.status});
  return answer;
}

function card(name) {
  const el = document.createElement("span");
  el.className = "card";
  if (name === "??") {
    el.classList.add("back");
    el.textContent = "?";
  } else {
    el.textContent = name;
    if (red && red.test(name)) el.classList.add("red");
  }
  return el;
}

// A card on the table with what it carries: an object naming its ``card``, as the
// energy deck-builder's creatures are.
function isPiece(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v) && typeof v.card === "string";
}

// Whether a value says something: not false, 0, empty, nor a dict of such.
function worth(v) {
  if (Array.isArray(v)) return v.length > 0;
  if (v !== null && typeof v === "object") return Object.values(v).some(worth);
  return v !== false && v !== 0 && v !== null && v !== "";
}

// What a piece carries beyond its name, in words ("tapped, damage 2, stored red 1"),
// leaving out what is at rest.
function carried(more) {
  const words = v => Array.isArray(v) ? v.join(" ")
    : v !== null && typeof v === "object" ? Object.entries(v).filter(([, x]) => worth(x)).map(([k, x]) => k + " " + words(x)).join(" ")
    : String(v);
  return Object.entries(more).filter(([, v]) => worth(v))
    .map(([k, v]) => k.replaceAll("_", " ") + (v === true ? "" : " " + words(v))).join(", ");
}

function piece(p) {
  const {card: name, ...more} = p;
  const el = card(name.replaceAll("_", " "));
  el.classList.add("piece");
  if (more.tapped) el.classList.add("tapped");
  const notes = carried(more);
  if (notes) {
    el.append(Object.assign(document.createElement("small"), {textContent: notes}));
    el.title = notes;
  }
  return el;
}

function pile(cards) {
  const box = document.createElement("span");
  if (cards.length > 8 && cards.every(c => c === "??")) {
    const back = card("??");
    back.append(Object.assign(document.createElement("span"), {className: "count", textContent: " ×" + cards.length}));
    box.append(back);
  } else if (cards.length === 0) {
    box.textContent = "–";
  } else if (cards.some(isPiece)) {
    // A row of places, some empty.
    for (const c of cards) {
      box.append(c === null ? Object.assign(document.createElement("span"), {className: "card empty", textContent: "–"})
        : isPiece(c) ? piece(c) : value(c));
    }
  } else if (!cards.some(c => typeof c === "string" || (c !== null && typeof c === "object"))) {
    box.textContent = cards.map(c => c === null ? "–" : c).join(" ");
  } else {
    for (const c of cards) box.append(typeof c === "string" ? card(c) : value(c));
  }
  return box;
}

function value(v) {
  if (Array.isArray(v)) return pile(v);
  if (v === null) return document.createTextNode("–");
  if (typeof v === "object") return fields(v);
  return document.createTextNode(String(v));
}

function fields(dict) {
  const box = document.createElement("div");
  for (const [key, v] of Object.entries(dict)) {
    const field = document.createElement("span");
    field.className = "field";
    field.append(Object.assign(document.createElement("span"), {className: "name", textContent: key.replaceAll("_", " ")}), value(v));
    box.append(field);
  }
  return box;
}

// The keys of ``dict`` that ``keys`` names, in that order; and the others.
function split(dict, keys) {
  const named = {}, rest = {};
  for (const k of keys) if (k in dict) named[k] = dict[k];
  for (const [k, v] of Object.entries(dict)) if (!keys.includes(k)) rest[k] = v;
  return [named, rest];
}

function area(title, dict, you) {
  const box = document.createElement("div");
  box.className = "area" + (you ? " you" : "");
  box.append(Object.assign(document.createElement("h3"), {textContent: title}), fields(dict));
  return box;
}

// A board of cells (Creature Shrines' region): each piece of ``pieces`` drawn as a card
// in the cell its ``grid.at`` names, a row name then a column name.  The person's
// pieces are told from the others'; what else a piece carries (tapped, damage) is
// written under it.  A flipped board is turned half round for the seats after the first.
function drawGrid(grid, pieces) {
  const turned = grid.flip && view.seat !== 0;
  const rows = turned ? [...grid.rows].reverse() : grid.rows;
  const columns = turned ? [...grid.columns].reverse() : grid.columns;
  const box = document.createElement("table");
  box.className = "grid";
  for (const r of rows) {
    const tr = document.createElement("tr");
    tr.append(Object.assign(document.createElement("th"), {textContent: r}));
    for (const c of columns) {
      const td = document.createElement("td");
      td.dataset.cell = r + c;
      for (const piece of pieces.filter(p => p[grid.at] === r + c)) {
        const {card: name, [grid.at]: _, owner, slot, ...more} = piece;
        const el = card(name.replaceAll("_", " "));
        el.classList.add("piece", owner === view.seat ? "mine" : "theirs");
        if (more.tapped) el.classList.add("tapped");
        const notes = Object.entries(more).map(([k, v]) => v === true ? k : k + " " + v).join(", ");
        if (notes) el.append(Object.assign(document.createElement("small"), {textContent: notes}));
        el.title = "player " + owner + (notes ? ": " + notes : "");
        td.append(el);
      }
      tr.append(td);
    }
    box.append(tr);
  }
  const foot = document.createElement("tr");
  foot.append(document.createElement("th"), ...columns.map(c => Object.assign(document.createElement("th"), {textContent: c})));
  box.append(foot);
  return box;
}

function seatName(i) {
  return "player " + i + (i === view.seat ? " (you)" : "");
}

// Without a layout every key is shown as it comes.  With one, the table is laid out as
// players sit: the others across it, the middle, then the person's own seat, with one
// line of status above and the bookkeeping folded under "more".
function drawBoard(board) {
  const el = $("board");
  el.replaceChildren();
  const layout = view.layout;
  red = layout && layout.red ? new RegExp(layout.red) : null;
  const {players, ...table} = board;
  const seats = Array.isArray(players) ? players : [];
  if (!layout) {
    seats.forEach((p, i) => el.append(area(seatName(i), p, i === view.seat)));
    el.append(area("table", table, false));
    return;
  }
  const [status, restTable] = split(table, layout.status || []);
  const [middle, more] = split(restTable, layout.table || []);
  const line = Object.entries(status).filter(([, v]) => v !== null && !(Array.isArray(v) && !v.length))
    .map(([k, v]) => k.replaceAll("_", " ") + " " + (Array.isArray(v) ? v.join(" ")
      : typeof v === "object" ? Object.entries(v).map(([n, x]) => n + " " + x).join(" ") : v)).join(" · ");
  el.append(Object.assign(document.createElement("p"), {className: "table-status", textContent: line}));
  const order = seats.map((_, i) => (view.seat + 1 + i) % seats.length);
  const folded = document.createElement("div");
  for (const i of order) {
    const [shown, rest] = split(seats[i], layout.player || []);
    if (i === view.seat) {
      const grid = layout.grid;
      const {[grid ? grid.key : ""]: pieces, ...rest} = middle;
      const mid = area("table", rest, false);
      if (grid) mid.append(drawGrid(grid, pieces || []));
      el.append(mid);
    }
    el.append(area(seatName(i), shown, i === view.seat));
    if (Object.keys(rest).length) folded.append(area(seatName(i), rest, false));
  }
  if (Object.keys(more).length) folded.append(area("table", more, false));
  if (folded.children.length) {
    const details = Object.assign(document.createElement("details"), {className: "more"});
    details.append(Object.assign(document.createElement("summary"), {textContent: "more"}), folded);
    el.append(details);
  }
}

function show(next, fresh) {
  const before = view ? view.log.length : 0;
  view = next;
  $("title").textContent = view.long_name + " (" + view.game + ")";
  // The seed comes once the game is over: before, it would tell the cards to come.
  $("who").textContent = "You are player " + view.seat + " against " + view.bot +
    (view.seed === undefined ? "." : ", dealt from seed " + view.seed + ".");
  drawBoard(view.board);
  $("text").textContent = view.text;
  const log = $("log");
  log.replaceChildren(...view.log.map((line, i) => {
    const li = Object.assign(document.createElement("li"), {textContent: line});
    if (line.startsWith("you:")) li.classList.add("you");
    if (!fresh && i >= before) li.classList.add("new");
    return li;
  }));
  log.scrollTop = log.scrollHeight;
  $("moves").replaceChildren(...view.legal.map(m => {
    const button = Object.assign(document.createElement("button"), {textContent: m.name});
    button.dataset.action = m.action;
    button.addEventListener("click", () => act("/move", {action: m.action}));
    return button;
  }));
  $("hint").textContent = "";
  const status = $("status");
  status.classList.remove("thinking");
  if (view.waiting === "over") status.textContent = "Game over. " + view.result;
  else if (view.waiting === "you") status.textContent = "Your move.";
  $("hint-button").disabled = view.waiting !== "you";
}

function thinking() {
  const status = $("status");
  status.classList.add("thinking");
  const w = view.waiting;
  status.textContent = w.startsWith("player") ? w + " is thinking" : w === "chance" ? "dealing" : "playing your only move";
}

// Play chance and the bots until the person is to move or the game is over.
async function pump() {
  while (view.waiting !== "you" && view.waiting !== "over") {
    thinking();
    const bot = view.waiting.startsWith("player");
    show(await call("/step", {version: view.version}));
    if (bot) await new Promise(done => setTimeout(done, PACE));
  }
}

async function act(path, body) {
  if (busy) return;
  busy = true;
  $("error").textContent = "";
  try {
    if (body !== undefined) {
      // The choice is made: its buttons go until the server answers.
      $("moves").replaceChildren();
      $("status").textContent = "";
      show(await call(path, Object.assign({version: view.version}, body)));
    }
    await pump();
  } catch (e) {
    $("error").textContent = e.message;
    // Another tab moved this game on: show where it stands now.
    if (e.status === 409) show(await call(""), true);
  } finally {
    busy = false;
  }
}

$("undo").addEventListener("click", () => act("/undo", {}));
$("hint-button").addEventListener("click", async () => {
  $("hint").textContent = "thinking of a hint…";
  try {
    const hint = await call("/hint", {version: view.version});
    if (hint.version !== view.version) return;
    $("hint").textContent = "Hint: " + hint.name + ": " + hint.confidence;
    const button = $("moves").querySelector("[data-action='" + hint.action + "']");
    if (button) button.classList.add("hinted");
  } catch (e) {
    $("hint").textContent = "";
    $("error").textContent = e.message;
  }
});
$("new").addEventListener("click", async () => {
  const [name] = view.game.split("(");
  const params = {};
  const inside = view.game.slice(name.length + 1, -1);
  for (const part of inside ? inside.split(",") : []) {
    const [key, v] = part.split("=");
    params[key] = v === "true" ? true : v === "false" ? false : /^-?\d+$/.test(v) ? Number(v) : v;
  }
  const response = await fetch("/api/games", {method: "POST", headers: {"content-type": "application/json"},
    body: JSON.stringify({game: name, params: params, bot: view.bot, seat: view.seat})});
  const answer = await response.json();
  if (response.ok) location.href = "/play/" + answer.id;
  else $("error").textContent = answer.error;
});

(async () => {
  try {
    show(await call(""), true);
  } catch (e) {
    $("error").textContent = e.message;
    return;
  }
  act("");
})();
