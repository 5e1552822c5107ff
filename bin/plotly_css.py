#!/usr/bin/env python3
"""Write the style sheet Plotly would otherwise insert into each page.

Plotly.js adds its global CSS rules (modebar, notifier, cursors) at load
time through a ``<style>`` element, which the strict Content-Security-Policy
(``style-src 'self'``) refuses. Plotly skips that when the page already has
an element ``#plotly.js-style-global.no-inline-styles``: ``_plotly.html``
links this file under that id. The rules are read from the bundle itself
(an object literal of selector -> declarations, ``X`` standing for
``.js-plotly-plot .plotly`` and ``Y`` for ``.plotly-notifier``), so the
file matches the vendored version.

    python bin/plotly_css.py static/vendor/plotly-basic-3.3.0.min.js \
        > static/vendor/plotly-basic-3.3.0.css
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

START = "{"
LOOP = re.compile(r"for\((\w+) in (\$?\w+)\)(\w+)=\1\.replace\(/\^,/")
STRING = r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'"
# A key is quoted, or a bare name when it needs no quotes (``Y:``).
PAIR = re.compile(rf"\s*({STRING}|[A-Za-z_$][\w$]*)\s*:\s*({STRING})\s*(,|\}})")


def rules(bundle: str) -> list[tuple[str, str]]:
    """(selector, declarations) in the bundle's order, placeholders expanded."""
    loop = LOOP.search(bundle)
    if loop is None:
        raise SystemExit("the bundle has no global style rules loop (Plotly changed)")
    name = loop.group(2)
    start = bundle.rindex(f"{name}={START}", 0, loop.start()) + len(name) + 2
    found, position = [], start
    while True:
        pair = PAIR.match(bundle, position)
        if pair is None:
            raise SystemExit(f"cannot read the rules at offset {position}")
        selector, declarations = (_unquote(pair.group(i)) for i in (1, 2))
        selector = re.sub(r"^,", " ,", selector)
        selector = selector.replace("X", ".js-plotly-plot .plotly")
        selector = selector.replace("Y", ".plotly-notifier")
        found.append((selector, declarations))
        position = pair.end()
        if pair.group(3) == "}":
            return found


def _unquote(literal: str) -> str:
    if literal[0] not in "\"'":
        return literal
    return re.sub(r"\\(.)", r"\1", literal[1:-1])


def css(bundle_path: Path) -> str:
    header = (
        f"/* Plotly's global rules, read from {bundle_path.name} by "
        "bin/plotly_css.py (MIT, Plotly Technologies Inc.). */\n"
    )
    body = "".join(
        f"{selector} {{ {declarations} }}\n"
        for selector, declarations in rules(bundle_path.read_text())
    )
    return header + body


if __name__ == "__main__":
    sys.stdout.write(css(Path(sys.argv[1])))
