"use strict";
// A stored game stepped through move by move, each position drawn as the play page
// draws a game, every card shown; a game that is not ours shows its own text.
const replay = JSON.parse(document.getElementById("replay").textContent);
const frames = replay.frames;
const slider = document.getElementById("slider");
const name = i => "player " + i + " (" + replay.seating[i] + ")";
let at = 0;
function go(n) {
  at = Math.max(0, Math.min(frames.length - 1, n));
  const frame = frames[at];
  slider.value = at;
  document.getElementById("number").textContent = at;
  document.getElementById("move").textContent = boards.named(frame.text, replay.cards);
  document.getElementById("frame").textContent = frame.board;
  const board = document.getElementById("board");
  if (frame.view) {
    boards.draw(board, {board: frame.view, layout: replay.layout, status: frame.status,
                        cards: replay.cards, seat: 0, name: name});
  } else {
    board.replaceChildren();
  }
  // Without a board to draw, the text is the game.
  document.getElementById("as-text").open = !frame.view;
}
document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("back").addEventListener("click", () => go(at - 1));
document.getElementById("next").addEventListener("click", () => go(at + 1));
document.getElementById("last").addEventListener("click", () => go(frames.length - 1));
slider.addEventListener("input", () => go(Number(slider.value)));
document.addEventListener("keydown", e => {
  if (e.key === "ArrowRight") go(at + 1);
  if (e.key === "ArrowLeft") go(at - 1);
});
go(0);
