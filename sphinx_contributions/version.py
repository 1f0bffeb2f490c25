"""The package's version, apart from :func:`~.extension.setup` so that what names it (the forges' user
agent, a new site's pinned requirement) imports nothing else."""

__version__ = "0.1.0"
