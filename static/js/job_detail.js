// Polls the job's status while it runs; reloads the page once it finishes so
// the server renders the results.
(function () {
  const job = document.getElementById("job");
  if (!job || job.dataset.finished === "true") return;
  const bar = document.getElementById("job-progress");
  const text = document.getElementById("job-progress-text");
  const status = document.getElementById("job-status");

  async function poll() {
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
  }
  window.setTimeout(poll, 500);
})();
