"""``python -m sphinx_contributions``: the ``contributions`` command (see :mod:`.cli`)."""

from __future__ import annotations

from .cli.main import main

raise SystemExit(main())
