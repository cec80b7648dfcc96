// Steppers: the − and + buttons beside a number box. Without JavaScript the box is typed into.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button.step");
  if (!button) return;
  const input = button.parentElement.querySelector("input[type=number]");
  if (!input) return;
  const step = Number(button.dataset.step || 1);
  let value = (Number(input.value) || 0) + step;
  if (input.min !== "" && value < Number(input.min)) value = Number(input.min);
  if (input.max !== "" && value > Number(input.max)) value = Number(input.max);
  input.value = value;
  // The odds line listens for changes on the form.
  input.dispatchEvent(new Event("change", { bubbles: true }));
});

// Dice keypads: tapping a face adds it to the dice box; ⌫ takes the last one back.
document.addEventListener("click", (event) => {
  const key = event.target.closest("[data-die]");
  if (!key) return;
  const pad = key.closest(".keypad");
  const box = document.getElementById(pad.dataset.for);
  const dice = box.value.trim().split(/[\s,]+/).filter(Boolean);
  // A tap past the number of dice asked for would only earn a "too many dice" refusal.
  const full = pad.dataset.count && dice.length >= Number(pad.dataset.count);
  if (key.dataset.die === "back") dice.pop(); else if (!full) dice.push(key.dataset.die);
  box.value = dice.join(" ");
});

// The keypads stay hidden without JavaScript, where they could not work.
function showKeypads(root) {
  root.querySelectorAll(".keypad[hidden]").forEach((pad) => { pad.hidden = false; });
}
document.addEventListener("DOMContentLoaded", () => showKeypads(document));
document.addEventListener("htmx:load", (event) => showKeypads(event.target));

// When a form comes back asking for dice, the question sits below the facts already answered:
// bring it into view, or the umpire taps "Enter the dice" and sees nothing change at the top.
// Only when the panel itself was redrawn: the poll must not pull the page about.
document.addEventListener("htmx:afterSettle", (event) => {
  if (!(event.target instanceof Element) || event.target.id !== "panel") return;
  const entry = event.target.querySelector(".dice-entry");
  if (entry) requestAnimationFrame(() => entry.scrollIntoView({ block: "center" }));
});

// Print buttons ([data-print]): the Content-Security-Policy allows no inline handlers (onclick=).
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) window.print();
});

// A button on the board outside the panel (a Rig card's Reload, the Next phase button) posts the
// version the board shows, which is the poller's: every part of the board drawn differently since
// has been swapped in (web/live.py), while a part that differs only in the version it would post
// is not sent again. A form in the panel keeps the version it was drawn at, so acting on a form
// another tablet has overtaken is refused as stale.
document.addEventListener("htmx:configRequest", (event) => {
  const form = event.detail.elt instanceof Element ? event.detail.elt.closest("form") : null;
  const poll = document.getElementById("poll");
  if (!form || form.closest("#panel") || !poll || !poll.dataset.version) return;
  if (event.detail.parameters.version === undefined) return;
  event.detail.parameters.version = poll.dataset.version;
});

// The board's poll on its timer goes out at a moment of its own, up to data-spread ms after the
// tick. A swapped-in poll element starts its timer afresh, so tablets whose answers came
// together (they waited for the same drawing of a change) would tick together from then on, and
// the last of thirty asking at once waits for the other twenty-nine. A poll asked for by an
// event (board-changed, after this tablet's own change) goes at once.
document.addEventListener("htmx:confirm", (event) => {
  const poll = event.detail.elt;
  if (!(poll instanceof Element) || poll.id !== "poll" || event.detail.triggeringEvent) return;
  const spread = Number(poll.dataset.spread) || 0;
  if (spread <= 0) return;
  event.preventDefault();
  setTimeout(() => { if (poll.isConnected) event.detail.issueRequest(true); }, Math.random() * spread);
});

// After this tablet's own change its answer is the result alone, with the event board-changed
// naming the new version; the board's poll then asks at once (templates/games/_poll.html). Until
// that version is swapped in, the board says it is a moment behind (aria-busy, dimmed only if it
// lasts), so nothing on it is taken for the state the result just made.
const BOARD_PARTS = ["status", "units", "log"];
let boardAwaits = 0;
function markBoard() {
  const poll = document.getElementById("poll");
  if (boardAwaits && poll && Number(poll.dataset.version) >= boardAwaits) boardAwaits = 0;
  BOARD_PARTS.forEach((id) => {
    const part = document.getElementById(id);
    if (!part) return;
    if (boardAwaits) part.setAttribute("aria-busy", "true"); else part.removeAttribute("aria-busy");
  });
}
document.addEventListener("board-changed", (event) => {
  const version = Number((event.detail || {}).version);
  if (version > boardAwaits) boardAwaits = version;
  markBoard();
});
document.addEventListener("htmx:afterSettle", markBoard);
