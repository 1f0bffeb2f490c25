"""Checking: whole-page rules run while a page is read (the sections and their fences, near misses) and the
page's claims against the forge's facts, each a ``[contrib.*]`` warning with file and line."""
