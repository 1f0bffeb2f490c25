"""The ``contrib`` domain, as :mod:`sphinx.ext.todo` collects: records built in :meth:`process_doc`, dropped,
merged; cross-page checks in :meth:`check_consistency`, so serial and parallel builds warn identically."""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any, ClassVar, cast

from docutils import nodes
from sphinx.domains import Domain, ObjType
from sphinx.roles import XRefRole
from sphinx.util.nodes import make_refnode

from .. import nodes as cn
from ..builders import output_of
from ..check.facts import check_facts, check_tests, entry_applies, tests_claimed
from ..keys import SECTION_NAMES, key_lookup, label, make_key, named_after_key, object_name, split_target
from ..queries import generated_pages, is_of_project, neighbours, ownership, sort_records
from ..read.directives import ContributionDirective, SectionDirective
from ..read.limits import KnownLimitsDirective
from ..read.listing_directive import ContributionsDirective
from ..read.marks import MarkingRole
from ..read.metric_directive import MetricDirective
from ..read.projects_directive import ProjectIntroDirective, ProjectsDirective
from ..read.roles import ExportRole, GitHubRole
from ..read.sources import DOMAIN, page_being_read
from ..settings import LOCK_NAME
from ..warnings import ContribWarning, warn

if TYPE_CHECKING:
    from collections.abc import Iterator, Set

    from docutils.nodes import Element
    from sphinx.addnodes import pending_xref
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment

    from ..records import Contribution, ForgeFacts, GeneratedPage, Metric


