// System page: choosing another metric or word-frequency source redraws the
// analyses at once (the form still works without JavaScript, by its button).
(function () {
  const form = document.getElementById("analysis-form");
  if (!form) return;
  form.querySelectorAll("select").forEach(function (select) {
    select.addEventListener("change", function () { form.submit(); });
  });
  const button = document.getElementById("analysis-submit");
  if (button) button.style.display = "none";
})();
