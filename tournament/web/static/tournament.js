"use strict";
// Live tables: the server says when a game is stored, and the page fetches the tables again.
const report = document.getElementById("report");
const key = report.dataset.key;
const events = new EventSource("/tournaments/" + encodeURIComponent(key) + "/events");
let shown = null;
events.addEventListener("games", async event => {
  if (shown === null) { shown = event.data; return; }
  if (event.data === shown) return;
  shown = event.data;
  // The page of games shown stays the one chosen.
  const response = await fetch("/tournaments/" + encodeURIComponent(key) + "/report" + location.search);
  if (response.ok) report.innerHTML = await response.text();
});
events.addEventListener("error", () => { document.getElementById("live").textContent = "reconnecting"; });
events.addEventListener("open", () => { document.getElementById("live").textContent = "live"; });