class ContribRole(MarkingRole, XRefRole):
    """``{contrib}`transformers#49135``` → a link to that write-up, titled with the page's title;
    ``{contrib}`transformers#49135#verification``` → a link to one of its sections."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        self.refdomain, self.reftype = "contrib", "contrib"
        self.warn_dangling = True  # an unknown key warns on any site, not only a nitpicky one
        self.classes = ["xref", "contrib", "contrib-contrib"]
        if self.disabled:
            return self.create_non_xref_node()
        return self.create_xref_node()


#: the nodes the domain takes from a page it reads (:meth:`ContributionsDomain.process_doc`)
_READ_NODES: tuple[type[nodes.Node], ...] = (
    cn.contribution_list,
    cn.contribution_projects,
    cn.project_intro,
    cn.contribution_header,
)


#: the domain's data kept per page: what :meth:`ContributionsDomain.clear_doc` drops and a worker's merge brings;
#: ``own_nodes``: the pages the extension's directives or roles ran on
_PER_PAGE = ("contributions", "listings", "project_intros", "warnings", "own_nodes")


class ContributionsDomain(Domain):
    """Upstream contributions: an object per write-up (``<repo name>#<pr>``) and per section."""

    name = DOMAIN
    label = "Upstream"
    object_types = {  # noqa: RUF012
        "contribution": ObjType("contribution", "contrib"),
        "section": ObjType("section", "contrib"),
    }
    #: every directive of the extension, by its name in the domain: the one table of its directive names
    directives: ClassVar[dict[str, Any]] = {
        "contribution": ContributionDirective,
        **dict.fromkeys(SECTION_NAMES, SectionDirective),
        "metric": MetricDirective,
        "known-limits": KnownLimitsDirective,
        "contributions": ContributionsDirective,
        "projects": ProjectsDirective,
        "project": ProjectIntroDirective,
    }
    #: every role of the extension (``{contrib:pr}``), the same way
    roles: ClassVar[dict[str, Any]] = {
        "contrib": ContribRole(innernodeclass=nodes.inline),
        "pr": GitHubRole(),
        "issue": GitHubRole(),
        "export": ExportRole(),
    }
    initial_data: ClassVar[dict[str, Any]] = {
        "contributions": {},  # docname -> Contribution
        # docname -> the sort order of its first `contributions` listing ("" if it has only `projects`)
        "listings": {},
        "project_intros": {},  # docname -> [(project name, line)] of its `project` intros
        "warnings": {},  # docname -> the warnings logged while reading it (.fixes.lasting_warnings)
    }
    data_version = 1
    _owners_cache: dict[str, Contribution] | None = None  # see _owners()
    _published_cache: tuple[Contribution, ...] | None = None  # see published()
    #: (index page, its order, docname → (previous, next)): see in_list_order() and neighbours()
    _order_cache: (
        tuple[str, tuple[Contribution, ...], dict[str, tuple[Contribution | None, Contribution | None]]] | None
    ) = None
    #: (the published records it was made from, the tag minimum, the pages): see all_generated_pages()
    _pages_cache: tuple[tuple[Contribution, ...], tuple[int, int], dict[str, GeneratedPage]] | None = None
    #: this build's view of what each output was written from (:mod:`..write.manifest`; not pickled)
    written: dict[str, Any] | None = None
    #: the domain's names another extension holds bare on this site, (kind, name) (not pickled)
    taken_short_names: frozenset[tuple[str, str]] = frozenset()
    #: the drafts this build leaves out: lookup key → docname (:mod:`.drafts`; not pickled, not a setting)
    draft_keys: dict[str, str] | None = None

    # -- the collected data -----------------------------------------------------------------------

    @property
    def contributions(self) -> dict[str, Contribution]:
        records: dict[str, Contribution] = self.data["contributions"]
        return records

    @property
    def listings(self) -> dict[str, str]:
        listings: dict[str, str] = self.data["listings"]
        return listings

    def _in_order(
        self, index: str
    ) -> tuple[tuple[Contribution, ...], dict[str, tuple[Contribution | None, Contribution | None]]]:
        cached = self._order_cache
        if cached is None or cached[0] != index:
            ordered = sort_records(self.published(), self.listings.get(index) or "project")
            cached = (index, tuple(ordered), {r.docname: neighbours(ordered, i) for i, r in enumerate(ordered)})
            self._order_cache = cached
        return cached[1], cached[2]

    def in_list_order(self, index: str) -> list[Contribution]:
        """The published write-ups in the order of page ``index``'s first listing (else by project)."""
        return list(self._in_order(index)[0])

    def neighbours(self, index: str, docname: str) -> tuple[Contribution | None, Contribution | None]:
        """The write-ups before and after page ``docname`` in :meth:`in_list_order`: previous/next links."""
        return self._in_order(index)[1].get(docname, (None, None))

    def published(self) -> list[Contribution]:
        """Every contribution that owns its key (:func:`~.queries.ownership`), in docname order."""
        return list(self._published())

    def has_published(self) -> bool:
        """Whether any contribution is published (asked on every page: no copy of the list)."""
        return bool(self._published())

    def _published(self) -> tuple[Contribution, ...]:
        if self._published_cache is None:
            self._published_cache = tuple(sorted(self._owners().values(), key=lambda record: record.docname))
        return self._published_cache

    def generated_pages(self) -> dict[str, GeneratedPage]:
        """pagename → the tag and project pages to write, but those a document of the site holds."""
        found = self.env.found_docs
        return {name: page for name, page in self.all_generated_pages().items() if name not in found}

    def all_generated_pages(self) -> dict[str, GeneratedPage]:
        """:func:`.queries.generated_pages` of the published write-ups, with the site's minimums."""
        config = self.env.config
        published = self._published()
        least = (int(config.contributions_tag_page_min), int(config.contributions_project_page_min))
        cached = self._pages_cache
        if cached is None or cached[0] is not published or cached[1] != least:
            cached = self._pages_cache = (published, least, generated_pages(published, *least))
        return cached[2]

    def by_key(self, key: str) -> Contribution | None:
        return self._owners().get(key_lookup(key))

    def _owners(self) -> dict[str, Contribution]:
        """Lookup key → the record that owns it (:func:`~.queries.ownership`), once per change of the records."""
        owners = self._owners_cache
        if owners is None:
            owners = {}
            for record in sorted(self.contributions.values(), key=ownership):
                owners.setdefault(key_lookup(record.key), record)
            self._owners_cache = owners
        return owners

    def settle_labels(self) -> None:
        """``env-updated``: the ``{ref}`` labels of a key that several pages declare go to the page that owns
        it, whatever the order the pages were read or merged in; a loser's label that the owner lacks goes."""
        std = self.env.domains.standard_domain
        by_key: dict[str, list[Contribution]] = {}
        for record in self.contributions.values():
            by_key.setdefault(key_lookup(record.key), []).append(record)
        for lookup, records in by_key.items():
            owner = self._owners().get(lookup)
            if len(records) < 2 or owner is None:
                continue
            targets = {label(owner.key, section): (anchor, title) for section, anchor, title in owner.targets()}
            losers = {record.docname for record in records if record is not owner}
            for record in records:
                for section, _, _ in record.targets():
                    name = label(record.key, section)
                    holder = std.anonlabels.get(name, ("",))[0]
                    if name in targets and holder in losers | {""}:
                        anchor, title = targets[name]
                        std.anonlabels[name] = owner.docname, anchor
                        std.labels[name] = owner.docname, anchor, title
                    elif name not in targets and holder in losers:
                        std.anonlabels.pop(name, None)
                        std.labels.pop(name, None)

    # -- incremental and parallel builds ----------------------------------------------------------

    @property
    def project_intros(self) -> dict[str, list[tuple[str, int]]]:
        intros: dict[str, list[tuple[str, int]]] = self.data.setdefault("project_intros", {})
        return intros

    def _forget(self) -> None:
        """Drop what is worked out from the records (they changed)."""
        self._owners_cache = self._published_cache = self._order_cache = None

    def clear_doc(self, docname: str) -> None:
        self._forget()
        for name in _PER_PAGE:
            self.data.setdefault(name, {}).pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        self._forget()
        for name in _PER_PAGE:
            theirs = otherdata.get(name, {})
            self.data.setdefault(name, {}).update(
                (docname, theirs[docname]) for docname in docnames if docname in theirs
            )

    def process_doc(self, env: BuildEnvironment, docname: str, document: nodes.document) -> None:
        found: dict[type[nodes.Node], list[Any]] = {kind: [] for kind in _READ_NODES}
        if cn.made_here(env):  # else none of the extension's directives ran on the page
            self.data.setdefault("own_nodes", {})[docname] = True
            for node in cn.walk(document):  # one look through the page, in order
                kind = next((kind for kind in _READ_NODES if isinstance(node, kind)), None)
                if kind is not None:
                    found[kind].append(node)
        lists = found[cn.contribution_list]
        if lists:
            self.listings[docname] = lists[0].get("sort", "date")
        for listing in found[cn.contribution_projects]:
            self.listings.setdefault(docname, "")
            intros = [(intro["name"], intro.line or 0) for intro in listing.findall(cn.project_intro)]
            self.project_intros.setdefault(docname, []).extend(intros)
        for intro in found[cn.project_intro]:
            if not isinstance(intro.parent, cn.contribution_projects):
                warn(
                    ContribWarning.UNKNOWN_PROJECT,
                    f"project intro {intro['name']!r} is outside a 'projects' listing and is not shown",
                    intro,
                )
        headers = found[cn.contribution_header]
        header = headers[0] if headers else None
        from ..check.structure import check_page  # here: the checks load what they need when a page is read

        check_page(env, docname, document, header, page_being_read(env), self.taken_short_names)
        if header is None:
            return
        record = self._record(docname, header, document)
        self.contributions[docname] = record
        env.events.emit("contributions-record", docname, record)  # for other extensions (.extension.EVENTS)
        self._forget()
        self._note_labels(env, record)

    def _note_labels(self, env: BuildEnvironment, record: Contribution) -> None:
        """The ``{ref}`` labels of the write-up and its sections, but those another page holds."""
        std = env.domains.standard_domain
        for section, anchor, title in record.targets():
            name = label(record.key, section)
            if std.anonlabels.get(name, (record.docname,))[0] == record.docname:
                std.anonlabels[name] = record.docname, anchor
                std.labels[name] = record.docname, anchor, title

    def _record(self, docname: str, header: cn.contribution_header, document: nodes.document) -> Contribution:
        from ..options import MAX_TITLE, PLACEHOLDER, is_placeholder  # here: a write-up's, as below
        from ..records import Contribution

        # the page's own first heading, not a write-up section's
        section = next(
            (node for node in document.children if isinstance(node, nodes.section) and not node.get("contrib_section")),
            None,
        )
        heading = section[0] if section is not None and isinstance(section[0], nodes.title) else None
        title = heading.astext() if heading is not None else ""
        key = header.get("key") or make_key(header["repo"], header["pr"])
        if not title:
            warn(ContribWarning.MISSING_TITLE, f"contribution {key} has no heading; its key is used as title", header)
            title = key
        elif len(title) > MAX_TITLE:
            warn(
                ContribWarning.LONG_TITLE,
                f"contribution {key}: the title is {len(title)} characters long; listings, cards and the browser's "
                f"tab show about {MAX_TITLE}: shorten it and say the rest in the summary or the sections",
                heading or header,
            )
        summary_at = (docname, header.get("summary_line") or header.line)
        for part, text, where in (("title", title, heading or header), ("summary", header["summary"], summary_at)):
            if is_placeholder(text):
                warn(
                    ContribWarning.PLACEHOLDER,
                    f"contribution {key}: the {part} is not written yet (it is still a {PLACEHOLDER!r} placeholder)",
                    where,
                )
        forge = self.forge_facts(key)
        lock_name = self.data.get("lock_name") or LOCK_NAME
        target = (self.data.get("lock_targets") or {}).get(key_lookup(key))
        if forge is not None and not entry_applies(lock_name, key, target, header["repo"], header["pr"], header):
            forge = None  # the entry was fetched for another repository or number: no facts, and a warning
        status = header.get("status")
        if forge is not None:
            status_at = (docname, header.get("status_line") or header.line or 0)
            check_facts(self.env.config, lock_name, key, status, status_at, title, heading or header, forge)
            check_tests(lock_name, key, tests_claimed(docname, document), forge)
            status = status or forge.state
        sections = [node for node in document.findall(nodes.section) if node.get("contrib_section")]
        present = [node["contrib_section"] for node in sections if not node.get("contrib_unwritten")]
        # the sections with their stable anchor (a repeated section's second block has "problem-1")
        titled = [
            (node["contrib_section"], node[0].astext())
            for node in sections
            if node["ids"][0] == node["contrib_section"]
        ]
        return Contribution(
            docname=docname,
            title=title,
            repo=header["repo"],
            pr=header["pr"],
            summary=header["summary"],
            summary_markup=tuple(header.get("summary_markup", ())),
            impact=header.get("impact", ""),
            impact_markup=tuple(header.get("impact_markup", ())),
            issues=tuple(header.get("issue", ())),
            status=status,
            tags=tuple(header.get("tags", ())),
            project=header.get("project", ""),
            date=header.get("date"),
            metrics=self._metrics(key, document),
            sections=tuple(dict.fromkeys(present)),
            section_titles=tuple(titled),
            lineno=header.line or 0,
            forge=forge,
            folders=(self.env.config.contributions_tags_path, self.env.config.contributions_projects_path),
            given_key=header.get("key", ""),
        )

    def forge_facts(self, key: str) -> ForgeFacts | None:
        """The lock's facts for a key (read at the start of each build, :mod:`.lock_facts`), or None."""
        entries: dict[str, ForgeFacts] = self.data.get("lock") or {}
        return entries.get(key_lookup(key))

    @staticmethod
    def _metrics(key: str, document: nodes.document) -> tuple[Metric, ...]:
        """The page's figures; only the first marked ``:headline:`` stays the headline."""
        from ..read.metric_directive import metric_from_node

        metrics: list[Metric] = []
        for node in document.findall(cn.metric):
            metric = metric_from_node(node)
            first = next((m for m in metrics if m.headline), None)
            if metric.headline and first is not None:
                warn(
                    ContribWarning.BAD_METRIC,
                    f"contribution {key}: metric {metric.label!r} is a second headline; "
                    f"{first.label!r} stays the headline",
                    node,
                )
                metric = dataclasses.replace(metric, headline=False)
            metrics.append(metric)
        return tuple(metrics)

    def check_consistency(self) -> None:
        published = self.published()
        for docname in sorted(self.project_intros):
            for name, line in self.project_intros[docname]:
                if not any(is_of_project(record, name) for record in published):
                    warn(
                        ContribWarning.UNKNOWN_PROJECT,
                        f"project intro {name!r} names no project with a write-up; it is not shown",
                        (docname, line),
                    )
        spelt: dict[str, tuple[str, Contribution]] = {}  # tag page → the first spelling, and its write-up
        for record in sorted(published, key=lambda r: r.docname):
            for tag, slug in zip(record.tags, record.tag_slugs, strict=True):
                first_tag, owner = spelt.setdefault(slug, (tag, record))
                if first_tag.casefold() != tag.casefold():  # one tag in two cases is one tag: no clash
                    warn(
                        ContribWarning.TAG_CLASH,
                        f"contribution {record.key}: the tag {tag!r} and {first_tag!r} of "
                        f"{self.env.doc2path(owner.docname, False)} share one tag page ({slug}); spell them "
                        "the same, or tell them apart",
                        (record.docname, record.lineno),
                    )
        for docname in sorted(self.contributions):
            record = self.contributions[docname]
            first = self.by_key(record.key)
            if first is not None and first is not record:
                warn(ContribWarning.DUPLICATE_KEY, self._duplicate(record, first), (docname, record.lineno))
                continue
            labels = self.env.domains.standard_domain.anonlabels
            for section, _, _ in record.targets():
                name = label(record.key, section)
                holder = labels.get(name, (docname,))[0]
                other = self.contributions.get(holder)
                if holder != docname and (other is None or key_lookup(other.key) != key_lookup(record.key)):
                    warn(
                        ContribWarning.DUPLICATE_LABEL,
                        f"contribution {record.key}: the label {name!r} is already defined in "
                        f"{self.env.doc2path(holder, False)}; {{ref}} links to that one",
                        (docname, record.lineno),
                    )

    def _duplicate(self, record: Contribution, owner: Contribution) -> str:
        where = self.env.doc2path(owner.docname, False)
        if named_after_key(owner.docname, owner.key) and owner.docname > record.docname:
            return (
                f"contribution {record.key} is also declared in {where}, which is named after the key and keeps "
                "it; this page is not listed: give it its own key or delete it"
            )
        return f"contribution {record.key} is already declared in {where}; this page is not listed"

    # -- cross-references and objects.inv ---------------------------------------------------------

    def _find(self, target: str) -> tuple[Contribution | None, str | None, tuple[str, str] | None]:
        """A ``{contrib}`` target → (its write-up, the section, (anchor, title)), each or None."""
        key, section = split_target(target)
        record = self.by_key(key)
        return record, section, None if record is None else record.link_target(section)

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
        record, section, found = self._find(target)
        if record is None:  # Sphinx's missing-reference chain next (intersphinx), then nitpick_ignore
            return None
        if found is None:  # no such section: the link goes to the write-up itself
            have = ", ".join(name for name, _ in record.section_titles) or "none"
            warn(
                ContribWarning.UNKNOWN_SECTION,
                f"{{contrib}} target not found: {target!r}: {record.key} has no section {section!r} "
                f"(its sections: {have})",
                node,
            )
            found = record.anchor, record.title
        anchor, title = found
        if not node.get("refexplicit"):
            contnode = nodes.inline(title, title, classes=contnode["classes"])
        return make_refnode(builder, fromdocname, record.docname, anchor, contnode, record.key)

    def resolve_any_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        target: str,
        node: pending_xref,
        contnode: Element,
    ) -> list[tuple[str, nodes.reference]]:
        record, _, found = self._find(target)
        if record is None or found is None:
            return []
        return [("contrib:contrib", make_refnode(builder, fromdocname, record.docname, found[0], contnode))]

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        """Each write-up (priority 0) and section (-1), named by its lowercased key, shown by title."""
        for record in self.published():
            for section, anchor, title in record.targets():
                kind, priority = ("contribution", 0) if section is None else ("section", -1)
                yield object_name(record.key, section), title, kind, record.docname, anchor, priority

    def get_full_qualified_name(self, node: Element) -> str | None:
        """Intersphinx asks this when a target is not in an inventory as written: keys match in any case."""
        key, section = split_target(node.get("reftarget", ""))
        return object_name(key, section)


