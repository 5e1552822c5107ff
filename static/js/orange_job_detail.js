// The ORANGE job page: follows the job's progress while it runs (then reloads so
// the server renders the results), and draws the cutoff curve the server built.
(function () {
  const job = document.getElementById("orange-job");
  if (job && job.dataset.finished !== "true") {
    const bar = document.getElementById("orange-job-progress");
    const text = document.getElementById("orange-job-progress-text");
    const status = document.getElementById("orange-job-status");
    const poll = async function () {
      try {
        const response = await fetch(job.dataset.statusUrl, { headers: { Accept: "application/json" } });
        if (response.ok) {
          const data = await response.json();
          bar.value = data.progress;
          text.textContent = data.progress + "%";
          status.textContent = data.status;
          status.className = "status status-" + data.status;
          if (data.finished) {
            window.location.reload();
            return;
          }
        }
      } catch (error) {
        // A dropped request is retried on the next tick.
      }
      window.setTimeout(poll, 1000);
    };
    window.setTimeout(poll, 500);
  }

  const source = document.getElementById("orange-curve-figure");
  const target = document.getElementById("orange-curve");
  if (source && target && window.Plotly) {
    const figure = JSON.parse(source.textContent);
    window.Plotly.newPlot(target, figure.data, figure.layout, { responsive: true, displaylogo: false });
  }
})();
