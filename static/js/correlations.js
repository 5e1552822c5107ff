// The metric-evaluation page: a click on a correlation cell fetches the
// scatter plot of that metric against that criterion (a Plotly figure built
// and escaped by the server) and draws it below the table.
(function () {
  const table = document.getElementById("correlation-table");
  const panel = document.getElementById("scatter-panel");
  if (!table || !panel || !window.Plotly) return;
  const chart = document.getElementById("scatter-chart");
  const title = document.getElementById("scatter-title");
  const note = document.getElementById("scatter-note");
  const disagreements = document.getElementById("scatter-disagreements");

  function show(button) {
    const metric = button.dataset.metric;
    const criterion = button.dataset.criterion;
    const query = new URLSearchParams({ level: table.dataset.level, metric: metric, criterion: criterion });
    table.querySelectorAll("td.selected").forEach(function (cell) { cell.classList.remove("selected"); });
    button.closest("td").classList.add("selected");
    title.textContent = metric + " against " + criterion;
    disagreements.href = button.parentElement.querySelector("a.disagree").href;
    note.textContent = "Loading…";
    panel.hidden = false;
    fetch(table.dataset.scatterUrl + "?" + query.toString(), { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (data) {
        window.mtdashPlot(chart, data.figure);  // plotly_figure.js: fitted to the chart's width
        note.textContent = data.note;
        panel.scrollIntoView({ behavior: "smooth", block: "nearest" });
      })
      .catch(function (error) { note.textContent = "Could not load the scatter plot (" + error.message + ")."; });
  }

  table.addEventListener("click", function (event) {
    const button = event.target.closest("button.cell-button");
    if (button) show(button);
  });
  document.getElementById("scatter-close").addEventListener("click", function () {
    panel.hidden = true;
    table.querySelectorAll("td.selected").forEach(function (cell) { cell.classList.remove("selected"); });
  });
})();
