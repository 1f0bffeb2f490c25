"""The PDF's title page of a portfolio: the name (``project``), the role line (``contributions_tagline``),
the profile links (``contributions_profile_links``, shown without ``https://``) and, at the foot, the
site's address (``html_baseurl``, only when it is set), centred at the top of the first page (a compact
document: no page of its own), and the PDF's Title and Author metadata (``\\hypersetup``: the macro this
replaces, ``\\maketitle``, is what would set them).

It replaces LaTeX's default title page (title, author, date and release) only when the site sets a
tagline or profile links and does not set ``latex_elements["maketitle"]`` itself. The values are
escaped for LaTeX.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sphinx.util.texescape import escape

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config


SEPARATOR = r" \quad·\quad "


def shown_url(url: str) -> str:
    """``https://github.com/user/`` → ``github.com/user``."""
    return re.sub(r"^[a-z][a-z0-9+.-]*://(www\.)?", "", url.strip(), flags=re.I).rstrip("/")


def _href(url: str) -> str:
    target = url.replace("\\", "").replace("{", "").replace("}", "").replace("%", r"\%").replace("#", r"\#")
    return rf"\href{{{target}}}{{{escape(shown_url(url))}}}"


def title_page(name: str, tagline: str, links: list[str], address: str) -> str:
    """The LaTeX of the title block (for ``latex_elements["maketitle"]``)."""
    title = f"{name}: {tagline}" if tagline else name
    lines = [
        rf"\hypersetup{{pdftitle={{{escape(title)}}}, pdfauthor={{{escape(name)}}}}}",
        r"\begin{center}\sffamily",
        rf"  {{\LARGE\bfseries {escape(name)}\par}}",
    ]
    if tagline:
        lines += [r"  \smallskip", rf"  {{\large {escape(tagline)}\par}}"]
    if links:
        shown_links = SEPARATOR.join(_href(url) for url in links)
        lines += [r"  \smallskip", rf"  {{{shown_links}\par}}"]
    if address:
        lines += [r"  \smallskip", rf"  {{\small {_href(address)}\par}}"]
    lines.append(r"\end{center}")
    return "\n".join(lines) + "\n"


def set_title_page(app: Sphinx, config: Config) -> None:
    """``config-inited``: the title page, when the site gives a tagline or links and no title page."""
    tagline = config.contributions_tagline.strip()
    links = [url for url in config.contributions_profile_links if url.strip()]
    elements = dict(config.latex_elements or {})
    if "maketitle" in elements or not (tagline or links):
        return
    elements["maketitle"] = title_page(config.project, tagline, links, config.html_baseurl or "")
    config.latex_elements = elements
