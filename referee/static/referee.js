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
// has been swapped in (web/serving/live.py), while a part that differs only in the version it would post
// is not sent again. A form in the panel keeps the version it was drawn at, so acting on a form
// another tablet has overtaken is refused as stale.
// Until the poll has brought the board this tablet's own last write, the button posts that write's
// version (``ownWrite``, from its answer's board-changed): the person has seen its result, and Next
// phase tapped again on a slow network was refused as stale (a 409) for being one behind it.
let ownWrite = 0;
document.addEventListener("htmx:configRequest", (event) => {
  const form = event.detail.elt instanceof Element ? event.detail.elt.closest("form") : null;
  const poll = document.getElementById("poll");
  if (!form || form.closest("#panel") || !poll || !poll.dataset.version) return;
  if (event.detail.parameters.version === undefined) return;
  event.detail.parameters.version = String(Math.max(Number(poll.dataset.version), ownWrite));
});

// A form in the panel also says which version the board around it shows (``shown``): refused as
// stale, its answer brings the board from there, not from the version the form was drawn at
// (which deleted log lines the board had let go, and added again those it had).
document.addEventListener("htmx:configRequest", (event) => {
  const form = event.detail.elt instanceof Element ? event.detail.elt.closest("form") : null;
  const poll = document.getElementById("poll");
  if (!form || !form.closest("#panel") || !poll || !poll.dataset.version) return;
  if (event.detail.parameters.version === undefined) return;
  event.detail.parameters.shown = poll.dataset.version;
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
  if ((event.detail || {}).own && version > ownWrite) ownWrite = version;
  markBoard();
});
document.addEventListener("htmx:afterSettle", markBoard);

// --- Taps: a one-time token each, never sent twice, and said when they fail -------------------
// Every write a form posts carries a token of its own (web/taps.py). A form whose tap had no answer
// (offline, the server down, the answer lost on the way) keeps its token, so tapping it again sends
// the same one: the server answers with the first result if the tap was recorded, and never does
// it, or rolls it, again. Once an answer comes the form's next tap is a new one. The same tap
// repeated within a double tap's time of the first (same address, same facts; 300 ms is a double
// tap to Android, a person who has seen the board change taps later) is the same tap even if the
// board has been redrawn between the two: the second is answered "already recorded".
const DOUBLE_TAP_MS = 350;
const formTokens = new WeakMap();
let lastTap = null;
// A tap is timed by when the finger came down, not when the page got round to it: a tablet busy
// swapping in the last answer (a Waterloo board) handles a double tap's second touch half a second
// late, and timed then it was taken for a second tap. A write not started by a press (a key) or
// handled long after it is timed when it is sent.
const PRESS_KEPT_MS = 2000;
let lastPress = 0;
document.addEventListener("pointerdown", (event) => { lastPress = event.timeStamp; }, true);
function tapTime() {
  const now = performance.now();
  return lastPress && now - lastPress < PRESS_KEPT_MS ? lastPress : now;
}
// Letters only: a long run of digits in a field is refused as a number nobody means (web/serving/input_limits.py).
const TOKEN_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
function freshToken() {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => TOKEN_LETTERS[b % TOKEN_LETTERS.length]).join("");
}
function tapKey(path, parameters) {
  const facts = Object.keys(parameters).filter((k) => !["version", "shown", "token", "csrf_token"].includes(k)).sort()
    .map((k) => [k, String(parameters[k])]);
  return path + " " + JSON.stringify(facts);
}
function hiddenFields(form) {
  const out = {};
  form.querySelectorAll("input[type=hidden][name]").forEach((i) => { out[i.name] = i.value; });
  return out;
}
document.addEventListener("htmx:configRequest", (event) => {
  const elt = event.detail.elt;
  const form = elt instanceof Element ? elt.closest("form") : null;
  if (!form || event.detail.verb !== "post" || event.detail.parameters.version === undefined) return;
  // A campaign's step (a boosted form, drawn again with its choices reset once answered) is the
  // same tap by its address and what the form is for (its hidden fields: the Rig, the player), not
  // by the choices a person makes on it: the second tap of a double tap lands on the fresh form.
  const key = form.closest("[hx-boost=true]") ? tapKey(event.detail.path, hiddenFields(form))
    : tapKey(event.detail.path, event.detail.parameters);
  const at = tapTime();
  let token = formTokens.get(form);
  if (lastTap && lastTap.key === key && (lastTap.flying || at - lastTap.at < DOUBLE_TAP_MS)) {
    token = lastTap.token;
  }
  if (!token) token = freshToken();
  formTokens.set(form, token);
  event.detail.parameters.token = token;
  lastTap = { key, token, at, flying: true };
});

