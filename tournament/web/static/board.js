"use strict";
// The board of a position dict, as the play page and the replay page draw it: laid out
// by the game's layout, each card a face (or a back), what a card says shown when it is
// pointed at or tapped.
const boards = (() => {
  // What the board being drawn is: the seat at its foot, the card names drawn red,
  // and what each card says.
  let seat = 0, red = null, texts = {}, glossary = {}, reader = null;

  // What the card ``name`` says, from ``cards`` (the board's own by default); null for
  // a name no card has.  Own keys only: a card is never named "constructor".
  function textOf(name, cards = texts) {
    return cards && Object.hasOwn(cards, name) ? cards[name] : null;
  }

  // ``line`` with each card the engine's words name by its key written as the card
  // itself is ("mulligan cinder_brute" as "mulligan Cinder Brute").
  function named(line, cards) {
    return line.replace(/[A-Za-z][A-Za-z0-9_]*/g, w => (textOf(w, cards) || {card: w}).card);
  }

  // A card's words, a line a thing, for its tooltip and the panel a tap opens.
  function words(text) {
    return Object.entries(text).map(([k, v]) => k === "card" ? v : k + ": " + v).join("\n");
  }

  // Show what the card ``name`` says in the board's panel.
  function read(name) {
    if (!reader) return;
    const text = textOf(name);
    reader.replaceChildren(Object.assign(document.createElement("strong"), {textContent: text.card}));
    for (const [k, v] of Object.entries(text)) {
      if (k === "card") continue;
      const line = document.createElement("div");
      line.append(Object.assign(document.createElement("span"), {className: "name", textContent: k + " "}), v);
      reader.append(line);
    }
    reader.hidden = false;
  }

  // A card by the name a position writes; ``shown`` is what is written on it, by
  // default the card's own name ("Cinder Brute" for ``cinder_brute``).
  function card(name, shown) {
    const el = document.createElement("span");
    el.className = "card";
    if (name === "??") {
      el.classList.add("back");
      el.textContent = "?";
      return el;
    }
    const text = textOf(name);
    el.textContent = shown !== undefined ? shown : text ? text.card : name;
    if (red && red.test(name)) el.classList.add("red");
    if (text) {
      el.classList.add("readable");
      el.dataset.card = name;
      el.title = words(text);
      el.addEventListener("click", () => read(name));
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
    const said = v => Array.isArray(v) ? v.join(" ")
      : v !== null && typeof v === "object" ? Object.entries(v).filter(([, x]) => worth(x)).map(([k, x]) => k + " " + said(x)).join(" ")
      : String(v);
    return Object.entries(more).filter(([, v]) => worth(v))
      .map(([k, v]) => k.replaceAll("_", " ") + (v === true ? "" : " " + said(v))).join(", ");
  }

  function piece(p) {
    const {card: name, ...more} = p;
    const el = card(name, textOf(name) ? undefined : name.replaceAll("_", " "));
    el.classList.add("piece");
    if (more.tapped) el.classList.add("tapped");
    const notes = carried(more);
    if (notes) {
      el.append(Object.assign(document.createElement("small"), {textContent: notes}));
      el.title = (el.title ? el.title + "\n\n" : "") + notes;
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
    // A card in a place of its own (a player's shrine) is drawn as a card, to be read.
    if (typeof v === "string" && textOf(v)) return card(v);
    return document.createTextNode(String(v));
  }

  // Each key of ``dict`` with its value.  A hidden pile (null) whose size the dict
  // gives beside it (``hand`` and ``hand_size``) is that many card backs.
  function fields(dict) {
    const box = document.createElement("div");
    for (const [key, v] of Object.entries(dict)) {
      const size = dict[key + "_size"];
      if (key.endsWith("_size") && dict[key.slice(0, -5)] === null) continue;
      const shown = v === null && Number.isInteger(size) ? Array(size).fill("??") : v;
      const field = document.createElement("span");
      field.className = "field";
      const name = Object.assign(document.createElement("span"), {className: "name", textContent: key.replaceAll("_", " ")});
      // What the key means, where the game says: told when its name is pointed at.
      if (Object.hasOwn(glossary, key)) {
        name.classList.add("explained");
        name.title = glossary[key];
      }
      field.append(name, value(shown));
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
  // in the cell its ``grid.at`` names, a row name then a column name.  The seat's
  // pieces are told from the others'; what else a piece carries (tapped, damage) is
  // written under it.  A flipped board is turned half round for the seats after the first.
  function drawGrid(grid, pieces) {
    const turned = grid.flip && seat !== 0;
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
        for (const p of pieces.filter(p => p[grid.at] === r + c)) {
          const {card: name, [grid.at]: _, owner, slot, ...more} = p;
          const el = card(name, textOf(name) ? undefined : name.replaceAll("_", " "));
          el.classList.add("piece", owner === seat ? "mine" : "theirs");
          if (more.tapped) el.classList.add("tapped");
          const notes = Object.entries(more).map(([k, v]) => v === true ? k : k + " " + v).join(", ");
          if (notes) el.append(Object.assign(document.createElement("small"), {textContent: notes}));
          el.title = (el.title ? el.title + "\n\n" : "") + "player " + owner + (notes ? ": " + notes : "");
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

  // Draw ``board`` (a position dict) into ``el``: ``layout`` is the game's, ``status``
  // its line of where the game stands, ``cards`` what each card says, ``seat`` the
  // seat at the foot of the table and ``name(i)`` the title of seat i's area.  Without
  // a layout every key is shown as it comes.  With one, the table is laid out as
  // players sit: the others across it, the middle, then the seat's own, with the
  // status above and the bookkeeping folded under "more".
  function draw(el, {board, layout, status, cards, name, seat: foot}) {
    seat = foot;
    texts = cards || {};
    glossary = (layout && layout.glossary) || {};
    red = layout && layout.red ? new RegExp(layout.red) : null;
    el.replaceChildren();
    reader = Object.assign(document.createElement("div"), {className: "card-text", hidden: true});
    const {players, ...table} = board;
    const seats = Array.isArray(players) ? players : [];
    if (!layout) {
      seats.forEach((p, i) => el.append(area(name(i), p, i === seat)));
      el.append(area("table", table, false), reader);
      return;
    }
    const [, restTable] = split(table, layout.status || []);
    const [middle, more] = split(restTable, layout.table || []);
    el.append(Object.assign(document.createElement("p"), {className: "table-status", textContent: status}));
    const order = seats.map((_, i) => (seat + 1 + i) % seats.length);
    const folded = document.createElement("div");
    for (const i of order) {
      const [shown, rest] = split(seats[i], layout.player || []);
      if (i === seat) {
        const grid = layout.grid;
        const {[grid ? grid.key : ""]: pieces, ...others} = middle;
        const mid = area("table", others, false);
        if (grid) mid.append(drawGrid(grid, pieces || []));
        el.append(mid);
      }
      el.append(area(name(i), shown, i === seat));
      if (Object.keys(rest).length) folded.append(area(name(i), rest, false));
    }
    el.append(reader);
    if (Object.keys(more).length) folded.append(area("table", more, false));
    if (folded.children.length) {
      const details = Object.assign(document.createElement("details"), {className: "more"});
      details.append(Object.assign(document.createElement("summary"), {textContent: "more"}), folded);
      el.append(details);
    }
  }

  return {draw, named};
})();
