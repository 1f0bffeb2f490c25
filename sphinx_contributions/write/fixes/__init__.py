"""Fixes for what Sphinx and other extensions leave stale or incomplete on incremental builds, one
module each, named after what it fixes (``../shared/pitfalls.md``); each has a guard test in
``tests/test_incremental.py`` that removes it and shows the equality test then fails. One fixes what every
build prints (:mod:`.opengraph_print`, guarded in ``tests/test_cards.py``)."""
