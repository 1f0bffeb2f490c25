"""The listings' filter script holds no words: its translated labels are written into each page as JSON."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..i18n import _
from ..options import STATUSES
from .header import state_label

if TYPE_CHECKING:
    from sphinx.application import Sphinx

LABELS_ID = "contrib-filter-labels"


def filter_labels() -> dict[str, object]:
    """The filter's words, translated: facets, buttons, the status line and each state's name."""
    return {
        "legend": {"project": _("Project"), "tag": _("Tag"), "status": _("State")},
        "all": _("All"),
        "all_of": {"project": _("All projects"), "tag": _("All tags"), "status": _("All states")},
        "panel": _("Filter contributions"),
        "disclosure": _("Filter by project, tag or state"),
        # what the disclosure says, by the groups it holds (a state group only where two states are stated)
        "disclosure_of": {
            "project tag status": _("Filter by project, tag or state"),
            "project tag": _("Filter by project or tag"),
            "project status": _("Filter by project or state"),
            "tag status": _("Filter by tag or state"),
            "project": _("Filter by project"),
            "tag": _("Filter by tag"),
            "status": _("Filter by state"),
        },
        # an address that asks for what no write-up has (?tag=typo): said, not silently ignored
        "unknown_of": {
            "project": _("No contribution is of the project “%(value)s”; all are shown."),
            "tag": _("No contribution has the tag “%(value)s”; all are shown."),
            "status": _("No contribution has the state “%(value)s”; all are shown."),
        },
        "reset": _("All (clear filters)"),
        "showing": _("Showing %(shown)s of %(total)s contributions."),
        "active": _("Active filters: %(filters)s."),
        "filter": _("%(facet)s: %(value)s"),
        "none_active": _("No filter active."),
        "states": {**{status: state_label(status) for status in STATUSES}, "unstated": _("not stated")},
    }


def script_json(data: object) -> str:
    """JSON that is safe inside ``<script>``: no ``<``, ``>`` or ``&`` survives as such."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def add_filter_script(app: Sphinx) -> None:
    """The filter script and its words (after the catalogs are loaded): on every page of a site builder
    (``builder-inited``), or on this page (``html-page-context``)."""
    app.add_js_file(None, body=script_json(filter_labels()), type="application/json", id=LABELS_ID)
    app.add_js_file("contributions.js", loading_method="defer")
