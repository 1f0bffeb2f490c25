"""Writing outputs: exports, books, generated pages, sidebar, cards, the report, the manifest, fixes."""
