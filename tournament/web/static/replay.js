"use strict";
const frames = JSON.parse(document.getElementById("frames").textContent);
const slider = document.getElementById("slider");
let at = 0;
function go(n) {
  at = Math.max(0, Math.min(frames.length - 1, n));
  slider.value = at;
  document.getElementById("number").textContent = at;
  document.getElementById("move").textContent = frames[at].text;
  document.getElementById("frame").textContent = frames[at].board;
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