// A tap in flight: its buttons are disabled (it cannot be sent twice) and it says it is being sent.
function tapForm(event) {
  const elt = event.detail.elt;
  // A form checked as it is typed (a list builder: hx-trigger "change, input") is not a tap.
  const trigger = elt instanceof Element ? elt.getAttribute("hx-trigger") : null;
  if (trigger && !/\b(submit|click)\b/.test(trigger)) return null;
  const form = elt instanceof Element ? elt.closest("form") : null;
  const verb = ((event.detail.requestConfig || {}).verb || "").toLowerCase();
  return form && verb === "post" ? form : null;
}
function tapNote(form, text, kind) {
  let note = form.querySelector(":scope > .tap-note");
  if (!text) { if (note) note.remove(); return; }
  if (!note) {
    note = document.createElement("p");
    note.className = "tap-note";
    form.appendChild(note);
  }
  note.setAttribute("role", kind === "failed" ? "alert" : "status");
  note.dataset.kind = kind;
  note.textContent = text;
}
document.addEventListener("htmx:beforeRequest", (event) => {
  const form = tapForm(event);
  if (!form) return;
  form.setAttribute("aria-busy", "true");
  form.querySelectorAll("button, input[type=submit]").forEach((b) => {
    if (!b.disabled) { b.disabled = true; b.dataset.inFlight = "1"; }
  });
  tapNote(form, offline ? "" : "Sending…", "sending");
});
// Answered (or failed): the tap is no longer in flight, and once answered the form's next tap is
// new. Told by the request itself, not htmx's afterRequest: that event is lost when the answer (or
// the board's poll meanwhile) has swapped the form out, and a tap still "in flight" then made the
// person's next tap, seconds later, a repeat of the first, answered "already recorded".
document.addEventListener("htmx:beforeSend", (event) => {
  const form = tapForm(event);
  const tap = lastTap;
  const xhr = event.detail.xhr;
  if (!form || !tap || !xhr) return;
  xhr.addEventListener("loadend", () => {
    tap.flying = false;
    if (xhr.status) formTokens.delete(form);
  });
});
document.addEventListener("htmx:afterRequest", (event) => {
  const form = tapForm(event);
  if (!form) return;
  form.removeAttribute("aria-busy");
  form.querySelectorAll("[data-in-flight]").forEach((b) => { b.disabled = false; delete b.dataset.inFlight; });
  if (event.detail.successful || (event.detail.xhr && event.detail.xhr.status)) tapNote(form, "");
});
// No answer: offline, the server down, or the answer lost on the way. A tap not sent says so; a tap
// whose answer was lost may have been recorded, and tapping again shows it (never does it twice).
function tapFailed(event) {
  const form = tapForm(event);
  if (!form) return;
  tapNote(form, offline || !navigator.onLine
    ? "Not sent: this tablet is not connected. Nothing was recorded. Tap again once it is connected."
    : "No answer from the server. If the tap was recorded, tapping again shows its result; it is never done twice.",
  "failed");
}
document.addEventListener("htmx:sendError", tapFailed);
document.addEventListener("htmx:timeout", tapFailed);
document.addEventListener("htmx:responseError", (event) => {
  const form = tapForm(event);
  const status = event.detail.xhr ? event.detail.xhr.status : 0;
  if (form && status >= 502) {
    tapNote(form, `The server could not take the tap (error ${status}). Nothing was recorded.`, "failed");
  }
});

