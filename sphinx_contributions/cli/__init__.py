"""The ``contributions`` command (:mod:`.main`) and its subcommands, beside the build: they run Sphinx in a
subprocess and read the report it writes, never the build's internals."""
