"""How a figure is drawn: inline SVG (HTML, ePub), a picture (LaTeX), or text; charted only where truthful."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, localcontext
from typing import TYPE_CHECKING

from docutils import nodes
from markupsafe import escape

from .. import nodes as cn
from ..builders import output_of
from ..collect.domain import holds_own_nodes
from ..formatting import SUPERSCRIPT, format_sig
from ..i18n import _
from ..read.metric_directive import metric_from_node
from .links import EXTERNAL_REL

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.writers.html5 import HTML5Translator
    from sphinx.writers.latex import LaTeXTranslator

    from ..records import Metric

#: the chart's geometry, in CSS pixels: no viewBox, so text keeps its size; x positions are percentages
_ROW = 34  # one row: its label ("before"), then its mark
_LABEL_BASELINE = 13
_MARK_Y = 24  # centre of a row's mark (log) or bar (linear)
_BAR_HEIGHT = 12
_MARK_RADIUS = 6
#: a log mark's label runs toward the middle of the plot within this fraction of its edges
_EDGE = 0.8
_LABEL_GAP = 4  # a label that starts at a bar's end, clear of the linear chart's zero line
_TICK = 5
_TICK_LABEL_GAP = 17
_HEIGHT = 2 * _ROW + _TICK + _TICK_LABEL_GAP + 6
_AXIS_Y = 2 * _ROW + 2
#: at most this many labelled ticks on an axis (a log axis over 300 decades labels every 50th)
_MAX_TICKS = 7
#: at most this many labelled ticks on a log axis (a phone leaves ~190 px, a label is ~30 px wide)
_MAX_LOG_TICKS = 5
_MINOR_MOST = 5
_MINOR_TICK = 3
SCALE_NAMES = {"log": "log scale", "linear": "linear scale from 0"}
_LATEX_WIDTH = 220  # the LaTeX chart's width, in points


@dataclass(frozen=True)
class Tick:
    """A labelled tick: its place (0 to 1), value (``1e-6``), label (``10⁻⁶``) and a decade's ``exponent``."""

    at: float
    value: str
    label: str
    exponent: int | None = None

    @property
    def raised(self) -> tuple[str, str]:
        """The label as a base and a raised part: ``("10", "−6")``; ``("50", "")`` for a plain label."""
        if self.exponent is None or self.exponent in (0, 1):
            return self.label, ""
        return "10", str(self.exponent).replace("-", "\u2212")


@dataclass(frozen=True)
class Chart:
    """What a truthful chart draws: the scale, each value's place (0 to 1), the ticks (log: marks; linear: bars)."""

    scale: str
    before: float
    after: float
    ticks: tuple[Tick, ...]
    #: where the decades between two labelled ticks of a log axis sit (0 to 1): short unlabelled ticks
    minor: tuple[float, ...] = ()


def decade_label(exponent: int) -> str:
    """``10⁻⁶``; ``1`` and ``10`` as such."""
    return {0: "1", 1: "10"}.get(exponent, "10" + str(exponent).translate(SUPERSCRIPT))


def _nice_step(raw: Decimal) -> Decimal:
    """The smallest of 1, 2, 5 × 10ⁿ at or above ``raw`` (> 0)."""
    power = Decimal(1).scaleb(raw.adjusted())
    return next(factor * power for factor in (1, 2, 5, 10) if factor * power >= raw)


def chart(m: Metric) -> Chart | None:
    """The chart of a figure, or None where none is truthful (:attr:`.Metric.chart`) or the values are equal."""
    if m.chart is None or m.before == m.after:
        return None
    if m.chart == "log":
        logs = (math.log10(m.before), math.log10(m.after))  # both positive: subnormals included
        lo, hi = math.floor(min(logs)), math.ceil(max(logs))
        step = max(1, math.ceil((hi - lo) / (_MAX_LOG_TICKS - 1)))
        hi = lo + step * math.ceil((hi - lo) / step)
        span = hi - lo
        ticks = tuple(Tick((k - lo) / span, f"1e{k}", decade_label(k), k) for k in range(lo, hi + 1, step))
        minor = tuple((k - lo) / span for k in range(lo, hi + 1) if (k - lo) % step) if step <= _MINOR_MOST else ()
        return Chart("log", (logs[0] - lo) / span, (logs[1] - lo) / span, ticks, minor)
    whole = m.whole
    top = whole or max(m.before, m.after)  # > 0, both values ≥ 0
    values: list[Decimal]
    with localcontext() as context:  # exact decimal steps: no underflow (5e-324) or overflow (1e308)
        context.prec = 40
        exact = Decimal(top)
        values = _count_ticks(exact) if whole else []
        if not values:
            every = _nice_step(exact / (_MAX_TICKS - 3))
            if whole and exact == exact.to_integral_value():
                every = max(every, Decimal(1))  # a count of things: whole steps
            values = [every * i for i in range(int(exact / every) + 1)]
            if whole and values[-1] != exact:  # the axis ends at the count's whole: its last tick
                if exact - values[-1] < every / 2:
                    values.pop()  # too close to the whole's tick for both labels
                values.append(exact)
        ticks = tuple(Tick(float(v / exact), str(v.normalize()), format_sig(v, 3, m.locale)) for v in values)
    return Chart("linear", m.before / top, m.after / top, ticks)  # divide first: a product may overflow


