"""Writing outputs: exports, books, generated tag and project pages, the sidebar and social cards, the report,
the manifest of what each output holds, and fixes for what other packages leave stale."""
