"""The ``contrib`` domain: where contributions are collected, merged, checked and resolved.

Collection follows :mod:`sphinx.ext.todo`: a page's record is built in :meth:`process_doc` once the
page is read, :meth:`clear_doc` drops it, :meth:`merge_domaindata` takes a parallel worker's records,
and every check that looks across pages lives in :meth:`check_consistency`, so serial and parallel
builds warn identically.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from docutils import nodes
from sphinx.domains import Domain, ObjType
from sphinx.roles import XRefRole
from sphinx.util.nodes import make_refnode

from . import nodes as cn
from .metric import metric_from_node
from .model import PLACEHOLDER, SECTION_NAMES, Contribution, is_placeholder, key_lookup, make_key
from .warnings import ContribWarning, warn

if TYPE_CHECKING:
    from collections.abc import Iterator, Set

    from docutils.nodes import Element
    from sphinx.addnodes import pending_xref
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment


class ContribRole(XRefRole):
    """``{contrib}`transformers#49135``` → a link to that write-up, titled with the page's title.

    Registered both as the domain's role and as a plain ``{contrib}`` role."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        self.refdomain, self.reftype = "contrib", "contrib"
        self.classes = ["xref", "contrib", "contrib-contrib"]
        if self.disabled:
            return self.create_non_xref_node()
        return self.create_xref_node()


