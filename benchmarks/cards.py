"""Social-card benchmark: draws N cards (the write-ups of ``run.py``'s synthetic site) and reports the
median time per card, wall clock and CPU. Budget: 20 ms per card (issue 12). ``make bench`` runs it;
alone: ``.venv/bin/python benchmarks/cards.py [N]``."""

from __future__ import annotations

import os
import statistics
import sys
import time

from sphinx_contributions.records import Metric
from sphinx_contributions.render.card_image import Card, Fonts, render_card
from sphinx_contributions.render.header import stat

BUDGET_MS = 20.0


def synthetic_cards(n: int) -> list[Card]:
    """N cards shaped like the benchmark site's write-ups (titles, keys, states, one metric each)."""
    from pages import make_pages  # benchmarks/pages.py, beside this file

    cards = []
    for page in make_pages(n):
        label, before, after, unit = page.metric
        metric = Metric(label, before, after, f"{before:g}", f"{after:g}", unit)
        cards.append(Card(page.title, "Imran Nazir", page.key, page.status, stat(metric).brief))
    return cards


def bench_cards(n: int = 1000) -> tuple[float, float]:
    """Draws ``n`` cards; returns the median milliseconds per card (wall clock, CPU)."""
    cards = synthetic_cards(n)
    fonts = Fonts.find()
    render_card(cards[0], fonts=fonts)  # fonts loaded once, as in a build
    wall, cpu = [], []
    for card in cards:
        start, start_cpu = time.perf_counter(), time.process_time()
        render_card(card, fonts=fonts)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def report_cards(n: int = 1000) -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    wall, cpu = bench_cards(n)
    fonts = "DejaVu Sans" if not Fonts.find().bundled else "Pillow's bundled font"

    def verdict(value: float) -> str:
        return "met" if value <= BUDGET_MS else "MISSED"

    # both: on shared cores the wall clock also counts other processes' time
    print(
        f"social cards (N={n}, {fonts}, load average {load:.1f} on {os.cpu_count()} cores): median per card "
        f"{wall:.1f} ms wall ({verdict(wall)}), {cpu:.1f} ms CPU ({verdict(cpu)}); target ≤ {BUDGET_MS:g} ms",
        flush=True,
    )


if __name__ == "__main__":
    report_cards(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
