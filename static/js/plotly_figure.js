// Draws every element with data-figure="ID" from the Plotly figure the server
// built and embedded with json_script under that ID.
//
// Plotly's SVG cuts off whatever sticks out of the chart, and long system
// names as tick labels or in a legend beside the plot took all but 64 px of
// a 366 px phone chart. So category tick labels are shortened to what a
// third of the chart's width holds (a quarter on a phone), legend entries to
// what the legend's room holds (the hover label and the tables keep the full
// names), and a narrow chart (a phone) gets more: the legend under the plot
// with the chart grown by its rows, panels side by side stacked, long titles
// wrapped, tick labels kept inside (automargin), no mode bar (it covered the
// title). A wide chart whose legend and tick labels would leave the plot
// under 40% of its width gets its legend under the plot too. A chart is
// drawn again when its width changes.
(function () {
  if (!window.Plotly) return;
  const NARROW = 560; // px: a chart narrower than this is adapted
  const CHARACTER = 7; // px: about one character of a tick label
  const TITLE = 34; // characters of a title line
  const ROW = 20; // px of a legend row

  // Labels come escaped (exports.chart_text: "&lt;b&gt;" shows as "<b>"):
  // they are measured and cut as shown, then escaped again, so a cut never
  // splits an entity. Text with markup (ORANGE's legends) is left whole:
  // cutting it could break a tag. A short parenthesis at the end (a
  // system's "(BP 0.918)") is kept whole.
  const ENTITIES = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&#39;": "'" };
  function shown(text) {
    return text.replace(/&(lt|gt|amp|quot|#39);/g, (entity) => ENTITIES[entity]);
  }
  function escaped(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }
  function shorten(text, n) {
    text = String(text);
    if (text.indexOf("<") >= 0) return text;
    const plain = shown(text);
    if (plain.length <= n) return text;
    let tail = (plain.match(/ \([^()]*\)$/) || [""])[0];
    if (tail.length > n / 2) tail = "";
    const head = plain.slice(0, plain.length - tail.length);
    return escaped(head.slice(0, n - tail.length - 1) + "\u2026" + tail);
  }

  function wrap(text, n) {
    if (text.length <= n || text.indexOf("<") >= 0) return [text];
    const lines = [];
    let line = "";
    text.split(" ").forEach(function (word) {
      if (line && (line + " " + word).length > n) {
        lines.push(line);
        line = word;
      } else {
        line = line ? line + " " + word : word;
      }
    });
    if (line) lines.push(line);
    return lines;
  }

  function titleText(title) {
    return typeof title === "string" ? title : title && title.text;
  }

  // Category axes whose labels are long get shortened labels at the same
  // values (the categories, their order and the hover text are unchanged).
  // A y axis's labels take the plot's width: a third of a wide chart, a
  // quarter of a phone's; an x axis's turn on their side when crowded, so
  // they may be longer.
  function shortenTicks(data, layout, limits) {
    ["x", "y"].forEach(function (letter) {
      const limit = limits[letter];
      const axes = {};
      data.forEach(function (trace) {
        const key = letter + "axis" + String(trace[letter + "axis"] || letter).slice(1);
        (trace[letter] || []).forEach(function (value) {
          if (typeof value === "string") (axes[key] = axes[key] || new Set()).add(value);
        });
      });
      Object.keys(axes).forEach(function (key) {
        const values = Array.from(axes[key]);
        const axis = (layout[key] = Object.assign({}, layout[key]));
        if (axis.tickmode === "array" || ["date", "linear", "log"].includes(axis.type)) return;
        if (!values.some((v) => shown(v).length > limit && !/^[\d\s:.+\-T]+$/.test(v))) return;
        axis.tickmode = "array";
        axis.tickvals = values;
        axis.ticktext = values.map((v) => shorten(v, limit));
      });
    });
  }

  // Panels side by side (x axes with their own domains, each y axis
  // anchored to its x axis, as the readability charts draw them) go one
  // under the other, each as tall as the plot was, with the gap of a bottom
  // margin between them for the tick labels; a panel title (an annotation
  // above a panel) goes with its panel.
  function stackPanels(layout, margin) {
    const keys = Object.keys(layout)
      .filter((key) => /^xaxis\d*$/.test(key) && layout[key].domain)
      .sort((a, b) => layout[a].domain[0] - layout[b].domain[0]);
    if (keys.length < 2) return;
    const panels = keys.map(function (key) {
      const suffix = key.slice(5);
      return { x: key, y: "yaxis" + suffix, suffix: suffix, domain: layout[key].domain };
    });
    if (!panels.every((p) => layout[p.y] && !layout[p.y].domain)) return;
    const top = margin.t === undefined ? 80 : margin.t;
    const bottom = margin.b === undefined ? 80 : margin.b;
    const plot = (layout.height || 450) - top - bottom;
    const gap = bottom + 30;
    const total = panels.length * plot + (panels.length - 1) * gap;
    panels.forEach(function (panel, index) {
      const high = 1 - (index * (plot + gap)) / total;
      const low = high - plot / total;
      layout[panel.x] = Object.assign({}, layout[panel.x], { domain: [0, 1], anchor: "y" + panel.suffix });
      layout[panel.y] = Object.assign({}, layout[panel.y], { domain: [low, high] });
      (layout.annotations || []).forEach(function (note) {
        const x = note.x;
        if (note.xref === "paper" && note.yref === "paper" && x >= panel.domain[0] && x <= panel.domain[1]) {
          Object.assign(note, { x: 0.5, y: high + (note.y - 1) * (plot / total) + 0.005 });
        }
      });
    });
    layout.height = top + bottom + total;
  }

  function legendEntries(data) {
    return data.filter(function (trace) {
      return trace.showlegend !== false && trace.name && (trace.type || "scatter") !== "heatmap";
    });
  }

  // A legend beside the plot (Plotly's default) with long y tick labels
  // beside it too: the plot kept a third of a 681 px chart (the
  // leaderboard's clusters, whose legend title is long). Then the legend
  // goes under the plot on a wide chart as well.
  function crowded(data, layout, width) {
    const entries = legendEntries(data);
    if (entries.length < 2) return false;
    const legendTitle = titleText(layout.legend && layout.legend.title) || "";
    const legend = Math.max(shown(legendTitle).length, ...entries.map((t) => shown(String(t.name)).length));
    let labels = 0;
    Object.keys(layout).forEach(function (key) {
      if (!/^yaxis\d*$/.test(key)) return;
      (layout[key].ticktext || layout[key].categoryarray || []).forEach(function (text) {
        labels = Math.max(labels, shown(String(text)).length);
      });
    });
    data.forEach(function (trace) {
      (trace.y || []).forEach(function (value) {
        if (typeof value === "string") labels = Math.max(labels, Math.min(shown(value).length, width / 3 / CHARACTER));
      });
    });
    const plot = width - (legend + 5) * CHARACTER - labels * CHARACTER - 60;
    return plot < width * 0.4;
  }

  // The legend at the chart's foot, under the axis title: the bottom margin
  // and the chart grow by its rows, not the plot. On a phone one row an
  // entry; on a wide chart as many entries a row as fit.
  function legendUnder(data, layout, margin, width, narrow) {
    const entries = legendEntries(data);
    if (entries.length < 2) return;
    const legend = (layout.legend = Object.assign({}, layout.legend, {
      orientation: "h",
      x: 0,
      xanchor: "left",
      yref: "container",
      y: 0,
      yanchor: "bottom",
    }));
    if (legend.title) legend.title = Object.assign({}, legend.title, { side: "top" });
    let rows = entries.length;
    if (!narrow) {
      const longest = Math.max(...entries.map((t) => shown(String(t.name)).length));
      const perRow = Math.max(1, Math.floor((width - 20) / (longest * CHARACTER + 50)));
      rows = Math.ceil(entries.length / perRow);
    }
    rows += legend.title ? 1 : 0;
    margin.b = (margin.b === undefined ? 80 : margin.b) + ROW * rows;
    layout.height = (layout.height || 450) + ROW * rows;
  }

  function fitted(figure, width, narrow) {
    // A legend beside the plot takes a third of the chart; under it
    // (narrow), the whole width.
    const entry = narrow
      ? Math.floor((width - 60) / CHARACTER)
      : Math.max(36, Math.floor(width / 3 / CHARACTER));
    const data = figure.data.map(function (trace) {
      const copy = Object.assign({}, trace);
      if (typeof copy.name === "string") copy.name = shorten(copy.name, entry);
      return copy;
    });
    const layout = Object.assign({}, figure.layout);
    const label = Math.max(12, Math.floor(width / (narrow ? 4 : 3) / CHARACTER));
    shortenTicks(data, layout, { x: Math.max(24, label), y: label });
    const margin = (layout.margin = Object.assign({}, layout.margin));
    const axes = Object.keys(layout).filter((key) => /^[xy]axis\d*$/.test(key));
    function automargins() {
      new Set(axes.concat(["xaxis", "yaxis"])).forEach(function (key) {
        if (!layout[key] || layout[key].automargin === undefined)
          layout[key] = Object.assign({}, layout[key], { automargin: true });
      });
    }
    if (!narrow) {
      if (layout.showlegend !== false && crowded(data, layout, width)) {
        automargins();
        legendUnder(data, layout, margin, width, false);
      }
      return { data: data, layout: layout };
    }
    automargins();
    if (layout.annotations) layout.annotations = layout.annotations.map((note) => Object.assign({}, note));
    stackPanels(layout, margin);
    // Long x axis titles wrap (a phone showed 60 px of them at most).
    Object.keys(layout).forEach(function (key) {
      const text = /^xaxis\d*$/.test(key) && titleText(layout[key].title);
      if (!text) return;
      const lines = wrap(text, Math.floor(width / CHARACTER) - 4);
      if (lines.length > 1) {
        const axisTitle = typeof layout[key].title === "object" ? layout[key].title : {};
        const title = Object.assign({}, axisTitle, { text: lines.join("<br>") });
        layout[key] = Object.assign({}, layout[key], { title: title });
        margin.b = (margin.b === undefined ? 80 : margin.b) + 16 * (lines.length - 1);
        layout.height = (layout.height || 450) + 16 * (lines.length - 1);
      }
    });
    const title = titleText(layout.title);
    if (title) {
      const lines = wrap(title, TITLE);
      layout.title = Object.assign({}, typeof layout.title === "object" ? layout.title : {}, {
        text: lines.join("<br>"),
      });
      margin.t = (margin.t === undefined ? 80 : margin.t) + 16 * (lines.length - 1);
    }
    if (layout.showlegend !== false) legendUnder(data, layout, margin, width, true);
    return { data: data, layout: layout };
  }

  function draw(target, figure) {
    const width = target.clientWidth || 700;
    const narrow = width < NARROW;
    // Drawn again only when it crosses NARROW or its width changes by more
    // than a scroll bar (a full-page screenshot hides the scroll bar, and a
    // chart drawn again then was measured half drawn).
    const before = Number(target.dataset.drawnFor);
    if (before && (before < NARROW) === narrow && Math.abs(before - width) < 40) return;
    target.dataset.drawnFor = String(width);
    const shown = fitted(figure, width, narrow);
    // A chart box of a fixed height (the system page's grid) grows with
    // the figure, or would cut off its foot.
    if (shown.layout.height !== figure.layout.height) {
      target.style.height = shown.layout.height + "px";
      target.dataset.grown = "yes";
    } else if (target.dataset.grown) {
      target.style.height = "";
      delete target.dataset.grown;
    }
    window.Plotly.react(target, shown.data, shown.layout, {
      responsive: true,
      displaylogo: false,
      displayModeBar: narrow ? false : "hover",
    });
  }

  const drawn = new Map(); // chart element -> its figure as the server built it
  function plot(target, figure) {
    delete target.dataset.drawnFor;
    drawn.set(target, figure);
    draw(target, figure);
  }
  // For figures fetched later (the correlations page's scatter plot).
  window.mtdashPlot = plot;
  document.querySelectorAll("[data-figure]").forEach(function (target) {
    const source = document.getElementById(target.dataset.figure);
    if (source) plot(target, JSON.parse(source.textContent));
  });
  let pending = null;
  window.addEventListener("resize", function () {
    clearTimeout(pending);
    pending = setTimeout(function () {
      drawn.forEach(function (figure, target) {
        draw(target, figure);
      });
    }, 150);
  });
})();
