// Review page: g/1, w/2, u/3 press the matching verdict button (one item at a time).
(function () {
  "use strict";
  var form = document.getElementById("review-form");
  if (!form) return;
  var keys = {};
  form.querySelectorAll("button[data-key]").forEach(function (button) {
    button.getAttribute("data-key").split(" ").forEach(function (key) {
      keys[key] = button;
    });
  });
  var sent = false;
  document.addEventListener("keydown", function (event) {
    if (sent || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
    var button = keys[event.key.toLowerCase()];
    if (!button) return;
    event.preventDefault();
    sent = true; // one verdict per page: a held key must not mark the next item
    button.classList.add("pressed");
    if (form.requestSubmit) form.requestSubmit(button); else button.click();
  });
})();
