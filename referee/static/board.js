// The board at scale: fold brigades (or squadrons), find units by name as it is typed, filter
// them, switch between full cards and compact rows, and pick units of one brigade for one order.
// Everything here runs in the browser on the data- attributes the server wrote from the engine
// state (blackpowder/board_scale.py, oilandiron/board_scale.py); no rule is decided here.
// What a tablet folded and which view it chose is kept on the tablet (localStorage, per game), and
// its folds in a cookie too: a brigade folded is sent without its unit cards (web/serving/folds.py), its
// folded line carrying an index of its units' names and filter facts, and its cards are asked for
// when it is opened (by the umpire, or by a search or filter that finds some of its units). A
// brigade folded again lets its cards go. Every request says which brigades' cards the page lacks
// (the header X-Board-Lacking), so a poll's answer leaves them out too.
// The live part of the page (#units) is redrawn whenever the game changes; each redraw is folded
// and filtered again before it is painted.
(() => {
  "use strict";

  const FILTERS = ["attention", "unordered", "reserve"];
  const filters = { text: "", side: "", attention: false, unordered: false, reserve: false };
  // Groups the umpire closed while a search or filter was showing them (forgotten when it changes).
  let peekClosed = new Set();
  let store = { folds: [], view: "" };
  let storeKey = "";
  const picked = { brigade: "", units: [] };

  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
  const board = () => $("#units .board");
  const tools = () => document.getElementById("board-tools");

  function load(game) {
    storeKey = `referee.core.board.${game}`;
    try {
      const saved = JSON.parse(localStorage.getItem(storeKey) || "{}");
      store = { folds: Array.isArray(saved.folds) ? saved.folds : [], view: saved.view || "" };
    } catch (e) {
      store = { folds: [], view: "" };
    }
  }

  function save() {
    try { localStorage.setItem(storeKey, JSON.stringify(store)); } catch (e) { /* private mode: keep in memory */ }
    saveCookie();
  }

  // The folds for the server, which sends a folded brigade without its cards (web/serving/folds.py: ids of
  // letters, digits, "_", ":" and "-", separated by dots; another id is simply sent whole).
  function saveCookie() {
    const t = tools();
    if (!t) return;
    const ids = store.folds.filter((id) => /^[A-Za-z0-9_:-]{1,60}$/.test(id)).join(".");
    const name = `board-folds-${t.dataset.game}`;
    document.cookie = ids ? `${name}=${ids}; path=/; max-age=31536000; SameSite=Lax`
      : `${name}=; path=/; max-age=0; SameSite=Lax`;
  }

  // --- brigades sent without their cards ------------------------------------------------------

  const cardsOf = (group) => $(":scope > [data-cards]", group);
  const lacks = (group) => { const c = cardsOf(group); return Boolean(c && "later" in c.dataset); };
  // A folded line's index of its brigade's units: [id, name, letters of the filter facts].
  const LETTERS = { a: "attention", o: "orderable", r: "reserve", l: "lost" };
  const indexes = new WeakMap();
  function indexOf(group) {
    const line = $(":scope > summary", group);
    if (!line || !line.dataset.index) return [];
    let found = indexes.get(line);
    if (!found) {
      let raw = [];
      try { raw = JSON.parse(line.dataset.index); } catch (e) { raw = []; }
      found = raw.map(([id, name, letters]) => {
        const d = { unit: id, name, side: group.dataset.side || "", brigade: group.dataset.foldId };
        for (const [letter, key] of Object.entries(LETTERS)) d[key] = letters.includes(letter) ? "1" : "";
        return d;
      });
      indexes.set(line, found);
    }
    return found;
  }
  // The brigades whose cards this page lacks (sent with every request).
  const lacking = () => $$("#units [data-cards][data-later]").map((c) => c.parentElement.dataset.foldId);

  // Ask for the cards of the groups given (one request for all of them); a group asked for already
  // is not asked again until its answer came.
  function fetchCards(groups) {
    const b = board();
    const wanted = groups.filter((g) => !("asking" in cardsOf(g).dataset));
    if (!wanted.length || !b || !b.dataset.cardsUrl || !window.htmx) return;
    const url = new URL(b.dataset.cardsUrl, location.href);
    for (const g of wanted) {
      cardsOf(g).dataset.asking = "1";
      url.searchParams.append("b", g.dataset.foldId);
    }
    htmx.ajax("GET", url.pathname + url.search, { target: cardsOf(wanted[0]), swap: "none" }).finally(() => {
      for (const g of wanted) {
        const c = cardsOf(g);
        if (!c) continue;
        delete c.dataset.asking;
        // A poll sent while it lacked them may have left out what changed: ask again.
        if ("again" in c.dataset) { delete c.dataset.again; if (g.open) fetchCards([g]); }
      }
    });
  }

  // A folded group's cards let go (nothing picked in it): the page holds only what is open.
  function dropCards(group) {
    const c = cardsOf(group);
    if (!c || "later" in c.dataset || "asking" in c.dataset) return;
    if (picked.brigade === group.dataset.foldId && picked.units.length) return;
    c.replaceChildren();
    c.dataset.later = "";
  }

  document.addEventListener("htmx:configRequest", (event) => {
    const ids = lacking();
    if (ids.length) event.detail.headers["X-Board-Lacking"] = ids.join(".");
    if (event.detail.elt instanceof Element && event.detail.elt.id === "poll") pollLacked = new Set(ids);
  });
  // The brigades the last poll was sent lacking: cards that came for them since may miss its changes.
  let pollLacked = new Set();

  // What is typed, folded as the server folds the names (referee/core/board.py: folded).
  const fold = (text) => text.trim().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

  const filtering = () => Boolean(filters.text || filters.side || FILTERS.some((f) => filters[f]));

  // A filter's fact about a unit. A Black Powder card says whether it could still take an order
  // this turn (data-orderable); the turn bar says which side is to play (data-active-side), so a
  // new side to play redraws one bar, not three hundred cards. A Rig says data-unordered itself.
  function flag(d, f) {
    if (f === "unordered" && !("unordered" in d)) {
      const bar = document.querySelector("[data-active-side]");
      return Boolean(d.orderable && bar && d.side === bar.dataset.activeSide);
    }
    return Boolean(d[f]);
  }

  // Does a unit pass every filter but ``skip``? The text matches its own name, or its brigade's
  // name or commander (a commander found shows his brigade).
  function passes(d, group, skip) {
    if (skip !== "side" && filters.side && d.side !== filters.side) return false;
    if (skip !== "text" && filters.text) {
      const where = group ? group.dataset.search || "" : "";
      if (!(d.name || "").includes(filters.text) && !where.includes(filters.text)) return false;
    }
    for (const f of FILTERS) {
      if (skip !== f && filters[f] && !flag(d, f)) return false;
    }
    return true;
  }

  // What each unit last showed, by its id: whether it passes the filters, which filters it fails
  // and its group. The counts (shown, hidden, "hides N") are sums over this, so a redraw of a few
  // cards looks at those cards only; the page is written only where something differs, since a
  // write to a hidden or open that did not change still costs the browser a new style pass.
  const seen = new Map();

  function setIf(el, prop, value) {
    if (el[prop] !== value) el[prop] = value;
  }

  // One unit's filters read again (from its data- attributes, or its brigade's index when the page
  // lacks its card, and the turn bar's active side).
  function record(d, group) {
    const ok = passes(d, group, null);
    const fails = FILTERS.filter((f) => !flag(d, f));
    seen.set(d.unit, { ok, fails, group: group ? group.dataset.foldId : "" });
    return ok;
  }
  function noteGroup(group) {
    if (lacks(group)) {
      for (const d of indexOf(group)) record(d, group);
    } else {
      for (const u of $$("[data-unit]", group)) note(u, group);
    }
  }
  function note(unit, group) {
    const d = unit.dataset;
    const ok = record(d, group);
    setIf(unit, "hidden", !ok);
    if (picked.units.length || "picked" in d) {
      const box = $("[data-pick]", unit);
      const on = picked.units.includes(d.unit);
      if (box) setIf(box, "checked", on);
      if (on) d.picked = "1"; else delete d.picked;
    }
  }

  // One group folded or opened as the tablet keeps it, or as the search and filters show it.
  function showGroup(group, active, folds, shownIn) {
    const id = group.dataset.foldId;
    const n = shownIn.get(id) || 0;
    const shown = $("[data-fold-shown]", group);
    if (active) {
      setIf(group, "hidden", n === 0);
      setIf(group, "open", n > 0 && !peekClosed.has(id));
      if (shown) setIf(shown, "textContent", `${n} found`);
    } else {
      setIf(group, "hidden", false);
      setIf(group, "open", !folds.has(id));
      if (shown) setIf(shown, "textContent", "");
    }
    const folded = folds.has(id) ? "1" : "";
    if (group.dataset.folded !== folded) group.dataset.folded = folded;
  }

  // The board's state applied to the page. ``only`` (elements swapped in by a redraw) limits the
  // work to the units and groups inside them; without it, every unit is read again (a search, a
  // filter, a fold, the turn passing to the other side, the whole board redrawn).
  function apply(only) {
    const b = board();
    if (!b) return;
    const view = store.view || b.dataset.defaultView || "full";
    if (document.body.dataset.boardView !== view) document.body.dataset.boardView = view;
    const toggle = $("[data-view-toggle]");
    if (toggle) toggle.setAttribute("aria-pressed", String(view === "compact"));

    const active = filtering();
    let groups;
    const folds = new Set(store.folds);
    if (only) {
      const touched = new Set();
      for (const el of only) {
        const unit = el.closest("[data-unit]");
        const units = unit ? [unit] : $$("[data-unit]", el);
        for (const u of units) {
          const group = u.closest("[data-fold-id]");
          note(u, group);
          if (group) touched.add(group);
        }
        const group = el.closest("[data-fold-id]");
        if (group) touched.add(group);
        for (const g of $$("[data-fold-id]", el)) touched.add(g);
      }
      groups = [...touched];
      // A group without its cards: its folded line's index read again.
      for (const g of groups) if (lacks(g)) noteGroup(g);
    } else {
      seen.clear();
      groups = $$("[data-fold-id]", b);
      for (const g of groups) {
        if (!active && folds.has(g.dataset.foldId)) dropCards(g);
        noteGroup(g);
      }
      for (const u of $$("[data-unit]", b)) if (!u.closest("[data-fold-id]")) note(u, null);
    }

    const hides = Object.fromEntries(FILTERS.map((f) => [f, 0]));
    const shownIn = new Map();
    let shown = 0;
    for (const s of seen.values()) {
      for (const f of s.fails) hides[f] += 1;
      if (s.ok) {
        shown += 1;
        if (s.group) shownIn.set(s.group, (shownIn.get(s.group) || 0) + 1);
      }
    }
    for (const group of groups) showGroup(group, active, folds, shownIn);
    // Groups shown open without their cards: ask for them.
    const wanting = groups.filter((g) => g.open && !g.hidden && lacks(g));
    if (wanting.length) fetchCards(wanting);
    for (const side of $$("[data-side-box]", b)) {
      setIf(side, "hidden", active && !$$("[data-fold-id]", side).some((g) => !g.hidden));
    }

    const t = tools();
    if (!t) return;
    for (const f of FILTERS) {
      const el = $(`[data-hides="${f}"]`, t);
      if (el) setIf(el, "textContent", `· hides ${hides[f]}`);
    }
    const count = $("#board-count");
    const word = t.dataset.word || "units";
    const total = seen.size;
    const text = active ? `${shown} of ${total} ${word} shown, ${total - shown} hidden` : "";
    if (count) setIf(count, "textContent", text);
  }

  // --- the controls ---------------------------------------------------------------------------

  function setFilter(name, value) {
    filters[name] = value;
    peekClosed = new Set();
    apply();
  }

  document.addEventListener("input", (event) => {
    if (event.target.id !== "board-find") return;
    setFilter("text", fold(event.target.value));
  });

  document.addEventListener("click", (event) => {
    const t = tools();
    if (!t) return;
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;

    const summary = target.closest(".board [data-fold-id] > summary");
    if (summary) {
      // The folds are the tablet's own: remembered, unless a search is showing the group.
      event.preventDefault();
      const id = summary.parentElement.dataset.foldId;
      if (filtering()) {
        if (peekClosed.has(id)) peekClosed.delete(id); else peekClosed.add(id);
      } else {
        const folds = new Set(store.folds);
        if (folds.has(id)) folds.delete(id); else folds.add(id);
        store.folds = [...folds];
        save();
      }
      apply();
      return;
    }

    const sideButton = target.closest("[data-side-filter]");
    if (sideButton) {
      $$("[data-side-filter]", t).forEach((b) => b.setAttribute("aria-pressed", String(b === sideButton)));
      setFilter("side", sideButton.dataset.sideFilter);
      return;
    }
    const filter = target.closest("[data-filter]");
    if (filter) {
      const on = filter.getAttribute("aria-pressed") !== "true";
      filter.setAttribute("aria-pressed", String(on));
      setFilter(filter.dataset.filter, on);
      return;
    }
    if (target.closest("[data-view-toggle]")) {
      const b = board();
      const now = store.view || (b && b.dataset.defaultView) || "full";
      store.view = now === "compact" ? "full" : "compact";
      save();
      apply();
      return;
    }
    const foldAll = target.closest("[data-fold-all]");
    if (foldAll) {
      const b = board();
      const ids = b ? $$("[data-fold-id]", b).map((g) => g.dataset.foldId) : [];
      const closing = foldAll.dataset.foldAll === "fold";
      if (filtering()) peekClosed = new Set(closing ? ids : []);
      store.folds = closing ? ids : [];
      save();
      apply();
      return;
    }
    const pickMode = target.closest("[data-pick-mode]");
    if (pickMode) {
      const on = pickMode.getAttribute("aria-pressed") !== "true";
      pickMode.setAttribute("aria-pressed", String(on));
      document.body.dataset.boardPick = on ? "1" : "";
      if (!on) clearPicks();
      showPicks();
      return;
    }
    if (target.closest("[data-pick-clear]")) {
      clearPicks();
      return;
    }
    const go = target.closest("[data-pick-go]");
    if (go && window.htmx) {
      // The form opens in the panel as any other; the link's own address works without htmx.
      event.preventDefault();
      htmx.ajax("GET", go.href, { target: "#panel", swap: "outerHTML show:#panel:top" });
      history.pushState({ htmx: true }, "", go.href);
    }
  });

  // --- picking units of one brigade -----------------------------------------------------------

  document.addEventListener("change", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || !box.matches("[data-pick]")) return;
    const unit = box.closest("[data-unit]");
    const brigade = unit.dataset.brigade;
    let note = "";
    if (box.checked) {
      if (picked.brigade && picked.brigade !== brigade) {
        // An order goes to units of one brigade: picking in another starts again there.
        note = "An order goes to one brigade: the units picked in the other were let go. ";
        picked.units = [];
      }
      picked.brigade = brigade;
      if (!picked.units.includes(unit.dataset.unit)) picked.units.push(unit.dataset.unit);
    } else {
      picked.units = picked.units.filter((id) => id !== unit.dataset.unit);
      if (!picked.units.length) picked.brigade = "";
    }
    apply();
    showPicks(note);
  });

  function clearPicks() {
    picked.units = [];
    picked.brigade = "";
    apply();
    showPicks();
  }

  function showPicks(note = "") {
    const bar = document.getElementById("pick-bar");
    if (!bar) return;
    const on = document.body.dataset.boardPick === "1";
    bar.hidden = !on;
    if (!on) return;
    const n = picked.units.length;
    const group = picked.brigade && document.getElementById(`brigade-${picked.brigade}`);
    const name = group ? ($("h3", group) || group).textContent.trim() : "";
    $("#pick-count").textContent = note + (n ? `${n} picked from ${name}` : "Tap the units of one brigade to pick them.");
    for (const link of $$("[data-pick-go]", bar)) {
      // Shown only when it can be used: a brigade order wants units, a shot one shooter.
      link.hidden = !(n > 0 && (!("single" in link.dataset) || n === 1));
      const url = new URL(bar.dataset[link.dataset.pickGo], location.href);
      for (const id of picked.units) url.searchParams.append(link.dataset.param, id);
      link.href = url.pathname + url.search;
    }
  }

  // In pick mode a tap on a unit picks it instead of opening its panel.
  document.addEventListener("click", (event) => {
    if (document.body.dataset.boardPick !== "1") return;
    const card = event.target instanceof Element && event.target.closest("#units [data-unit] > a.card");
    if (!card) return;
    event.preventDefault();
    event.stopPropagation();
    const box = $("[data-pick]", card.parentElement);
    box.checked = !box.checked;
    box.dispatchEvent(new Event("change", { bubbles: true }));
  }, true);

  // --- start, and after every redraw ----------------------------------------------------------

  function start() {
    const t = tools();
    const b = board();
    if (!t || !b) return;
    load(t.dataset.game);
    saveCookie();
    t.hidden = false;
    const find = document.getElementById("board-find");
    if (find && find.value) filters.text = fold(find.value);
    apply();
  }

  document.addEventListener("DOMContentLoaded", start);
  // After a redraw, before it is painted. htmx fires its swap events on every element swapped in,
  // and an out-of-band swap fires them again on all those swapped before it in the same answer (a
  // poll bringing 30 cards fires some 500): the elements are gathered, and the board applied once
  // to them, when htmx has done its swapping (a microtask runs before the browser paints).
  const swapped = new Set();
  // Elements applied already: htmx fires htmx:load on them again when it settles, a task later.
  const done = new WeakSet();
  let queued = false;
  function flush() {
    queued = false;
    const els = [...swapped].filter((el) => el.isConnected);
    swapped.clear();
    els.forEach((el) => done.add(el));
    for (const el of els) {
      // A brigade's cards come (web/serving/folds.py): its page now holds them. (htmx names the elements
      // an out-of-band swap put inside the container, not the container.)
      const box = el.closest("[data-cards]");
      if (box && "later" in box.dataset && box.querySelector("[data-unit]")) delete box.dataset.later;
      // A poll's answer left out the cards of the brigades it was sent lacking: any of them asked
      // for or come since then may miss its changes, so they are asked for again.
      if (el.id === "poll") {
        for (const id of pollLacked) {
          const group = document.getElementById(`brigade-${id}`);
          const c = group && cardsOf(group);
          if (!c) continue;
          if ("asking" in c.dataset) c.dataset.again = "1";
          else if (!("later" in c.dataset)) fetchCards([group]);
        }
        pollLacked = new Set();
      }
    }
    if (!storeKey) { start(); return; }
    const b = board();
    if (!b) return;
    // The whole board, or the turn bar (the side to play decides "not yet ordered"), or a part
    // that holds the board: everything is read again. A card, a folded line: those alone.
    if (els.some((el) => el.contains(b) || el.matches("[data-active-side]") || el.querySelector("[data-active-side]"))) {
      apply();
      return;
    }
    const inBoard = els.filter((el) => b.contains(el));
    if (inBoard.length) apply(inBoard);
  }
  for (const name of ["htmx:afterSwap", "htmx:oobAfterSwap", "htmx:load"]) {
    document.addEventListener(name, (event) => {
      if (!(event.target instanceof Element)) return;
      if (name === "htmx:load" && done.has(event.target)) return;
      swapped.add(event.target);
      if (!queued) { queued = true; queueMicrotask(flush); }
    });
  }
  // Another tab of the same tablet folded something: follow it.
  window.addEventListener("storage", (event) => {
    const t = tools();
    if (t && event.key === storeKey) { load(t.dataset.game); apply(); }
  });
})();