// --- Connection: a tablet says when it is not connected, and since when ------------------------
let offline = null; // the moment this tablet lost the server, or null
function connectionBanner() {
  let banner = document.getElementById("connection");
  if (!banner) {
    banner = document.createElement("div");
    banner.id = "connection";
    banner.className = "connection-banner";
    banner.setAttribute("role", "alert");
    banner.hidden = true;
    document.body.prepend(banner);
  }
  return banner;
}
function showConnection(why) {
  if (!offline) offline = new Date();
  const since = offline.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  const banner = connectionBanner();
  banner.textContent = `${why} since ${since}: the board shows the game as it was then, and taps are not recorded.`;
  banner.hidden = false;
  document.documentElement.classList.add("not-connected");
}
function connected() {
  offline = null;
  const banner = document.getElementById("connection");
  if (banner) banner.hidden = true;
  document.documentElement.classList.remove("not-connected");
}
window.addEventListener("offline", () => showConnection("Not connected"));
// A tablet that lost the Wi-Fi while this page was loading, before the line above was run, had no
// "offline" event left to hear; and a browser may miss one (a test run showed no banner 5 s after
// going offline, one time in a dozen). So the tablet also looks, every second.
if (!navigator.onLine) showConnection("Not connected");
setInterval(() => {
  const banner = document.getElementById("connection");
  if (!navigator.onLine && (!banner || banner.hidden)) showConnection("Not connected");
}, 1000);
window.addEventListener("online", () => {
  const poll = document.getElementById("poll");
  if (poll && window.htmx) window.htmx.trigger(poll, "board-changed"); // ask at once; the answer clears the banner
  else connected();
});
document.addEventListener("htmx:sendError", () => showConnection(navigator.onLine ? "No answer from the server" : "Not connected"));
document.addEventListener("htmx:timeout", () => showConnection("No answer from the server"));
document.addEventListener("htmx:responseError", (event) => {
  if (event.detail.xhr && event.detail.xhr.status >= 502) showConnection("The server is not answering");
});
document.addEventListener("htmx:afterRequest", (event) => {
  const xhr = event.detail.xhr;
  if (xhr && xhr.status && xhr.status < 502 && navigator.onLine) connected();
});

// A plain form's tap is answered by the page it leads to: every page of this app, as it loads, marks
// the tap sent before it answered (sessionStorage, this tab only).
const SENT = "referee.tapSent";
const ANSWERED = "referee.tapAnswered";
const LAST_PLAIN_TAP = "referee.lastPlainTap";
function recalled(key) {
  try { return JSON.parse(sessionStorage.getItem(key) || "[]"); } catch { return []; }
}
function remember(key, tokens) {
  try { sessionStorage.setItem(key, JSON.stringify(tokens.slice(-20))); } catch { /* storage off: tokens kept */ }
}
document.addEventListener("DOMContentLoaded", () => {
  const sent = recalled(SENT);
  if (!sent.length) return;
  remember(ANSWERED, [...recalled(ANSWERED), ...sent]);
  remember(SENT, []);
});

// Whoever types or chooses something on the page taps on purpose after it: no double tap then.
["input", "change"].forEach((kind) => document.addEventListener(kind, () => {
  try { sessionStorage.removeItem(LAST_PLAIN_TAP); } catch { /* storage off */ }
}));

// The second tap of a double tap, landing on the page the first one's answer drew (the same button
// of the same address within a double tap's time): not sent, as on the board.
function repeatsTheLastTap(form, submitter) {
  const button = submitter && submitter.form === form ? submitter : null;
  const key = form.action + " " + (button && button.name ? `${button.name}=${button.value}` : "");
  // Timed by the finger too, on the clock of the day: the two taps may be on two pages, each
  // page's own clock starting when it loaded.
  const at = performance.timeOrigin + tapTime();
  const last = recalled(LAST_PLAIN_TAP);
  if (last.key === key && at - last.at < DOUBLE_TAP_MS) return true;
  try { sessionStorage.setItem(LAST_PLAIN_TAP, JSON.stringify({ key, at })); } catch { /* storage off */ }
  return false;
}

