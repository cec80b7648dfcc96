// A list builder's unsaved work (issue: nothing typed is lost). While the builder's form holds
// work not saved, leaving the page (a link, a reload, closing the tab) asks first, and the work is
// kept on this tablet (localStorage, by the form's address) until it is saved or thrown away. The
// builder opened again with a draft kept offers it back: the draft is posted to the builder as its
// Check button would, so rows added meanwhile (a Rig, a brigade) come back too.
(() => {
  const PREFIX = "referee.draft:";
  const SAVING = "referee.draftSaving";
  const SKIP = new Set(["csrf_token", "token", "op"]);

  function snapshot(form) {
    const out = [];
    for (const [name, value] of new FormData(form)) {
      if (!SKIP.has(name) && typeof value === "string") out.push([name, value]);
    }
    return JSON.stringify(out);
  }
  function read(key) {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch { return null; }
  }
  function write(key, fields) {
    try { localStorage.setItem(key, JSON.stringify({ at: Date.now(), fields })); } catch { /* storage full or off */ }
  }
  function drop(key) {
    try { localStorage.removeItem(key); } catch { /* storage off */ }
  }

  function takeSaving() {
    let saving = null;
    try { saving = sessionStorage.getItem(SAVING); sessionStorage.removeItem(SAVING); } catch { /* storage off */ }
    return saving;
  }

  // Saved (the builder left for the list's page): its draft goes. Refused, the builder is drawn
  // again holding the work, and the draft stays.
  document.addEventListener("DOMContentLoaded", () => {
    const saving = takeSaving();
    const form = document.querySelector("form[data-draft]");
    if (saving && !(form && PREFIX + form.dataset.draft === saving)) drop(saving);
    if (form && !form.dataset.watched) watch(form);
  });
  // The builder's buttons send it through htmx (web/serving/page_forms.py): drawn again (a row
  // added, a Save refused), it comes in place of the page's, and is watched as it was on loading.
  // Saved, the tablet goes to the list's page, a page load of its own.
  document.addEventListener("htmx:load", (event) => {
    const root = event.target;
    if (!(root instanceof Element)) return;
    const form = root.matches("form[data-draft]") ? root : root.querySelector("form[data-draft]");
    if (!form || form.dataset.watched) return;
    const saving = takeSaving();
    if (saving && PREFIX + form.dataset.draft !== saving) drop(saving);
    watch(form);
  });

  function watch(form) {
    form.dataset.watched = "1";
    const key = PREFIX + form.dataset.draft;
    const drawn = snapshot(form);
    const kept = read(key);
    let dirty = form.dataset.unsaved === "1";
    if (dirty) write(key, JSON.parse(drawn));
    else if (kept && JSON.stringify(kept.fields) !== drawn) offer(form, key, kept);

    const changed = () => {
      const now = snapshot(form);
      dirty = form.dataset.unsaved === "1" || now !== drawn;
      if (dirty) write(key, JSON.parse(now));
      else drop(key);
    };
    form.addEventListener("input", changed);
    form.addEventListener("change", changed);
    form.addEventListener("submit", (event) => {
      form.dataset.leaving = "1";
      const button = event.submitter;
      if (button && button.name === "op" && button.value === "save") {
        try { sessionStorage.setItem(SAVING, key); } catch { /* storage off */ }
      }
    });
    // Sent through htmx and not answered with another page (no answer, or drawn again in place):
    // leaving is warned of again.
    form.addEventListener("htmx:afterRequest", (event) => {
      const xhr = event.detail.xhr;
      if (form.isConnected && !(xhr && xhr.getResponseHeader("HX-Redirect"))) delete form.dataset.leaving;
    });
    window.addEventListener("beforeunload", (event) => {
      if (!form.isConnected || !dirty || form.dataset.leaving) return;
      event.preventDefault();
      event.returnValue = "";
    });
  }

  function offer(form, key, kept) {
    const box = document.createElement("div");
    box.className = "draft-offer message";
    box.setAttribute("role", "status");
    const when = new Date(kept.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const said = document.createElement("p");
    said.textContent = `This tablet kept work on this form that was not saved (last typed at ${when}).`;
    const back = document.createElement("button");
    Object.assign(back, { type: "button", className: "btn primary", textContent: "Bring it back" });
    const away = document.createElement("button");
    Object.assign(away, { type: "button", className: "btn", textContent: "Throw it away" });
    const row = document.createElement("div");
    row.className = "actions";
    row.append(back, away);
    box.append(said, row);
    form.before(box);
    away.addEventListener("click", () => { drop(key); box.remove(); });
    back.addEventListener("click", () => {
      // Posted as the builder's Check button: the builder comes back drawn with the draft.
      const post = document.createElement("form");
      post.method = "post";
      post.action = form.action;
      post.hidden = true;
      const csrf = form.querySelector("input[name=csrf_token]");
      const fields = [...kept.fields, ["op", "check"], ...(csrf ? [["csrf_token", csrf.value]] : [])];
      for (const [name, value] of fields) {
        const input = document.createElement("input");
        Object.assign(input, { type: "hidden", name, value });
        post.appendChild(input);
      }
      document.body.appendChild(post);
      back.disabled = true;
      form.dataset.leaving = "1";
      post.submit();
    });
  }
})();
