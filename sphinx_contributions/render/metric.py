"""How a figure is drawn: two values, the change in words, an inline SVG bar pair (HTML and ePub), a small
table with drawn bars (LaTeX), or its text equivalent (text, man, Texinfo, …).

The chart is drawn only where it is truthful (:attr:`.Metric.chart`): on a linear scale the bars start at
zero and are proportional to the values; on a log scale (positive values ten times apart or more) they
start at a power of ten below the smaller value. A negative value, or two zeros, get no chart: the
values and the words alone. Colours come from CSS custom properties, so the figure follows furo's
light and dark schemes.
"""

from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING

from docutils import nodes

from .. import nodes as cn
from ..i18n import _
from ..metric import metric_from_node
from .links import EXTERNAL_REL

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.writers.html5 import HTML5Translator
    from sphinx.writers.latex import LaTeXTranslator

    from ..model import Metric

_WIDTH = 240
_BAR_HEIGHT = 14
_GAP = 6
_LABEL_WIDTH = 52
#: the length of a bar at the top of the scale
PLOT = _WIDTH - _LABEL_WIDTH - 4
SCALE_NAMES = {"log": "log scale", "linear": "linear scale from 0"}
#: the LaTeX bars' longest length, in points
_LATEX_BAR = 120


def bar_lengths(m: Metric) -> tuple[float, float] | None:
    """The two bars' lengths in [0, :data:`PLOT`], or None when no chart is truthful.

    Linear: proportional to the values from zero. Log: proportional to ``log10(value) - lo``, where
    ``lo`` is the power of ten at or below the smaller value (one lower when it is exactly a power of
    ten, so both bars show); the longer bar ends at the power of ten at or above the larger value."""
    if m.chart is None:
        return None
    if m.chart == "log":
        logs = (math.log10(m.before), math.log10(m.after))  # both positive: subnormals included
        lo = math.floor(min(logs))
        lo -= lo == min(logs)
        span = max(math.ceil(max(logs)) - lo, 1)
        return PLOT * (logs[0] - lo) / span, PLOT * (logs[1] - lo) / span
    top = max(m.before, m.after)  # > 0, both values ≥ 0
    return PLOT * (m.before / top), PLOT * (m.after / top)  # divide first: PLOT * 1e308 overflows


def metric_svg(m: Metric) -> str:
    """The inline SVG ("" when no chart is truthful); no text from the page is in it; hidden from
    screen readers, which read the text equivalent beside it."""
    lengths = bar_lengths(m)
    if lengths is None:
        return ""
    height = 2 * _BAR_HEIGHT + _GAP
    rows = []
    for i, (name, length, css) in enumerate(
        ((_("before"), lengths[0], "contrib-bar-before"), (_("after"), lengths[1], "contrib-bar-after"))
    ):
        y = i * (_BAR_HEIGHT + _GAP)
        rows.append(
            f'<text x="0" y="{y + _BAR_HEIGHT - 3}" class="contrib-bar-label">{escape(name)}</text>'
            f'<rect x="{_LABEL_WIDTH}" y="{y}" width="{length:.1f}" height="{_BAR_HEIGHT}" '
            f'class="{css}"></rect>'
        )
    axis = f'<line x1="{_LABEL_WIDTH}" y1="0" x2="{_LABEL_WIDTH}" y2="{height}" class="contrib-bar-axis"></line>'
    return (
        f'<svg class="contrib-metric-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {height}" '
        f'width="{_WIDTH}" height="{height}" aria-hidden="true" focusable="false" '
        f'data-scale="{SCALE_NAMES[m.chart or "linear"]}">' + "".join(rows) + axis + "</svg>"
    )


