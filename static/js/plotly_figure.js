// Draws every element with data-figure="ID" from the Plotly figure the server
// built and embedded with json_script under that ID.
(function () {
  if (!window.Plotly) return;
  document.querySelectorAll("[data-figure]").forEach(function (target) {
    const source = document.getElementById(target.dataset.figure);
    if (!source) return;
    const figure = JSON.parse(source.textContent);
    window.Plotly.newPlot(target, figure.data, figure.layout, { responsive: true, displaylogo: false });
  });
})();
