"""Collecting: the ``contrib`` domain, where each page's records are kept, merged from parallel readers,
checked across pages and resolved; per-page data, titles, drafts and the lock's facts."""
