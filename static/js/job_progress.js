// Follows every unfinished job on the page (an element with data-status-url):
// updates its .job-progress bar, .job-progress-text and .job-status while it
// runs, then reloads once it finishes so the server renders the results.
// A page that names what it rendered (data-status, data-attempts, data-stuck)
// also reloads when that changes: a worker took the job, or stopped.
(function () {
  document.querySelectorAll("[data-status-url]").forEach(function (job) {
    if (job.dataset.finished === "true") return;
    const bar = job.querySelector(".job-progress");
    const text = job.querySelector(".job-progress-text");
    const status = job.querySelector(".job-status");

    function changed(data) {
      const shown = job.dataset;
      return (
        (shown.status !== undefined && shown.status !== data.status) ||
        (shown.attempts !== undefined && shown.attempts !== String(data.attempts)) ||
        (shown.stuck !== undefined && shown.stuck !== String(data.stuck))
      );
    }

    async function poll() {
      try {
        const response = await fetch(job.dataset.statusUrl, { headers: { Accept: "application/json" } });
        if (response.ok) {
          const data = await response.json();
          bar.value = data.progress;
          text.textContent = data.progress + "%";
          status.textContent = data.status_label || data.status;
          status.className = "job-status status status-" + data.status;
          if (data.finished || changed(data)) {
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
  });
})();
