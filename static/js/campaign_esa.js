// ESA judging (templates/judgments/campaign_esa.html): mark error spans in
// the translation (or, for what it leaves out, in the source), then score it.
//
// Offsets are code points, as the server (Python) counts them: each text is
// split with Array.from and drawn as one element per character, with
// textContent only (the texts come from json_script, never as HTML). A
// caret and a selection live in each text box: arrow keys move the caret
// (Ctrl/Alt: by word), Shift extends, Enter marks with the chosen severity
// (1 minor, 2 major) and category; a mouse or touch selection inside a box
// becomes that box's selection. Every mark and removal can be undone.
// The spans go to the form's hidden "spans" field as JSON on every change.
(function () {
  "use strict";
  const page = document.getElementById("esa");
  const form = document.getElementById("esa-form");
  const data = document.getElementById("esa-texts");
  if (!page || !form || !data) return;
  const texts = JSON.parse(data.textContent);
  const field = document.getElementById("esa-spans-field");
  const list = document.getElementById("esa-spans");
  const none = document.getElementById("esa-none");
  const count = document.getElementById("esa-count");
  const status = document.getElementById("esa-status");
  const category = document.getElementById("esa-category");
  const undoButton = document.getElementById("esa-undo");
  const markButton = document.getElementById("esa-mark");
  const slider = document.getElementById("esa-score-slider");
  const score = document.getElementById("esa-score");
  const submit = document.getElementById("esa-submit");
  const SIDE_NAMES = { target: "translation", source: "source" };
  const RANK = { minor: 1, major: 2 };

  let spans = []; // {side, start, end, severity, category}
  const history = []; // earlier states of spans, for undo
  let sent = false;

  function makeBox(side) {
    const element = document.getElementById("esa-" + side);
    const chars = Array.from(texts[side]);
    const nodes = chars.map(function (char, i) {
      const node = document.createElement("span");
      node.className = "esa-char";
      node.dataset.i = String(i);
      node.textContent = char;
      return node;
    });
    const end = document.createElement("span"); // where the caret sits at the end
    end.className = "esa-end";
    end.dataset.i = String(chars.length);
    end.setAttribute("aria-hidden", "true");
    nodes.push(end);
    element.replaceChildren(...nodes);
    return { side: side, element: element, chars: chars, nodes: nodes, caret: 0, anchor: 0 };
  }
  const boxes = { target: makeBox("target"), source: makeBox("source") };
  let active = boxes.target;

  function say(text) {
    status.textContent = text;
  }

  function selection(box) {
    return [Math.min(box.anchor, box.caret), Math.max(box.anchor, box.caret)];
  }

  function excerpt(side, start, end) {
    const text = boxes[side].chars.slice(start, end).join("");
    return text.length > 60 ? text.slice(0, 59) + "…" : text;
  }

  function draw() {
    for (const side in boxes) {
      const box = boxes[side];
      const worst = new Array(box.chars.length).fill(0);
      for (const span of spans) {
        if (span.side !== side) continue;
        for (let i = span.start; i < span.end; i++) {
          worst[i] = Math.max(worst[i], RANK[span.severity]);
        }
      }
      const [start, end] = selection(box);
      box.nodes.forEach(function (node, i) {
        node.classList.toggle("esa-caret", i === box.caret);
        if (i >= box.chars.length) return;
        node.classList.toggle("esa-selected", i >= start && i < end);
        node.classList.toggle("severity-minor", worst[i] === 1);
        node.classList.toggle("severity-major", worst[i] === 2);
      });
    }
  }

  function drawList() {
    const shown = spans.slice().sort(function (a, b) {
      return (a.side === b.side ? 0 : a.side === "target" ? -1 : 1) || a.start - b.start;
    });
    const items = shown.map(function (span) {
      const item = document.createElement("li");
      const severity = document.createElement("mark");
      severity.className = "error-span severity-" + span.severity;
      severity.textContent = span.severity;
      const quoted = document.createElement("q");
      quoted.textContent = excerpt(span.side, span.start, span.end);
      const about = document.createElement("small");
      about.textContent =
        (span.side === "source" ? "in the source" : "in the translation") +
        (span.category ? " · " + span.category : "");
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "link esa-remove";
      remove.textContent = "Remove";
      remove.setAttribute("aria-label", "Remove the " + span.severity + " error " + quoted.textContent);
      remove.addEventListener("click", function () {
        removeSpan(span);
      });
      item.append(severity, " ", quoted, " ", about, " ", remove);
      return item;
    });
    list.replaceChildren(...items);
    none.hidden = spans.length > 0;
    count.textContent = String(spans.length);
    undoButton.disabled = history.length === 0;
    field.value = JSON.stringify(spans);
  }

  function changed() {
    draw();
    drawList();
  }

  function remember() {
    history.push(spans.map(function (span) { return Object.assign({}, span); }));
  }

  function severityChosen() {
    const checked = page.querySelector("input[name=esa-severity]:checked");
    return checked ? checked.value : "minor";
  }

  function chooseSeverity(value) {
    const radio = page.querySelector('input[name=esa-severity][value="' + value + '"]');
    if (radio) radio.checked = true;
    say(value === "major" ? "Severity: major." : "Severity: minor.");
  }

  function mark() {
    const box = active;
    const [start, end] = selection(box);
    if (start === end) {
      say("Select the characters of the error first (Shift with the arrow keys, or the mouse).");
      return;
    }
    if (spans.some(function (s) { return s.side === box.side && s.start === start && s.end === end; })) {
      say("Those characters are marked already.");
      return;
    }
    remember();
    const span = { side: box.side, start: start, end: end, severity: severityChosen(), category: category.value };
    spans.push(span);
    box.anchor = box.caret = end;
    clearNativeSelection();
    changed();
    say("Marked a " + span.severity + " error in the " + SIDE_NAMES[box.side] + ": “" + excerpt(box.side, start, end) + "”.");
  }

  function removeSpan(span) {
    remember();
    spans = spans.filter(function (s) { return s !== span; });
    changed();
    say("Removed the " + span.severity + " error “" + excerpt(span.side, span.start, span.end) + "”.");
  }

  function removeAt(box, position) {
    // The latest error covering that character.
    for (let k = spans.length - 1; k >= 0; k--) {
      const span = spans[k];
      if (span.side === box.side && span.start <= position && position < span.end) {
        removeSpan(span);
        return;
      }
    }
    say("No error marked there.");
  }

  function undo() {
    if (!history.length) {
      say("Nothing to undo.");
      return;
    }
    spans = history.pop();
    changed();
    say("Undone: " + spans.length + " error" + (spans.length === 1 ? "" : "s") + " marked.");
  }

  // Caret movement -------------------------------------------------------
  const isSpace = function (char) { return /\s/u.test(char); };

  function wordRight(box, position) {
    let i = position;
    while (i < box.chars.length && isSpace(box.chars[i])) i++;
    while (i < box.chars.length && !isSpace(box.chars[i])) i++;
    return i;
  }

  function wordLeft(box, position) {
    let i = position;
    while (i > 0 && isSpace(box.chars[i - 1])) i--;
    while (i > 0 && !isSpace(box.chars[i - 1])) i--;
    return i;
  }

  function moveTo(box, position, extend) {
    box.caret = Math.max(0, Math.min(box.chars.length, position));
    if (!extend) box.anchor = box.caret;
    clearNativeSelection();
    draw();
    const [start, end] = selection(box);
    if (end > start) say("Selected “" + excerpt(box.side, start, end) + "” (" + (end - start) + " characters).");
  }

  function onBoxKey(event) {
    const box = boxes[event.currentTarget.dataset.side];
    active = box;
    const byWord = event.ctrlKey || event.altKey;
    let target = null;
    if (event.key === "ArrowRight") target = byWord ? wordRight(box, box.caret) : box.caret + 1;
    else if (event.key === "ArrowLeft") target = byWord ? wordLeft(box, box.caret) : box.caret - 1;
    else if (event.key === "Home") target = 0;
    else if (event.key === "End") target = box.chars.length;
    if (target !== null) {
      event.preventDefault();
      moveTo(box, target, event.shiftKey);
      return;
    }
    if (event.key === "Enter") {
      event.preventDefault();
      mark();
    } else if (event.key === "Escape") {
      event.preventDefault();
      moveTo(box, box.caret, false);
      say("Selection cleared.");
    } else if (event.key === "Backspace" || event.key === "Delete") {
      event.preventDefault();
      removeAt(box, event.key === "Backspace" ? box.caret - 1 : box.caret);
    }
  }

  // Mouse and touch selections -------------------------------------------
  // The keyboard's selection replaces the mouse's (its selectionchange
  // event then finds no range and changes nothing).
  function clearNativeSelection() {
    const native = window.getSelection();
    if (native && native.rangeCount) native.removeAllRanges();
  }

  function positionOf(box, node, offset) {
    if (node === box.element) return Math.min(offset, box.chars.length);
    const element = node.nodeType === Node.TEXT_NODE ? node.parentNode : node;
    if (!element || element.dataset.i === undefined) return null;
    const i = Number(element.dataset.i);
    return i >= box.chars.length ? box.chars.length : offset > 0 ? i + 1 : i;
  }

  document.addEventListener("selectionchange", function () {
    const native = window.getSelection();
    if (!native || !native.rangeCount) return;
    const range = native.getRangeAt(0);
    for (const side in boxes) {
      const box = boxes[side];
      const starts = box.element.contains(range.startContainer);
      const ends = box.element.contains(range.endContainer);
      if (!starts && !ends) continue;
      // A selection running out of the box (a triple click) stops at its edge.
      const start = starts ? positionOf(box, range.startContainer, range.startOffset) : 0;
      const end = ends ? positionOf(box, range.endContainer, range.endOffset) : box.chars.length;
      if (start === null || end === null) return;
      active = box;
      box.anchor = start;
      box.caret = end;
      draw();
      if (end > start) say("Selected “" + excerpt(side, start, end) + "”: choose a severity, then Mark selection.");
      return;
    }
  });

  // Score ------------------------------------------------------------------
  function scoreGiven() {
    return score.value !== "" && score.checkValidity();
  }

  function refresh() {
    submit.disabled = !scoreGiven();
  }

  function refreshSlider() {
    slider.classList.toggle("untouched", score.value === "");
  }

  slider.addEventListener("input", function () {
    score.value = slider.value;
    refreshSlider();
    refresh();
  });
  score.addEventListener("input", function () {
    if (score.value !== "") slider.value = score.value;
    refreshSlider();
    refresh();
  });

  form.addEventListener("submit", function (event) {
    if (sent || !scoreGiven()) {
      event.preventDefault();
      if (!sent) say("Give the translation a score from 0 to 100 first.");
      return;
    }
    field.value = JSON.stringify(spans);
    sent = true;
    submit.disabled = true;
  });

  // Wiring -----------------------------------------------------------------
  for (const side in boxes) {
    const box = boxes[side];
    box.element.addEventListener("keydown", onBoxKey);
    box.element.addEventListener("focus", function () {
      active = box;
    });
  }
  markButton.addEventListener("click", mark);
  undoButton.addEventListener("click", undo);

  document.addEventListener("keydown", function (event) {
    const target = event.target;
    const typing = target.closest && target.closest("input[type=number], select, textarea");
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "z") {
      if (typing) return; // the field's own undo
      event.preventDefault();
      undo();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || typing) return;
    if (event.key === "1" || event.key === "2") {
      event.preventDefault();
      chooseSeverity(event.key === "1" ? "minor" : "major");
    }
  });

  changed();
  refreshSlider();
  refresh();
  boxes.target.element.focus({ preventScroll: true });
})();