def _count_ticks(whole: Decimal) -> list[Decimal]:
    """Ticks from 0 ending exactly at ``whole`` (``16``: 0, 4, 8, 12, 16), or none where no nice step divides it."""
    counted = whole == whole.to_integral_value()  # a whole number: whole steps
    for power in range(0 if counted else whole.adjusted() - 1, max(0, whole.adjusted()) + 1):
        for factor in ("1", "2", "2.5", "4", "5"):
            step = Decimal(factor).scaleb(power)
            if counted and step != step.to_integral_value():
                continue
            count = whole / step
            if count == count.to_integral_value() and 2 <= count <= _MAX_TICKS - 2:
                return [step * i for i in range(int(count) + 1)]
    return []


def _pct(at: float) -> str:
    return f"{100 * at:.3f}%"


def _label_place(scale: str, at: float, other: float) -> tuple[float, str, int]:
    """A row label's place (0 to 1), anchor and offset: away from the other mark (log) or toward the middle."""
    if scale == "log":
        rightward = at > other
        if rightward and at > _EDGE:
            rightward = False
        elif not rightward and at < 1 - _EDGE:
            rightward = True
        return (at, "start", -_MARK_RADIUS) if rightward else (at, "end", _MARK_RADIUS)
    return (at, "start", _LABEL_GAP) if at < 0.5 else (at, "end", 0)


def _tick_text(tick: Tick) -> str:
    """A tick's label as SVG text: a power of ten with its exponent raised, in a font of its own."""
    base, raised = tick.raised
    if not raised:
        return str(escape(base))
    return f'{escape(base)}<tspan class="contrib-chart-exponent" dy="-0.45em">{escape(raised)}</tspan>'


def metric_svg(m: Metric) -> str:
    """The inline SVG ("" when no chart is truthful), hidden from screen readers, which read the text beside it."""
    drawn = chart(m)
    if drawn is None:
        return ""
    parts = []
    for row, (name, at, other, value, css) in enumerate(
        (
            (_("before"), drawn.before, drawn.after, m.before, "contrib-chart-before"),
            (_("after"), drawn.after, drawn.before, m.after, "contrib-chart-after"),
        )
    ):
        top = row * _ROW
        x, anchor, dx = _label_place(drawn.scale, at, other)
        parts.append(
            f'<text x="{_pct(x)}" dx="{dx}" y="{top + _LABEL_BASELINE}" text-anchor="{anchor}" '
            f'class="contrib-chart-row-label">{escape(name)}</text>'
        )
        mark_y = top + _MARK_Y
        if drawn.scale == "log":
            parts.append(
                f'<line x1="{_pct(at)}" y1="{mark_y}" x2="{_pct(at)}" y2="{_AXIS_Y}" '
                f'class="contrib-chart-drop {css}"></line>'
                f'<circle cx="{_pct(at)}" cy="{mark_y}" r="{_MARK_RADIUS}" class="contrib-chart-mark {css}" '
                f'data-value="{value!r}"></circle>'
            )
        else:
            parts.append(
                f'<rect x="0" y="{mark_y - _BAR_HEIGHT // 2}" width="{_pct(at)}" height="{_BAR_HEIGHT}" '
                f'class="contrib-chart-bar {css}" data-value="{value!r}"></rect>'
            )
    parts.append(f'<line x1="0" y1="{_AXIS_Y}" x2="100%" y2="{_AXIS_Y}" class="contrib-chart-axis"></line>')
    if drawn.scale == "linear":  # the bars' origin
        parts.append(f'<line x1="0" y1="0" x2="0" y2="{_AXIS_Y}" class="contrib-chart-axis"></line>')
    for at in drawn.minor:
        parts.append(
            f'<line x1="{_pct(at)}" y1="{_AXIS_Y}" x2="{_pct(at)}" y2="{_AXIS_Y + _MINOR_TICK}" '
            f'class="contrib-chart-minor-tick"></line>'
        )
    for tick in drawn.ticks:
        parts.append(
            f'<line x1="{_pct(tick.at)}" y1="{_AXIS_Y}" x2="{_pct(tick.at)}" y2="{_AXIS_Y + _TICK}" '
            f'class="contrib-chart-tick" data-value="{tick.value}"></line>'
            f'<text x="{_pct(tick.at)}" y="{_AXIS_Y + _TICK + _TICK_LABEL_GAP - 4}" text-anchor="middle" '
            f'class="contrib-chart-tick-label">{_tick_text(tick)}</text>'
        )
    return (
        f'<svg class="contrib-metric-svg" xmlns="http://www.w3.org/2000/svg" width="100%" height="{_HEIGHT}" '
        f'aria-hidden="true" focusable="false" data-scale="{SCALE_NAMES[drawn.scale]}">' + "\n".join(parts) + "</svg>"
    )


