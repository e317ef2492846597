"use strict";
const games = JSON.parse(document.getElementById("games").textContent);
const form = document.getElementById("new-game");
const gameSelect = document.getElementById("game");
const params = document.getElementById("params");
const seat = document.getElementById("seat");

function chosen() { return games.find(g => g.name === gameSelect.value); }

function showParams() {
  params.replaceChildren(Object.assign(document.createElement("legend"), {textContent: "Variant"}));
  for (const p of chosen().params) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.name = "param-" + p.name;
    input.dataset.param = p.name;
    if (p.type === "choice") {
      const select = document.createElement("select");
      select.name = "param-" + p.name;
      select.dataset.param = p.name;
      select.append(...p.choices.map(c => Object.assign(document.createElement("option"),
                                                        {value: c, textContent: c.replaceAll("_", " "), selected: c === p.default})));
      label.append(p.name + " ", select);
      params.append(label);
      continue;
    }
    if (p.type === "bool") {
      input.type = "checkbox";
      input.checked = p.default;
      label.append(input, " " + p.name);
    } else {
      input.type = "number";
      input.value = p.default;
      if (p.low !== null) input.min = p.low;
      if (p.high !== null) input.max = p.high;
      label.append(p.name + " ", input);
      if (p.name === "players") input.addEventListener("input", showSeats);
    }
    params.append(label);
  }
  showSeats();
  document.getElementById("level").replaceChildren(...chosen().levels.map(l =>
    Object.assign(document.createElement("option"),
                  {value: l.spec, textContent: `${l.elo} [${l.low}, ${l.high}]: ${l.spec}`})));
  showLevels();
}

// Levels are calibrated on a game's default rules, and offered only for them; the
// guided search only for the variants whose model is shipped (a model trained across a
// parameter, which its entry leaves out, for any value of it).
function showLevels() {
  const current = p => valueOf(params.querySelector(`[data-param="${p.name}"]`));
  const asDefault = chosen().params.every(p => current(p) === p.default);
  offer(document.getElementById("level-choice"), chosen().levels.length && asDefault);
  offer(document.getElementById("model-choice"), chosen().models.some(
    m => chosen().params.every(p => !(p.name in m) || current(p) === m[p.name])));
}

function offer(choice, shown) {
  choice.hidden = !shown;
  if (choice.hidden && choice.querySelector("input").checked) {
    form.querySelector("input[name=bot]").checked = true;
  }
}

function valueOf(input) {
  return input.type === "checkbox" ? input.checked
    : input.tagName === "SELECT" ? input.value : Number(input.value);
}

function showSeats() {
  const players = params.querySelector("[data-param=players]");
  const n = players ? Number(players.value) || chosen().players : chosen().players;
  seat.replaceChildren(...Array.from({length: n}, (_, i) =>
    Object.assign(document.createElement("option"), {value: i, textContent: "player " + i})));
}

form.addEventListener("submit", async event => {
  event.preventDefault();
  const values = {};
  for (const input of params.querySelectorAll("[data-param]")) {
    values[input.dataset.param] = valueOf(input);
  }
  let bot = form.querySelector("input[name=bot]:checked").value;
  if (bot === "custom") bot = document.getElementById("custom").value.trim();
  if (bot === "level") bot = document.getElementById("level").value;
  const body = {game: gameSelect.value, params: values, bot: bot, seat: Number(seat.value)};
  const response = await fetch("/api/games", {method: "POST", body: JSON.stringify(body),
                                              headers: {"content-type": "application/json"}});
  const answer = await response.json();
  if (!response.ok) {
    document.getElementById("error").textContent = answer.error;
    return;
  }
  location.href = "/play/" + answer.id;
});

gameSelect.addEventListener("change", showParams);
params.addEventListener("input", showLevels);
document.getElementById("level").addEventListener("change", () => {
  form.querySelector("input[name=bot][value=level]").checked = true;
});
showParams();
