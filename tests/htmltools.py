"""Reading built pages in tests: BeautifulSoup's look-ups return ``Tag | None``; these return the ``Tag`` and
fail the test with the selector when it is not there (where a bare look-up would fail on ``None``)."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree as ET

from bs4 import BeautifulSoup, Tag


def soup(path: Path) -> BeautifulSoup:
    """The HTML page at ``path``, parsed."""
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def one(node: Tag, selector: str) -> Tag:
    """The first element under ``node`` that the CSS ``selector`` matches; none: the test fails."""
    found = node.select_one(selector)
    assert found is not None, f"nothing matches {selector!r}"
    return found


def attr(tag: Tag, name: str) -> str:
    """The value of a single-valued attribute (``href``, ``content``): a ``str``, not a class-like list."""
    value = tag[name]
    assert isinstance(value, str), f"{name}={value!r} is not a single value"
    return value


def xml_one(element: ET.Element, path: str, namespaces: dict[str, str] | None = None) -> ET.Element:
    """The first element under ``element`` at the ElementTree ``path``; none: the test fails."""
    found = element.find(path, namespaces)
    assert found is not None, f"nothing at {path!r}"
    return found


def xml_text(element: ET.Element, path: str, namespaces: dict[str, str] | None = None) -> str:
    """The text of the first element at ``path`` (``""`` when it has none); no such element: the test fails."""
    text = element.findtext(path, namespaces=namespaces)
    assert text is not None, f"nothing at {path!r}"
    return text
