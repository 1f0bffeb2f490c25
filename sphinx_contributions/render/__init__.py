"""Rendering, run at write time from the domain's records: the header of a write-up, its figures, the
listings and the generated tag and project pages. Nothing here runs while pages are read, so every
builder gets nodes made for it and the domain holds data only."""