// A page's own form (hx-boost on the form, its answer the whole page: web/serving/page_forms.py) is
// sent by htmx, so that a refusal drawn again reaches the tablet as an answer, not a red line in the
// console. It is a tap as a plain form's is: not sent twice by a double tap, and carrying a one-time
// token (its page's, or one of its own kept until an answer comes). Answered by a page it leads to,
// the form (come back to by the browser's Back) makes a new tap next.
function pageForm(elt) {
  const form = elt instanceof Element ? elt.closest("form") : null;
  if (!form || form.hasAttribute("hx-post") || form.closest("[hx-target]")) return null;
  const boost = form.closest("[hx-boost]");
  return boost && boost.getAttribute("hx-boost") === "true" ? form : null;
}
document.addEventListener("htmx:configRequest", (event) => {
  const form = pageForm(event.detail.elt);
  if (!form || event.detail.verb !== "post" || event.detail.parameters.version !== undefined) return;
  const submit = event.detail.triggeringEvent;
  if (repeatsTheLastTap(form, submit && submit.submitter)) { event.preventDefault(); return; }
  if (event.detail.parameters.token === undefined) {
    const token = formTokens.get(form) || freshToken();
    formTokens.set(form, token);
    event.detail.parameters.token = token;
  }
});
document.addEventListener("htmx:afterRequest", (event) => {
  const form = pageForm(event.detail.elt);
  const xhr = event.detail.xhr;
  if (!form || !xhr || !xhr.getResponseHeader("HX-Redirect")) return;
  formTokens.delete(form);
  form.querySelectorAll("input[name=token]").forEach((token) => token.remove());
});

// A plain form (a page of its own: settings, campaigns, lists) is sent once: a second tap while the
// page is on its way is not sent again, and the form's buttons say so by being disabled. It carries
// a one-time token too, as htmx's writes do (web/taps.py): sent again after its answer was lost
// (Back, then the same tap), a list's or a campaign's write is led to its first result, never done
// twice. Coming back to the page (the browser's Back) makes it live again.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.method !== "post" || event.defaultPrevented) return;
  // A page's own form (hx-boost, web/serving/page_forms.py) is sent by htmx, which has taken the
  // submit already; one the browser sends (htmx not loaded yet, or no JavaScript) is a plain form's.
  if (form.hasAttribute("hx-post")) {
    // A board button swapped in a moment ago, tapped before htmx has taken it up: sent by the
    // browser it would lose the page's CSRF header (a live part carries none) and be refused as
    // too old. Hand it to htmx, once.
    if (!window.htmx || form.dataset.handedToHtmx) return;
    event.preventDefault();
    form.dataset.handedToHtmx = "1";
    const submitter = event.submitter && event.submitter.form === form ? event.submitter : undefined;
    window.htmx.process(form);
    setTimeout(() => form.requestSubmit(submitter), 0);
    return;
  }
  if (form.dataset.sent) { event.preventDefault(); return; }
  if (repeatsTheLastTap(form, event.submitter)) { event.preventDefault(); return; }
  form.dataset.sent = "1";
  let token = form.querySelector("input[name=token]");
  if (!token) {
    token = document.createElement("input");
    Object.assign(token, { type: "hidden", name: "token", value: freshToken() });
    form.appendChild(token);
  }
  remember(SENT, [token.value]);
  // After the browser has read the button tapped (its name and value are part of what is sent).
  setTimeout(() => form.querySelectorAll("button, input[type=submit]").forEach((b) => {
    if (!b.disabled) { b.disabled = true; b.dataset.inFlight = "1"; }
  }), 0);
});
window.addEventListener("pageshow", () => {
  const answered = recalled(ANSWERED);
  document.querySelectorAll("form[data-sent]").forEach((form) => {
    delete form.dataset.sent;
    // Answered (a page of this app came back for it): the form's next tap is a new one. Not
    // answered (the answer was lost): it keeps its token, and sent again shows the first result.
    const token = form.querySelector("input[name=token]");
    if (token && answered.includes(token.value)) token.remove();
    form.querySelectorAll("[data-in-flight]").forEach((b) => { b.disabled = false; delete b.dataset.inFlight; });
  });
});
