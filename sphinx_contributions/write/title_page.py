"""The PDF's title block of a portfolio with a tagline or profile links; the profile lines it repeats leave the PDF."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util.texescape import escape

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

#: the class of the home page's profile block (its role line, its words, its links), as the site's CSS
PROFILE = "contrib-profile"
#: the first line of the title block this module writes (a LaTeX comment): how it is told from a site's own
MARK = "% the title block of sphinx-contributions (title_page.py)"
#: what may stand between the links of a line of links
_SEPARATORS = re.compile(r"[\s·|,•/]*")


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
        MARK,
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


def _ours(config: Config) -> tuple[str, list[str]] | None:
    """The tagline and links of the title block, when the title block is this module's; else None."""
    tagline = config.contributions_tagline.strip()
    links = [url.strip() for url in config.contributions_profile_links if url.strip()]
    shown = (config.latex_elements or {}).get("maketitle") or ""
    return (tagline, links) if shown.startswith(MARK) else None


def _only_links(paragraph: nodes.paragraph, links: set[str]) -> bool:
    """A paragraph of links alone, each to one of ``links`` or inside the book (a page it holds)."""
    references = list(paragraph.findall(nodes.reference))
    if not references:
        return False
    for reference in references:
        uri = reference.get("refuri", "")
        if not (reference.get("internal") or reference.get("refid") or uri.rstrip("/") in links):
            return False
    words = [
        text.astext()
        for text in paragraph.findall(nodes.Text)
        if not any(isinstance(up, nodes.reference) for up in _ancestors(text))
    ]
    return all(_SEPARATORS.fullmatch(word) for word in words)


def _ancestors(node: nodes.Node) -> list[nodes.Node]:
    found, parent = [], node.parent
    while parent is not None:
        found.append(parent)
        parent = parent.parent
    return found


def drop_repeated_lines(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved`` (LaTeX): the profile's lines that the title block shows already."""
    if app.builder.format != "latex" or (found := _ours(app.config)) is None:
        return
    tagline, links = found
    shown = {url.rstrip("/") for url in links}
    for profile in list(doctree.findall(nodes.container)):
        if PROFILE not in profile["classes"]:
            continue
        for paragraph in [child for child in profile.children if isinstance(child, nodes.paragraph)]:
            text = " ".join(paragraph.astext().split())
            if (tagline and text == " ".join(tagline.split())) or _only_links(paragraph, shown):
                profile.remove(paragraph)
