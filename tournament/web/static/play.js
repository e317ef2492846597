"use strict";
// The page of one game: it shows what the server sends of the person's seat, posts
// their choices, and asks the server to play chance and the bots one step at a time,
// so each of the bot's moves is told as it comes.
const root = document.getElementById("play");
const id = root.dataset.id;
const $ = name => document.getElementById(name);
// A pause between the bot's moves, so each can be read as it comes.
const PACE = 400;
// How long to wait before asking again for a game another request holds.
const RETRY = 1000;
let view = null;
let busy = false;

async function call(path, body) {
  const options = body === undefined ? {} : {method: "POST", body: JSON.stringify(body),
                                             headers: {"content-type": "application/json"}};
  const response = await fetch("/api/games/" + id + path, options);
  const answer = await response.json();
  if (!response.ok) throw Object.assign(new Error(answer.error), {status: response.status});
  return answer;
}

function seatName(i) {
  return "player " + i + (i === view.seat ? " (you)" : "");
}

function show(next, fresh) {
  const before = view ? view.log.length : 0;
  view = next;
  $("title").textContent = view.long_name + " (" + view.game + ")";
  // The seed comes once the game is over: before, it would tell the cards to come.
  $("who").textContent = "You are player " + view.seat + " against " + view.bot +
    (view.seed === undefined ? "." : ", dealt from seed " + view.seed + ".");
  boards.draw($("board"), {board: view.board, layout: view.layout, status: view.status,
                           cards: view.cards, seat: view.seat, name: seatName});
  $("text").textContent = view.text;
  const log = $("log");
  log.replaceChildren(...view.log.map((line, i) => {
    const li = Object.assign(document.createElement("li"), {textContent: boards.named(line, view.cards)});
    if (line.startsWith("you:")) li.classList.add("you");
    if (!fresh && i >= before) li.classList.add("new");
    return li;
  }));
  log.scrollTop = log.scrollHeight;
  $("moves").replaceChildren(...view.legal.map(m => {
    const button = Object.assign(document.createElement("button"), {textContent: boards.named(m.name, view.cards)});
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
  let again = false;
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
    if (e.status === 409) {
      // Another tab moved this game on: show where it stands now.  Or a request from
      // before a reload still holds it, its bot thinking: play on once it is done.
      show(await call(""), true);
      again = view.waiting !== "you" && view.waiting !== "over";
    }
  } finally {
    busy = false;
  }
  if (again) setTimeout(() => act(""), RETRY);
}

$("undo").addEventListener("click", () => act("/undo", {}));
$("hint-button").addEventListener("click", async () => {
  $("hint").textContent = "thinking of a hint…";
  try {
    const hint = await call("/hint", {version: view.version});
    if (hint.version !== view.version) return;
    $("hint").textContent = "Hint: " + boards.named(hint.name, view.cards) + ": " + hint.confidence;
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
