"""The contrast ratio of two colours, as WCAG 2.2 defines it (relative luminance of sRGB, the 0.04045
threshold of its corrected formula): the one measure of the browser tests (text against its background,
a chart's marks against the page)."""

from __future__ import annotations

from collections.abc import Sequence


def luminance(colour: Sequence[float]) -> float:
    """The relative luminance of ``(red, green, blue[, alpha])``, each channel 0–255 (alpha ignored)."""
    channels = [value / 255 for value in colour[:3]]
    red, green, blue = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(a: Sequence[float], b: Sequence[float]) -> float:
    """The contrast ratio of ``a`` and ``b``: 1 (the same) to 21 (black on white)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
