"""Rendering at write time, from the domain's records, so every builder gets nodes made for it."""
