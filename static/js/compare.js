// The compare page: the highlight order switch, a click on a scatter point
// opening its sentence, and the whole set's n-gram tables fetched after load
// (their first computation takes longer than a page should).
(function () {
  const list = document.getElementById("compare-sentences");
  const field = document.getElementById("compare-n-field");
  document.querySelectorAll('input[name="highlight-order"]').forEach(function (radio) {
    radio.addEventListener("change", function () {
      if (!list) return;
      list.className = list.className.replace(/\border-\d\b/, "order-" + radio.value);
      if (field) field.value = radio.value;
    });
  });

  const scatter = document.getElementById("compare-scatter");
  function listenForClicks(attempts) {
    if (!scatter) return;
    if (typeof scatter.on !== "function") {
      if (attempts > 0) setTimeout(function () { listenForClicks(attempts - 1); }, 100);
      return;
    }
    scatter.on("plotly_click", function (event) {
      const point = event.points && event.points[0];
      if (!point) return;
      const number = point.customdata;
      window.location.href = scatter.dataset.focusUrl + "&focus=" + number + "#sentence-" + number;
    });
  }
  listenForClicks(50);

  const tables = document.getElementById("ngram-tables");
  if (tables && tables.dataset.url) {
    fetch(tables.dataset.url, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (html) { tables.innerHTML = html; })  // rendered and escaped by the server
      .catch(function () {
        const note = document.getElementById("ngram-loading");
        if (note) note.insertAdjacentText("afterbegin", "The n-gram tables could not be loaded. ");
      });
  }
})();
