// Follows every unfinished job on the page (an element with data-status-url):
// updates its .job-progress bar, .job-progress-text and .job-status while it
// runs, and its [data-job-queue] box (its place in the queue, what runs
// before it) while it waits, then reloads once it finishes so the server
// renders the results. A page that names what it rendered (data-status,
// data-attempts, data-stuck) also reloads when that changes: a worker took
// the job, or stopped.
(function () {
  // "2026-11-28T08:10:11.123+00:00" -> "08:10:11" (the page's times are UTC).
  function clock(iso) {
    return iso.slice(11, 19);
  }

  function showQueue(box, place) {
    if (!box) return;
    box.hidden = !place;
    if (!place) return;
    box.querySelector(".job-queue-summary").textContent = place.summary;
    // Text nodes only: worker names come from the database.
    const items = place.running.map(function (work) {
      const item = document.createElement("li");
      const worker = document.createElement("code");
      worker.textContent = work.worker;
      item.append(work.kind + " on ", worker);
      if (work.started_at) item.append(" since " + clock(work.started_at));
      if (work.stuck) item.append(" (stopped)");
      return item;
    });
    box.querySelector(".job-queue-running").replaceChildren(...items);
  }

  // Once the person sends a form from the page (run a job again, cancel
  // it), the page leaves on its own: a reload now would cancel that request's
  // answer (the server did the work, the person never sees its message), and
  // the form's own change is what the poll would notice first. A form a
  // script sends itself (default prevented) leaves the page where it is.
  let leaving = false;
  document.addEventListener("submit", function (event) {
    if (!event.defaultPrevented) leaving = true;
  });

  document.querySelectorAll("[data-status-url]").forEach(function (job) {
    if (job.dataset.finished === "true") return;
    const bar = job.querySelector(".job-progress");
    const text = job.querySelector(".job-progress-text");
    const status = job.querySelector(".job-status");
    const queue = job.querySelector("[data-job-queue]");

    function changed(data) {
      const shown = job.dataset;
      return (
        (shown.status !== undefined && shown.status !== data.status) ||
        (shown.attempts !== undefined && shown.attempts !== String(data.attempts)) ||
        (shown.stuck !== undefined && shown.stuck !== String(data.stuck))
      );
    }

    async function poll() {
      if (leaving) return;
      try {
        const response = await fetch(job.dataset.statusUrl, { headers: { Accept: "application/json" } });
        if (response.ok) {
          const data = await response.json();
          bar.value = data.progress;
          text.textContent = data.progress + "%";
          status.textContent = data.status_label || data.status;
          status.className = "job-status status status-" + data.status;
          showQueue(queue, data.queue);
          if (leaving) return;
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
