// Keyboard judging (templates/judgments/campaign_judge.html).
// Points (1-5 scales): a digit key picks that rating. Slider (DA 0-100):
// arrow keys move it by 1 (Shift: 10), digits typed in quick succession
// set the number ("7" "5" = 75); the slider must be moved before it can be
// submitted, so an untouched 50 is never sent. Enter submits once.
(function () {
  const page = document.getElementById("judge");
  const form = document.getElementById("rating-form");
  if (!page || !form) return;
  const submit = document.getElementById("rating-submit");
  const slider = document.getElementById("judge-slider");
  const shown = document.getElementById("judge-slider-value");
  let touched = !slider;
  let sent = false;
  let typed = "";
  let typedAt = 0;

  function ready() {
    if (slider) return touched;
    return form.querySelector("input[name=value]:checked") !== null;
  }

  function refresh() {
    if (slider && touched) shown.textContent = slider.value;
    submit.disabled = !ready();
  }

  function setSlider(value) {
    const low = Number(slider.min);
    const high = Number(slider.max);
    slider.value = String(Math.min(high, Math.max(low, value)));
    touched = true;
    refresh();
  }

  function send() {
    if (sent || !ready()) return;
    sent = true;
    submit.disabled = true;
    form.submit();
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    send();
  });
  form.addEventListener("change", refresh);
  if (slider) {
    slider.addEventListener("input", function () {
      touched = true;
      refresh();
    });
    slider.focus();
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("a")) return; // links keep Enter
    if (event.key === "Enter") {
      event.preventDefault();
      send();
      return;
    }
    if (/^[0-9]$/.test(event.key)) {
      event.preventDefault();
      if (slider) {
        const now = Date.now();
        typed = now - typedAt < 1200 && typed.length < 3 ? typed + event.key : event.key;
        typedAt = now;
        setSlider(Number(typed));
        return;
      }
      const radio = form.querySelector('input[name=value][value="' + event.key + '"]');
      if (radio) {
        radio.checked = true;
        radio.focus();
        refresh();
      }
      return;
    }
    if (slider && event.target !== slider) {
      const step = event.shiftKey ? 10 : 1;
      if (event.key === "ArrowRight" || event.key === "ArrowUp") {
        event.preventDefault();
        setSlider(Number(slider.value) + step);
      } else if (event.key === "ArrowLeft" || event.key === "ArrowDown") {
        event.preventDefault();
        setSlider(Number(slider.value) - step);
      }
    } else if (slider && event.shiftKey && event.key.startsWith("Arrow")) {
      event.preventDefault();
      const up = event.key === "ArrowRight" || event.key === "ArrowUp";
      setSlider(Number(slider.value) + (up ? 10 : -10));
    }
  });
  refresh();
})();
