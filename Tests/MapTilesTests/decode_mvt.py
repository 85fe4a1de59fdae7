#!/usr/bin/env python3
"""Decodes Mapbox Vector Tiles with the independent `mapbox-vector-tile` package (PyPI) and prints
them as JSON: {file: {layer: {...features in grid coordinates, y down...}}}. Used by MapTilesTests."""
import json
import sys

import mapbox_vector_tile

result = {}
for path in sys.argv[1:]:
    with open(path, "rb") as handle:
        result[path] = mapbox_vector_tile.decode(handle.read(), default_options={"y_coord_down": True})
json.dump(result, sys.stdout)
