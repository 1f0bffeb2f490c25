"""sphinx-design's cards in the PDF (``contributions_pdf_card_styles``): its card title, which ran into the text, is a
bold paragraph of its own, and cards are set apart."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

#: the environments Sphinx's writer uses for sphinx-design's card classes
PREAMBLE = r"""
% sphinx-contributions: sphinx-design's cards (write/fixes/design_latex.py)
\ProvideDocumentEnvironment{sphinxclasssd-card}{}{\par\smallskip}{\par}
\ProvideDocumentEnvironment{sphinxclasssd-card-title}{}{\par\noindent\bfseries\ignorespaces}{\par\nobreak}
\ProvideDocumentEnvironment{sphinxclasssd-font-weight-bold}{}{\bfseries}{}
"""


def add_card_styles(app: Sphinx, config: Config) -> None:
    """``config-inited``: the environments, after the site's preamble (``\\ProvideDocumentEnvironment``)."""
    if not config.contributions_pdf_card_styles:
        return
    elements = dict(config.latex_elements or {})
    preamble = str(elements.get("preamble") or "")
    if PREAMBLE not in preamble:
        elements["preamble"] = preamble + PREAMBLE
        config.latex_elements = elements
