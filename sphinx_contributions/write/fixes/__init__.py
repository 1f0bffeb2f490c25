"""Workarounds for what Sphinx and other extensions get wrong, one module each, each run only in the versions
:data:`..compat.WORKAROUNDS` names, guarded by ``tests/test_workarounds.py`` and described, with the upstream fix, in
``docs/explanation/workarounds.md``."""
