"""Numbers as the figures show them, as pure functions of :class:`~decimal.Decimal` values."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, localcontext

#: a number as written in an option: digits with an optional point and exponent (``0.5``, ``1.03e-1``)
NUMBER_RE = re.compile(r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")


#: significant figures of the change in words: at most this many, and no more than an approximate value's
FIGURES_EXACT = 2


#: digits (and the minus sign) as superscripts, for the powers of ten of ``1.2×10⁸``
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


#: the marks of an approximate value: ``~1.03e-1`` or ``≈1.03e-1``
APPROXIMATE_MARKS = ("~", "≈")


def round_sig(value: Decimal, figures: int) -> Decimal:
    """``value`` (not negative) rounded half up to ``figures`` significant figures."""
    if value == 0:
        return value
    return value.quantize(Decimal(1).scaleb(value.adjusted() - figures + 1), rounding=ROUND_HALF_UP)


def format_number(number: Decimal, locale: str | None = None) -> str:
    """A number ≥ 0 in plain digits, every digit kept, with Babel ``locale``'s separators (None: English)."""
    if locale is not None:
        from babel.numbers import format_decimal  # here: 10–25 ms to import, a cost to sites that never ask

        return format_decimal(number, locale=locale, decimal_quantization=False)
    if number == number.to_integral_value():
        return f"{int(number):,}"
    text = format(number, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def format_sig(value: Decimal | float, figures: int, locale: str | None = None) -> str:
    """``value`` to ``figures`` significant figures: plain from 1e-4 to 1e7, else ``1.2×10⁸``."""
    with localcontext() as context:
        context.prec = 40
        number = Decimal(value)
        sign = "-" if number < 0 else ""
        rounded = round_sig(abs(number), figures)
        exponent = rounded.adjusted()
        if rounded == 0 or -4 <= exponent < 7:
            return sign + format_number(rounded, locale)
        mantissa = format_number(rounded.scaleb(-exponent), locale)
        return f"{sign}{mantissa}×10{str(exponent).translate(SUPERSCRIPT)}"


def written_figures(text: str) -> int:
    """The significant figures a value was written with (``~1.03e-1``: 3, ``200``: 1, ``2.00``: 3)."""
    number = text.lstrip("".join(APPROXIMATE_MARKS)).strip().lstrip("+-")
    if not NUMBER_RE.match(number):  # not a value as parse_number reads it: no precision said
        return FIGURES_EXACT
    digits = "".join(map(str, Decimal(number).as_tuple().digits)).lstrip("0")
    if not any(mark in number for mark in ".eE"):
        digits = digits.rstrip("0")
    return max(1, len(digits))


def format_difference(value: Decimal | float, figures: int | None = None, locale: str | None = None) -> str:
    """A difference: to ``figures`` if approximate, else whole numbers exactly below 1e15, else three."""
    number = Decimal(value)
    if figures is not None:
        return format_sig(number, figures, locale)
    if number == number.to_integral_value() and abs(number) < Decimal("1e15"):
        return ("-" if number < 0 else "") + format_number(abs(number), locale)
    return format_sig(number, 3, locale)
