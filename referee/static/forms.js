// A long pick list in an action form (a Waterloo order's units, a shot's targets) comes folded by
// brigade (web/chips.py). Its find box shows, as it is typed, the chips whose unit or brigade
// holds the words, opening their folds; emptied, the folds are as they were. Without JavaScript
// the box stays hidden and every fold still opens on a tap.
(() => {
  const fold = (text) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

  function showFinders(root) {
    root.querySelectorAll(".chip-find[hidden]").forEach((box) => { box.hidden = false; });
  }
  document.addEventListener("DOMContentLoaded", () => showFinders(document));
  document.addEventListener("htmx:load", (event) => showFinders(event.target));

  // While something is typed, a fold shows if it holds a unit found; emptied, it is as it was,
  // or open if it holds what was picked meanwhile.
  function reveal(box, finding, found) {
    if (!("wasOpen" in box.dataset)) box.dataset.wasOpen = box.open ? "1" : "";
    box.hidden = finding && !found;
    box.open = finding ? found : box.dataset.wasOpen === "1" || box.querySelector("input:checked") !== null;
    if (!finding) delete box.dataset.wasOpen;
  }

  document.addEventListener("input", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || !box.matches("[data-chip-find]")) return;
    const field = box.closest("fieldset");
    if (!field) return;
    const words = fold(box.value).split(/\s+/).filter(Boolean);
    field.querySelectorAll("details.chip-fold").forEach((group) => {
      const name = fold(group.querySelector("summary").textContent);
      let shown = 0;
      group.querySelectorAll("label.chip").forEach((chip) => {
        const hit = words.every((w) => (name + " " + fold(chip.textContent)).includes(w));
        chip.hidden = words.length > 0 && !hit;
        if (hit) shown += 1;
      });
      reveal(group, words.length > 0, shown > 0);
    });
    // The likely picks (web/chips.py), shown first: those found, the box gone if none is.
    field.querySelectorAll(".chip-likely").forEach((box) => {
      let shown = 0;
      box.querySelectorAll("label.chip").forEach((chip) => {
        const hit = words.every((w) => fold(chip.textContent).includes(w));
        chip.hidden = words.length > 0 && !hit;
        if (hit) shown += 1;
      });
      box.hidden = words.length > 0 && shown === 0;
    });
    // A side's box: open while it holds a unit found.
    field.querySelectorAll("details.chip-side").forEach((side) => {
      reveal(side, words.length > 0, side.querySelector("details.chip-fold:not([hidden])") !== null);
    });
  });
})();
