// Error spans: a marked span reached with Tab (or clicked) is described in
// words under its row, so a keyboard user sees its severity and category as
// a mouse user does in the tooltip. Screen readers read the mark's own
// aria-label; the note is hidden from them.
(function () {
  function note(mark) {
    const row = mark.closest(".span-row");
    return row && row.querySelector(".span-focus");
  }
  document.addEventListener("focusin", function (event) {
    const mark = event.target.closest && event.target.closest("mark.error-span[tabindex]");
    if (!mark) return;
    const target = note(mark);
    if (!target) return;
    target.textContent = mark.getAttribute("aria-label");
    target.hidden = false;
  });
  document.addEventListener("focusout", function (event) {
    const mark = event.target.closest && event.target.closest("mark.error-span[tabindex]");
    if (!mark) return;
    const target = note(mark);
    if (target) target.hidden = true;
  });
})();
