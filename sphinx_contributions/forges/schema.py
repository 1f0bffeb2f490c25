"""What each API answer must hold, checked field by field before a fact is taken from it.

A forge's answer is read through :class:`Answer`: ``answer.text("title")``, ``answer.time("merged_at")`` …
Each accessor checks the field's type and raises :class:`ShapeError` naming the address and the field when
it is missing or of the wrong type, so one odd answer fails only its write-up, with a message that says
which field, and never a ``KeyError``. Times are normalised to UTC (:func:`utc`): Gitea and Forgejo give the
server's offset (``2025-06-11T01:30:00+02:00``), GitHub and GitLab ``Z``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any


class ShapeError(Exception):
    """An answer without a field the sync needs, or with a field of the wrong type."""


#: the lock's time format: ISO 8601, whole seconds, UTC
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def utc(value: str) -> str:
    """An ISO 8601 time with any offset (or ``Z``, or none: UTC) → ``YYYY-MM-DDTHH:MM:SSZ`` in UTC;
    :class:`ValueError` when it is not a time."""
    stamp = datetime.fromisoformat(value.strip())
    stamp = stamp.replace(tzinfo=UTC) if stamp.tzinfo is None else stamp.astimezone(UTC)
    return stamp.strftime(TIME_FORMAT)


_KINDS = {str: "a string", int: "an integer", bool: "true or false", dict: "an object", list: "a list"}


def _kind(value: object) -> str:
    if value is None:
        return "null"
    for kind, words in _KINDS.items():
        if type(value) is kind:
            return words
    return type(value).__name__


class Answer:
    """One JSON object of an answer, read field by field. ``where`` names it in messages (the address, and
    for a list's item its place: ``…/releases item 3``)."""

    def __init__(self, data: object, where: str) -> None:
        if not isinstance(data, dict):
            raise ShapeError(f"{where}: the answer is {_kind(data)}, not an object")
        self.data: dict[str, Any] = data
        self.where = where

    def _get(self, name: str, kind: type, optional: bool) -> Any:
        value = self.data.get(name)
        if value is None and optional:
            return None
        if value is None or type(value) is not kind:
            got = "missing" if name not in self.data else _kind(value)
            raise ShapeError(
                f"{self.where}: the answer's {name!r} is {got}, not {_KINDS[kind]}" + (" or null" if optional else "")
            )
        return value

    def text(self, name: str) -> str:
        value: str = self._get(name, str, False)
        return value

    def text_or_none(self, name: str) -> str | None:
        value: str | None = self._get(name, str, True)
        return value

    def integer_or_none(self, name: str) -> int | None:
        value: int | None = self._get(name, int, True)
        if value is not None and value < 0:
            raise ShapeError(f"{self.where}: the answer's {name!r} is {value}, not a count")
        return value

    def flag(self, name: str, default: bool = False) -> bool:
        value = self._get(name, bool, True)
        return default if value is None else bool(value)

    def choice(self, name: str, values: tuple[str, ...]) -> str:
        value = self.text(name)
        if value not in values:
            raise ShapeError(f"{self.where}: the answer's {name!r} is {value!r}, not one of {', '.join(values)}")
        return value

    def time_or_none(self, name: str) -> str | None:
        value = self.text_or_none(name)
        if value is None:
            return None
        try:
            return utc(value)
        except ValueError:
            raise ShapeError(f"{self.where}: the answer's {name!r} is {value!r}, not an ISO 8601 time") from None

    def time(self, name: str) -> str:
        value = self.time_or_none(name)
        if value is None:
            raise ShapeError(f"{self.where}: the answer's {name!r} is missing, not an ISO 8601 time")
        return value

    def sha_or_none(self, name: str) -> str | None:
        value = self.text_or_none(name)
        if value is not None and not (4 <= len(value) <= 64 and all(c in "0123456789abcdefABCDEF" for c in value)):
            raise ShapeError(f"{self.where}: the answer's {name!r} is {value!r}, not a commit id")
        return value

    def child(self, name: str) -> Answer | None:
        """The object under ``name``, or None when it is absent or null."""
        value = self._get(name, dict, True)
        return None if value is None else Answer(value, f"{self.where} {name}")


def items(data: object, where: str) -> list[Answer]:
    """A list answer's objects, each an :class:`Answer` (``where item N`` in messages)."""
    if not isinstance(data, list):
        raise ShapeError(f"{where}: the answer is {_kind(data)}, not a list")
    return [Answer(item, f"{where} item {i}") for i, item in enumerate(data, start=1)]