class ContributionsDomain(Domain):
    """Upstream contributions: one object per write-up, keyed ``<repository name>#<pr>``."""

    name = "contrib"
    label = "Upstream"
    object_types = {"contribution": ObjType("contribution", "contrib")}  # noqa: RUF012
    roles = {"contrib": ContribRole(innernodeclass=nodes.inline)}  # noqa: RUF012
    initial_data: ClassVar[dict[str, Any]] = {
        "contributions": {},  # docname -> Contribution
        "listings": {},  # docname -> True, for pages holding a `contributions` listing
        # kept by .incremental and .fixes: what pages link to, and digests of what each output showed
        "links": {},
        "shown": {},
    }
    data_version = 1
    _owners_cache: dict[str, Contribution] | None = None  # see _owners()

    # -- the collected data -----------------------------------------------------------------------

    @property
    def contributions(self) -> dict[str, Contribution]:
        return self.data["contributions"]

    @property
    def listings(self) -> dict[str, bool]:
        return self.data["listings"]

    def published(self) -> list[Contribution]:
        """Every contribution that owns its key, in docname order (duplicates lose to the first)."""
        return list(self._owners().values())

    def by_key(self, key: str) -> Contribution | None:
        return self._owners().get(key_lookup(key))

    def _owners(self) -> dict[str, Contribution]:
        """Lookup key → the record that owns it, in docname order. Asked for once per ``{contrib}`` link
        and per listing, so it is computed once per change of the records, not per call."""
        owners = self._owners_cache
        if owners is None:
            owners = {}
            for docname in sorted(self.contributions):
                owners.setdefault(key_lookup(self.contributions[docname].key), self.contributions[docname])
            self._owners_cache = owners
        return owners

    # -- incremental and parallel builds ----------------------------------------------------------

    def clear_doc(self, docname: str) -> None:
        self._owners_cache = None
        self.contributions.pop(docname, None)
        self.listings.pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        self._owners_cache = None
        for docname in docnames:
            if docname in otherdata["contributions"]:
                self.contributions[docname] = otherdata["contributions"][docname]
            if docname in otherdata["listings"]:
                self.listings[docname] = True

    def process_doc(self, env: BuildEnvironment, docname: str, document: nodes.document) -> None:
        if any(True for _ in document.findall(cn.contribution_list)):
            self.listings[docname] = True
        header = next(document.findall(cn.contribution_header), None)
        if header is None:
            return
        self.contributions[docname] = self._record(docname, header, document)
        self._owners_cache = None

    def _record(self, docname: str, header: cn.contribution_header, document: nodes.document) -> Contribution:
        # the page's own first heading: a top-level section that is not one of the write-up sections
        # (without this, a page with no heading would be titled "Problem")
        section = next(
            (node for node in document.children if isinstance(node, nodes.section) and not node.get("contrib_section")),
            None,
        )
        title = section[0].astext() if section is not None and isinstance(section[0], nodes.title) else ""
        key = make_key(header["repo"], header["pr"])
        if not title:
            warn(ContribWarning.MISSING_TITLE, f"contribution {key} has no heading; its key is used as title", header)
            title = key
        for part, text in (("title", title), ("summary", header["summary"])):
            if is_placeholder(text):
                warn(
                    ContribWarning.PLACEHOLDER,
                    f"contribution {key}: the {part} is not written yet (it starts with {PLACEHOLDER!r})",
                    header,
                )
        present = [
            node["contrib_section"]
            for node in document.findall(nodes.section)
            if node.get("contrib_section") and not node.get("contrib_unwritten")
        ]
        given = {node["contrib_section"] for node in document.findall(nodes.section) if node.get("contrib_section")}
        missing = [name for name in SECTION_NAMES if name not in given]
        if missing:
            warn(
                ContribWarning.MISSING_SECTION,
                f"contribution {key} is missing section(s): {', '.join(missing)}",
                header,
            )
        return Contribution(
            docname=docname,
            title=title,
            repo=header["repo"],
            pr=header["pr"],
            summary=header["summary"],
            issues=tuple(header.get("issue", ())),
            status=header.get("status"),
            tags=tuple(header.get("tags", ())),
            project=header.get("project", ""),
            date=header.get("date"),
            metrics=tuple(metric_from_node(node) for node in document.findall(cn.metric)),
            sections=tuple(dict.fromkeys(present)),
            lineno=header.line or 0,
        )

    def check_consistency(self) -> None:
        owners: dict[str, Contribution] = {}
        for docname in sorted(self.contributions):
            record = self.contributions[docname]
            first = owners.setdefault(key_lookup(record.key), record)
            if first is not record:
                warn(
                    ContribWarning.DUPLICATE_KEY,
                    f"contribution {record.key} is already declared in {self.env.doc2path(first.docname, False)}; "
                    "this page is not listed",
                    (docname, record.lineno),
                )

    # -- cross-references and objects.inv ---------------------------------------------------------

    def resolve_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        typ: str,
        target: str,
        node: pending_xref,
        contnode: Element,
    ) -> nodes.reference | None:
        record = self.by_key(target)
        if record is None:
            draft = env.config.contributions_draft_keys.get(key_lookup(target))
            if draft is not None:
                warn(
                    ContribWarning.DRAFT_LINK,
                    f"{{contrib}} links to {target}, a draft ({draft}) that the published site leaves out",
                    node,
                )
            else:
                warn(ContribWarning.UNKNOWN_KEY, f"{{contrib}} target not found: {target!r}", node)
            return contnode  # type: ignore[return-value]  # shown as text, not dropped
        if not node.get("refexplicit"):
            contnode = nodes.inline(record.title, record.title, classes=contnode["classes"])
        return make_refnode(builder, fromdocname, record.docname, record.anchor, contnode, record.key)

    def resolve_any_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        target: str,
        node: pending_xref,
        contnode: Element,
    ) -> list[tuple[str, nodes.reference]]:
        record = self.by_key(target)
        if record is None:
            return []
        return [("contrib:contrib", make_refnode(builder, fromdocname, record.docname, record.anchor, contnode))]

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        # the display name is the key too: Sphinx's search matches objects by display name, so a search
        # for "49135" or "transformers#49135" ranks the write-up first (priority 0: "important")
        for record in self.published():
            yield record.key, record.key, "contribution", record.docname, record.anchor, 0

    def get_full_qualified_name(self, node: Element) -> str | None:
        return node.get("reftarget")


def get_domain(env: BuildEnvironment) -> ContributionsDomain:
    """The one typed accessor of the ``contrib`` domain."""
    return cast("ContributionsDomain", env.domains["contrib"])
