// Draws the leaderboard chart from the figure the server built (json_script).
(function () {
  const source = document.getElementById("leaderboard-figure");
  const target = document.getElementById("leaderboard-chart");
  if (!source || !target || !window.Plotly) return;
  const figure = JSON.parse(source.textContent);
  window.Plotly.newPlot(target, figure.data, figure.layout, { responsive: true, displaylogo: false });
})();