def visit_metric_html(self: HTML5Translator, node: cn.metric) -> None:
    m = metric_from_node(node)
    esc = self.encode
    unit = f' <span class="contrib-metric-unit">{esc(m.unit)}</span>' if m.unit else ""
    check = _("a no-regression check, ") if m.expect == "hold" else ""
    chart = ""
    better = _("lower is better") if m.better == "lower" else _("higher is better")
    hidden = f"{check}{better}"
    svg = metric_svg(m)
    if svg and m.chart is not None:
        scale = _(SCALE_NAMES[m.chart])
        hidden += "; " + _("chart on a %(scale)s") % {"scale": scale}
        chart = (
            f'<div class="contrib-metric-chart">{svg}\n'
            f'<span class="contrib-metric-scale" aria-hidden="true">{esc(scale)}</span></div>'
        )

    def value(side: str, tag: str, number: float, approximate: bool, text: str) -> str:
        shown = ' class="contrib-metric-approximate"' if approximate else ""
        return (
            f'<span class="contrib-metric-{side}"><span class="contrib-metric-tag">{esc(tag)}</span> '
            f'<data value="{esc(repr(number))}"{shown}>{esc(text)}</data>{unit}</span> '
        )

    after = value("after", _("after"), m.after, m.after_approximate, m.after_text)
    values = value("before", _("before"), m.before, m.before_approximate, m.before_text)
    values += f'<span class="contrib-metric-arrow" aria-hidden="true">→</span> {after}'
    if m.expect == "hold" and m.before == m.after:  # a check that held: one value, shown as a check
        values = value("after", _("before and after"), m.after, m.after_approximate, m.after_text)
    kind = " contrib-metric-check" if m.expect == "hold" else ""
    words = m.change_words(_)
    change = f'<strong class="contrib-metric-change">{esc(words)}</strong>' if words else ""
    self.body.append(
        f'<figure class="contrib-metric contrib-metric-{m.verdict}{kind}">'
        f'<figcaption class="contrib-metric-label">{esc(m.label)}</figcaption>\n'
        f'<div class="contrib-metric-body">'
        f'<p class="contrib-metric-values">{values}'
        f"{change}"
        f'<span class="contrib-visually-hidden"> ({esc(hidden)})</span></p>\n'
        f"{chart}</div>\n{_evidence_html(self, m)}</figure>\n"
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


def latex_chart(m: Metric, esc: Callable[[str], str]) -> str:
    """The chart in LaTeX's ``picture`` mode, to the HTML chart's scale; "" where no chart is truthful."""
    drawn = chart(m)
    if drawn is None:
        return ""
    left, width = 40, _LATEX_WIDTH  # the row labels' column, the plot's width (pt)
    rows = ((_("before"), drawn.before, 26, r"\color{gray}"), (_("after"), drawn.after, 16, ""))
    parts = [rf"\setlength{{\unitlength}}{{1pt}}\begin{{picture}}({left + width + 12},46)(0,-10)"]
    for name, at, y, colour in rows:
        x = left + at * width
        parts.append(rf"\put(0,{y}){{\makebox(0,0)[l]{{\small {esc(name)}}}}}")
        if drawn.scale == "log":
            mark = r"\circle{5}" if colour else r"\circle*{5}"
            parts.append(rf"\put({x:.1f},{y}){{{colour}{mark}}}")
        else:
            parts.append(rf"\put({left},{y - 3}){{{colour}\rule{{{at * width:.1f}pt}}{{6pt}}}}")
    parts.append(rf"\put({left},8){{\line(1,0){{{width}}}}}")
    for at in drawn.minor:
        parts.append(rf"\put({left + at * width:.1f},8){{\line(0,-1){{2}}}}")
    for tick in drawn.ticks:
        x = left + tick.at * width
        parts.append(
            rf"\put({x:.1f},8){{\line(0,-1){{3}}}}\put({x:.1f},-2){{\makebox(0,0)[t]{{{_latex_tick(tick, esc)}}}}}"
        )
    parts.append(r"\end{picture}")
    return "\n".join(parts)


#: a tick label's size in the PDF: 8 pt, its raised exponent 7 pt
_LATEX_TICK = r"\fontsize{8}{9}\selectfont"
_LATEX_EXPONENT = r"\fontsize{7}{8}\selectfont"


def _latex_tick(tick: Tick, esc: Callable[[str], str]) -> str:
    """A tick's label in LaTeX: ``10`` and its exponent raised, at the sizes above."""
    base, raised = tick.raised
    if not raised:
        return f"{_LATEX_TICK} {esc(base)}"
    return rf"{_LATEX_TICK} {esc(base)}\raisebox{{0.8ex}}{{{_LATEX_EXPONENT} {esc(raised)}}}"


def visit_metric_latex(self: LaTeXTranslator, node: cn.metric) -> None:
    """A small table: label, values, the chart where truthful, the change, which way is better, the evidence."""
    m = metric_from_node(node)
    esc = self.encode
    unit = f"~{esc(m.unit)}" if m.unit else ""
    check = _("a no-regression check, ") if m.expect == "hold" else ""
    notes = check + (_("lower is better") if m.better == "lower" else _("higher is better"))
    drawn = latex_chart(m, esc)
    if drawn and m.chart is not None:
        notes += "; " + _("chart on a %(scale)s") % {"scale": _(SCALE_NAMES[m.chart])}
        drawn = "\\par\\nobreak\\smallskip\\noindent\n" + drawn + "\\par\\smallskip\\nobreak\\noindent\n"
    else:
        drawn = "\\par\\nobreak\\noindent\n"
    evidence = ", ".join(rf"\sphinxhref{{{self.encode_uri(item.url)}}}{{{esc(item.text)}}}" for item in m.evidence)
    if m.expect == "hold" and m.before == m.after:  # a check that held: its one value, as on the site
        rows = rf"{esc(_('before and after'))} & {esc(m.after_text)}{unit}\\" "\n"
    else:
        rows = (
            rf"{esc(_('before'))} & {esc(m.before_text)}{unit}\\"
            "\n"
            rf"{esc(_('after'))} & {esc(m.after_text)}{unit}\\"
            "\n"
        )
    # outside the f-string, where Python 3.11's tokenizer would hide the call from the catalogue's extraction
    evidence_word = _("evidence")
    self.body.append(
        "\n\\par\\medskip\\noindent"
        rf"\sphinxstylestrong{{{esc(m.label)}}}\par\nobreak\noindent"
        "\n"
        "\\begin{tabular}{@{}lr@{}}\n"
        + rows
        + "\\end{tabular}"
        + drawn
        + (rf"\sphinxstylestrong{{{esc(m.change_words(_))}}} " if m.change_words(_) else "")
        + f"({esc(notes)})"
        "\n"
        + (rf"\par\nobreak\noindent {esc(evidence_word)}: {evidence}" "\n" if evidence else "")
        + "\\par\\medskip\n"
    )
    raise nodes.SkipNode


#: the output formats (Sphinx's translators) given a visitor of their own for a metric (below)
VISITORS = frozenset({"html", "latex"})


def searched(doctree: nodes.document) -> None:
    """Each figure's words as a text child, for the search index (the HTML visitor skips children)."""
    for node in doctree.findall(cn.metric):
        if node.children:
            continue
        m = metric_from_node(node)
        unit = f" {m.unit}" if m.unit else ""
        node += nodes.Text(f"{m.label} {m.before_text}{unit} {m.after_text}{unit} {m.change_words(_)}".rstrip())


def metrics_to_text(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: builders without a visitor get each figure as text; gettext keeps the node."""
    if not holds_own_nodes(app, docname):  # a page without the extension's nodes: nothing to do
        return
    if app.builder.format == "html" and not output_of(app.builder).catalogs:
        searched(doctree)
    if app.builder.format in VISITORS or output_of(app.builder).catalogs:  # these draw or extract it
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
