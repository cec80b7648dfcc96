// The rules dialog: a rule link loads its entry into the dialog body (htmx) and the dialog opens
// beside the page. Nothing under it is redrawn, so a form half filled in stays as it was.
(function () {
  function dialog() { return document.getElementById("rule-dialog"); }

  document.addEventListener("htmx:afterSwap", (event) => {
    const d = dialog();
    if (!d || !(event.target instanceof Element) || event.target.id !== "rule-dialog-body") return;
    if (!d.open) d.showModal();
    d.scrollTop = 0;
    event.target.scrollTop = 0;
  });

  document.addEventListener("click", (event) => {
    const d = dialog();
    if (!d) return;
    if (event.target.closest("[data-close-rules]")) { d.close(); return; }
    if (event.target !== d) return;
    const box = d.getBoundingClientRect();  // a tap on the backdrop, outside the dialog itself
    if (event.clientX < box.left || event.clientX > box.right || event.clientY < box.top || event.clientY > box.bottom) d.close();
  });
})();