def did_you_mean(domain: ContributionsDomain, target: str) -> str:
    """``; did you mean 'sglang#5555'?``: the closest published key of the same number, or ""."""
    import difflib

    key, section = split_target(target)
    published = [record.key for record in domain.published()]
    name, _, number = key.rpartition("#")
    if not name:  # no "#": a file name or label (sglang-5555), or a repository name alone
        label_form = re.fullmatch(r"(?P<name>.+)-(?P<number>[1-9][0-9]*)", key)
        if label_form:
            name, number = label_form["name"], label_form["number"]
        else:
            alone = [known for known in published if key_lookup(known.rpartition("#")[0]) == key_lookup(key)]
            return f"; did you mean {alone[0] + (f'#{section}' if section else '')!r}?" if len(alone) == 1 else ""
    name = name.rpartition("/")[2]  # owner/repo#N: keys name the repository alone
    keys = {key_lookup(known): known for known in published if known.rpartition("#")[2] == number}
    found = difflib.get_close_matches(key_lookup(f"{name}#{number}"), list(keys), n=1, cutoff=0.75)
    if not found:
        return closest_keys(published, name)
    return f"; did you mean {keys[found[0]] + (f'#{section}' if section else '')!r}?"


def closest_keys(published: list[str], name: str, most: int = 3) -> str:
    """``; the closest existing keys: 'good#1', 'good#7'``, of the closest repositories; or ""."""
    import difflib

    names = {key_lookup(known.rpartition("#")[0]): known.rpartition("#")[0] for known in published}
    near = difflib.get_close_matches(key_lookup(name), list(names), n=most, cutoff=0.6)
    keys = [known for lookup in near for known in published if key_lookup(known.rpartition("#")[0]) == lookup]
    return f"; the closest existing keys: {', '.join(repr(key) for key in keys[:most])}" if keys else ""


def get_domain(env: BuildEnvironment) -> ContributionsDomain:
    """The one typed accessor of the ``contrib`` domain."""
    return cast("ContributionsDomain", env.domains["contrib"])


def holds_own_nodes(app: Sphinx, docname: str) -> bool:
    """Whether page ``docname`` may hold the extension's nodes (in a book, always)."""
    return output_of(app.builder).inlines or docname in get_domain(app.env).data.get("own_nodes", {})


def pages_showing_work(app: Sphinx) -> set[str]:
    """The pages the extension's directives or roles ran on when they were read: where it shows its work."""
    return set(get_domain(app.env).data.get("own_nodes", {}))


def site_shows_work(app: Sphinx) -> bool:
    """Whether any page of the site, when it was read, ran one of the extension's directives or roles."""
    return bool(get_domain(app.env).data.get("own_nodes"))


def settle_labels(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated``: see :meth:`ContributionsDomain.settle_labels`."""
    get_domain(env).settle_labels()