def visit_metric_html(self: HTML5Translator, node: cn.metric) -> None:
    m = metric_from_node(node)
    esc = self.encode
    unit = f' <span class="contrib-metric-unit">{esc(m.unit)}</span>' if m.unit else ""
    check = _("a no-regression check, ") if m.expect == "hold" else ""
    chart = ""
    better = _("lower is better") if m.better == "lower" else _("higher is better")
    hidden = f"{check}{better}"
    if m.chart is not None:
        scale = _(SCALE_NAMES[m.chart])
        hidden += "; " + _("chart on a %(scale)s") % {"scale": scale}
        chart = (
            f'<span class="contrib-metric-chart">{metric_svg(m)}'
            f'<span class="contrib-metric-scale" aria-hidden="true">{esc(scale)}</span></span>'
        )
    approximate = ' class="contrib-metric-approximate"'
    self.body.append(
        f'<figure class="contrib-metric contrib-metric-{m.verdict}">'
        f'<figcaption class="contrib-metric-label">{esc(m.label)}</figcaption>'
        f'<div class="contrib-metric-body">'
        f'<p class="contrib-metric-values">'
        f'<span class="contrib-metric-before"><span class="contrib-metric-tag">{esc(_("before"))}</span> '
        f'<data value="{esc(repr(m.before))}"{approximate * m.before_approximate}>{esc(m.before_text)}</data>'
        f"{unit}</span> "
        f'<span class="contrib-metric-arrow" aria-hidden="true">→</span> '
        f'<span class="contrib-metric-after"><span class="contrib-metric-tag">{esc(_("after"))}</span> '
        f'<data value="{esc(repr(m.after))}"{approximate * m.after_approximate}>{esc(m.after_text)}</data>'
        f"{unit}</span> "
        f'<strong class="contrib-metric-change">{esc(m.change_words(_))}</strong>'
        f'<span class="contrib-visually-hidden"> ({esc(hidden)})</span></p>'
        f"{chart}</div>{_evidence_html(self, m)}</figure>"
    )
    raise nodes.SkipNode


def _evidence_html(self: HTML5Translator, m: Metric) -> str:
    """The figure's evidence: a line of links under its values."""
    if not m.evidence:
        return ""
    links = ", ".join(
        f'<a class="reference external contrib-evidence-{item.kind}" href="{self.encode(item.url)}" '
        f'rel="{EXTERNAL_REL}">{self.encode(item.text)}</a>'
        for item in m.evidence
    )
    return f'<p class="contrib-metric-evidence"><span class="contrib-metric-tag">evidence</span> {links}</p>'


def visit_metric_latex(self: LaTeXTranslator, node: cn.metric) -> None:
    """A small table: the label; before and after, each with its value and, where a chart is truthful, a
    bar drawn to the same scale as the HTML chart; the change in words, which way is better, and the
    evidence as links."""
    m = metric_from_node(node)
    esc = self.encode
    unit = f"~{esc(m.unit)}" if m.unit else ""
    lengths = bar_lengths(m)
    bars = ("", "")
    check = _("a no-regression check, ") if m.expect == "hold" else ""
    notes = check + (_("lower is better") if m.better == "lower" else _("higher is better"))
    if lengths is not None and m.chart is not None:
        before_len, after_len = (length * _LATEX_BAR / PLOT for length in lengths)
        bars = (
            rf" & \textcolor{{gray}}{{\rule{{{before_len:.1f}pt}}{{1.4ex}}}}",
            rf" & \rule{{{after_len:.1f}pt}}{{1.4ex}}",
        )
        notes += "; " + _("chart on a %(scale)s") % {"scale": _(SCALE_NAMES[m.chart])}
    evidence = ", ".join(rf"\sphinxhref{{{self.encode_uri(item.url)}}}{{{esc(item.text)}}}" for item in m.evidence)
    self.body.append(
        "\n\\par\\medskip\\noindent"
        rf"\sphinxstylestrong{{{esc(m.label)}}}\par\nobreak\noindent"
        "\n"
        "\\begin{tabular}{@{}lrl@{}}\n"
        rf"{esc(_('before'))} & {esc(m.before_text)}{unit}{bars[0]}\\"
        "\n"
        rf"{esc(_('after'))} & {esc(m.after_text)}{unit}{bars[1]}\\"
        "\n"
        "\\end{tabular}\\par\\nobreak\\noindent\n"
        rf"\sphinxstylestrong{{{esc(m.change_words(_))}}} ({esc(notes)})"
        "\n"
        + (rf"\par\nobreak\noindent {esc(_('evidence'))}: {evidence}" "\n" if evidence else "")
        + "\\par\\medskip\n"
    )
    raise nodes.SkipNode


def metrics_to_text(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: builders without a visitor of their own (text, man, Texinfo, …) get each
    metric's text equivalent."""
    if app.builder.format in {"html", "latex"}:
        return
    for node in list(doctree.findall(cn.metric)):
        m = metric_from_node(node)
        paragraph = nodes.paragraph(text=m.as_text(_))
        for i, item in enumerate(m.evidence):
            paragraph += nodes.Text(_(" Evidence: ") if i == 0 else ", ")
            paragraph += nodes.reference(item.text, item.text, refuri=item.url)
        if m.evidence:
            paragraph += nodes.Text(".")
        node.replace_self(paragraph)


def setup_metric_render(app: Sphinx) -> None:
    app.add_node(cn.metric, html=(visit_metric_html, None), latex=(visit_metric_latex, None))
    app.connect("doctree-resolved", metrics_to_text)
