"""Workarounds of other packages' bugs, one module each, run only in the versions :data:`..compat.WORKAROUNDS` names
(``docs/explanation/workarounds.md``)."""
