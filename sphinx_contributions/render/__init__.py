"""Rendering, at write time, from the domain's records: headers, figures, listings and generated pages, so every builder
gets nodes made for it and the domain holds data only."""
