"""How a figure is drawn: two values, the change in words, an inline SVG bar pair (HTML), or its text
equivalent (every other builder).

The SVG draws both values as bars on one axis, logarithmic when the values span an order of magnitude
or more (so 1e-1 against 2e-6 stays readable), linear otherwise. Colours come from CSS custom
properties, so the figure follows furo's light and dark schemes.
"""

from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING

from docutils import nodes

from .. import nodes as cn
from ..i18n import _
from ..metric import metric_from_node

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.writers.html5 import HTML5Translator

    from ..model import Metric

_WIDTH = 240
_BAR_HEIGHT = 14
_GAP = 6
_LABEL_WIDTH = 52


def _bar_lengths(m: Metric) -> tuple[float, float]:
    """Bar lengths in [4, 1] × the plot width, on a log or linear scale."""
    plot = _WIDTH - _LABEL_WIDTH - 4
    values = (abs(m.before), abs(m.after))
    if m.log_scale:
        lo = math.floor(math.log10(min(values)))
        hi = math.ceil(math.log10(max(values)))
        span = max(hi - lo, 1)
        return tuple(4 + (plot - 4) * (math.log10(v) - lo) / span for v in values)  # type: ignore[return-value]
    top = max(values) or 1.0
    return tuple(4 + (plot - 4) * v / top for v in values)  # type: ignore[return-value]


def _scale(m: Metric) -> str:
    """The scale's name, in English (a data attribute)."""
    return "log scale" if m.log_scale else "linear scale"


def metric_svg(m: Metric) -> str:
    """The inline SVG; every text from the page is escaped; the SVG itself is hidden from screen
    readers, which read the text equivalent beside it."""
    before_len, after_len = _bar_lengths(m)
    height = 2 * _BAR_HEIGHT + _GAP
    rows = []
    for i, (name, length, css) in enumerate(
        ((_("before"), before_len, "contrib-bar-before"), (_("after"), after_len, "contrib-bar-after"))
    ):
        y = i * (_BAR_HEIGHT + _GAP)
        rows.append(
            f'<text x="0" y="{y + _BAR_HEIGHT - 3}" class="contrib-bar-label">{escape(name)}</text>'
            f'<rect x="{_LABEL_WIDTH}" y="{y}" width="{length:.1f}" height="{_BAR_HEIGHT}" '
            f'rx="2" class="{css}"></rect>'
        )
    return (
        f'<svg class="contrib-metric-svg" viewBox="0 0 {_WIDTH} {height}" width="{_WIDTH}" '
        f'height="{height}" aria-hidden="true" focusable="false" data-scale="{_scale(m)}">' + "".join(rows) + "</svg>"
    )


def visit_metric_html(self: HTML5Translator, node: cn.metric) -> None:
    m = metric_from_node(node)
    esc = self.encode
    unit = f' <span class="contrib-metric-unit">{esc(m.unit)}</span>' if m.unit else ""
    verdict = {True: "better", False: "worse", None: "same"}[m.improved]
    scale = _("log scale") if m.log_scale else _("linear scale")
    better = _("lower is better") if m.better == "lower" else _("higher is better")
    hidden = _("(%(better)s; chart on a %(scale)s)") % {"better": better, "scale": scale}
    self.body.append(
        f'<figure class="contrib-metric contrib-metric-{verdict}">'
        f'<figcaption class="contrib-metric-label">{esc(m.label)}</figcaption>'
        f'<div class="contrib-metric-body">'
        f'<p class="contrib-metric-values">'
        f'<span class="contrib-metric-before"><span class="contrib-metric-tag">{esc(_("before"))}</span> '
        f'<data value="{esc(repr(m.before))}">{esc(m.before_text)}</data>{unit}</span> '
        f'<span class="contrib-metric-arrow" aria-hidden="true">→</span> '
        f'<span class="contrib-metric-after"><span class="contrib-metric-tag">{esc(_("after"))}</span> '
        f'<data value="{esc(repr(m.after))}">{esc(m.after_text)}</data>{unit}</span> '
        f'<strong class="contrib-metric-change">{esc(m.change_words(_))}</strong>'
        f'<span class="contrib-visually-hidden"> {esc(hidden)}'
        f"</span></p>"
        f'<span class="contrib-metric-chart">{metric_svg(m)}'
        f'<span class="contrib-metric-scale" aria-hidden="true">{esc(scale)}</span></span></div></figure>'
    )
    raise nodes.SkipNode


def metrics_to_text(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: builders without an HTML visitor get each metric's text equivalent."""
    if app.builder.format == "html":
        return
    for node in list(doctree.findall(cn.metric)):
        node.replace_self(nodes.paragraph(text=metric_from_node(node).as_text(_)))


def setup_metric_render(app: Sphinx) -> None:
    app.add_node(cn.metric, html=(visit_metric_html, None))
    app.connect("doctree-resolved", metrics_to_text)
