"""Workarounds for what Sphinx and other extensions get wrong, one module each, named after what it fixes.
Each runs only in the versions of the package that :data:`..compat.WORKAROUNDS` names, has a guard test
(``tests/test_workarounds.py``) that fails when upstream fixes it or changes the shape it relies on, and is
described in ``docs/explanation/workarounds.md`` with the change that would fix it upstream."""
