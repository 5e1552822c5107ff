// While workers will change the leaderboard (scoring jobs running, intervals
// and clusters pending), polls its small status JSON and reloads the page
// once the state it shows is out of date, so the statistics appear without
// a manual reload. A page with nothing pending does not poll.
(function () {
  const region = document.getElementById("leaderboard-region");
  if (!region || region.dataset.pending !== "true") return;
  let delay = 2000;
  // Once the user follows a link (or leaves otherwise), a reload would
  // cancel that navigation and keep them here: stop polling.
  let leaving = false;
  window.addEventListener("beforeunload", () => { leaving = true; });

  async function poll() {
    if (leaving) return;
    try {
      const response = await fetch(region.dataset.refreshUrl, { headers: { Accept: "application/json" } });
      if (response.ok) {
        const data = await response.json();
        if (data.state !== region.dataset.state) {
          if (!leaving) window.location.reload();
          return;
        }
        if (!data.pending) return;
      }
    } catch (error) {
      // A dropped request is retried on the next tick.
    }
    // Every 2 s at first, then less often while nothing changes (at most 10 s).
    delay = Math.min(delay * 1.25, 10000);
    window.setTimeout(poll, delay);
  }
  window.setTimeout(poll, delay);
})();
