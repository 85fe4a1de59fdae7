#!/usr/bin/env python3
"""Road objects of an OSM extract as pyosmium reads them, for checking the importer.

Usage: road_objects.py EXTRACT.osm.pbf ROAD_WAYS.txt

ROAD_WAYS.txt lists the OSM way ids the map kept as roads, one per line. Prints one JSON object:
tunnel and bridge way ids among them (the tag values the importer counts as yes), the speed
cameras (highway=speed_camera nodes) and, for toll booths, border controls, level crossings and
traffic signals, the positions (lat, lon at 1e-7 degrees) of the tagged nodes on those ways.
"""
import json
import sys

import osmium

TUNNEL = {"yes", "building_passage", "covered", "culvert"}
BRIDGE = {"yes", "viaduct", "cantilever", "movable", "boardwalk"}
NODE_OBJECTS = {
    ("barrier", "toll_booth"): "toll_booth",
    ("barrier", "border_control"): "border_crossing",
    ("railway", "level_crossing"): "railway_crossing",
    ("highway", "traffic_signals"): "traffic_signals",
}


def main(extract, ways_file):
    road_ways = {int(line) for line in open(ways_file) if line.strip()}
    tagged = {}  # node id -> (type, (lat, lon))
    result = {"tunnel": set(), "bridge": set(), "speed_cameras": 0}
    on_roads = {name: set() for name in NODE_OBJECTS.values()}

    class Nodes(osmium.SimpleHandler):
        def node(self, n):
            if n.tags.get("highway") == "speed_camera":
                result["speed_cameras"] += 1
            for (key, value), name in NODE_OBJECTS.items():
                if n.tags.get(key) == value:
                    tagged[n.id] = (name, (round(n.location.lat * 1e7), round(n.location.lon * 1e7)))

    class Ways(osmium.SimpleHandler):
        def way(self, w):
            if w.id not in road_ways:
                return
            if w.tags.get("tunnel") in TUNNEL:
                result["tunnel"].add(w.id)
            if w.tags.get("bridge") in BRIDGE:
                result["bridge"].add(w.id)
            for ref in w.nodes:
                if ref.ref in tagged:
                    name, position = tagged[ref.ref]
                    on_roads[name].add(position)

    Nodes().apply_file(extract)
    Ways().apply_file(extract)
    output = {
        "tunnel": sorted(result["tunnel"]),
        "bridge": sorted(result["bridge"]),
        "speed_cameras": result["speed_cameras"],
    }
    for name, positions in on_roads.items():
        output[name] = sorted(positions)
    print(json.dumps(output, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
