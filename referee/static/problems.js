// A list builder's problems (issue 52 item 8). Each problem is drawn at the row it is about, and
// listed in the summary that stays on top of the screen; a tap on one in the summary takes the
// player to its row: the row comes up just below the summary and gets the focus, so the next Tab
// lands in its fields (the row, not a box, is focused: no on-screen keyboard jumps up). Without
// JavaScript the link still leads to the row (its scroll margin keeps it clear of the summary).
(() => {
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element && event.target.closest("#problems a[data-row]");
    if (!link) return;
    const row = document.getElementById(link.hash.slice(1));
    if (!row) return;
    event.preventDefault();
    const fold = row.closest("details");
    if (fold) fold.open = true;
    const summary = document.getElementById("problems");
    const sticky = summary && getComputedStyle(summary).position === "sticky";
    const clear = sticky ? summary.getBoundingClientRect().height + 8 : 8;
    window.scrollTo({ top: window.scrollY + row.getBoundingClientRect().top - clear, behavior: "instant" });
    row.focus({ preventScroll: true });
  });
})();
