"""Tests of the truth labels of Tools/make-drives.py (run: python3 -m pytest Tools/test_make_drives.py).

A fix's true way is the nearest of the ways SUMO drove and the short OSM ways that connect them. Until
stop 46 a way that merely met two of those at the junction node they share counted as a connector, so a
car driving straight through a junction was labelled, for a fix, with the side street ending there
(Mannerheimintie at Simonkatu, 33 s). The first tests pin the rules on small made-up graphs; the last
checks the labels of every drive in Data/drives against the OSM ways of its map.
"""
import csv
import importlib.util
import json
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
_spec = importlib.util.spec_from_file_location("make_drives", os.path.join(HERE, "make-drives.py"))
make_drives = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_drives)

# Node id -> (lat, lon): a street running north (nodes 1, 2, 3), a side street ending at node 2 from the
# east (node 9), and a second junction at node 3 with a short way on to node 4 and a stub west (node 8).
NODES = {1: (60.0000, 25.0), 2: (60.0001, 25.0), 3: (60.0002, 25.0), 4: (60.0003, 25.0),
         9: (60.0001, 25.0002), 8: (60.0002, 24.9998)}


def graph(ways):
    """Installs `ways` (way id -> node ids) as the module's map and returns the ways' geometry."""
    make_drives.WAY_NODES.clear()
    make_drives.CAR_WAYS.clear()
    make_drives.WAY_LENGTH.clear()
    make_drives.CONNECTOR_CACHE.clear()
    geometry = {}
    for way, nodes in ways.items():
        points = [NODES[n] for n in nodes]
        geometry[way] = points
        make_drives.WAY_NODES[way] = set(nodes)
        make_drives.CAR_WAYS.add(way)
        make_drives.WAY_LENGTH[way] = sum(make_drives.distance_m(*a, *b) for a, b in zip(points, points[1:]))
    return geometry


def test_a_side_street_ending_at_the_junction_connects_nothing():
    # 10 (1-2) and 11 (2-3) meet at node 2; 12 (2-9) is a short side street ending there.
    graph({10: [1, 2], 11: [2, 3], 12: [2, 9]})
    assert make_drives.connectors([10, 11]) == []


def test_a_short_way_between_two_driven_ways_connects_them():
    # 10 (1-2), 13 (2-3) short, 14 (3-4): the car drives 10 > 13 > 14.
    graph({10: [1, 2], 13: [2, 3], 14: [3, 4]})
    assert make_drives.connectors([10, 14]) == [13]


def test_a_chain_does_not_wander_into_a_side_street_at_its_end():
    # 13 joins 10 to 14 at node 3; 15 (3-8) is a side street meeting 14 at that same node.
    graph({10: [1, 2], 13: [2, 3], 14: [3, 4], 15: [3, 8]})
    assert make_drives.connectors([10, 14]) == [13]


def test_a_one_fix_blip_onto_a_side_street_becomes_the_nearer_driven_way():
    ways = graph({10: [1, 2], 11: [2, 3], 12: [2, 9]})
    rows = [(0, 60.00005, 25.0), (1, 60.000095, 25.00001), (2, 60.00015, 25.0)]
    assert make_drives.without_blips([10, 12, 11], rows, ways) == [10, 10, 11]


def test_longer_runs_and_returns_keep_their_labels():
    ways = graph({10: [1, 2], 11: [2, 3], 12: [2, 9]})
    # Three fixes on the side street: a car can turn there.
    run = [(t, 60.0001, 25.0001) for t in range(5)]
    assert make_drives.without_blips([10, 12, 12, 12, 11], run, ways) == [10, 12, 12, 12, 11]
    # Into the side street and back onto the same way: a return, kept.
    assert make_drives.without_blips([10, 12, 10], run[:3], ways) == [10, 12, 10]
    # A way that does lead from one to the other stays.
    ways = graph({10: [1, 2], 13: [2, 3], 14: [3, 4]})
    assert make_drives.without_blips([10, 13, 14], run[:3], ways) == [10, 13, 14]


def drive_maps():
    """Drive name -> its map's way id -> node ids, read with pyosmium."""
    osmium = pytest.importorskip("osmium")
    nodes_of = {}

    def way_nodes(path):
        if path not in nodes_of:
            found = {}

            class Reader(osmium.SimpleHandler):
                def way(self, w):
                    if "highway" in w.tags:
                        found[w.id] = {n.ref for n in w.nodes}

            Reader().apply_file(os.path.join(ROOT, path))
            nodes_of[path] = found
        return nodes_of[path]

    drives = json.load(open(os.path.join(ROOT, "Data", "drives", "drives.json")))["drives"]
    return {d["name"]: way_nodes(d.get("map", "Data/helsinki.osm.pbf")) for d in drives}


def test_no_drive_has_a_one_fix_label_off_its_route():
    blips = []
    for name, nodes in drive_maps().items():
        with open(os.path.join(ROOT, "Data", "drives", f"{name}.csv")) as trace:
            labels = [int(row["true_way_id"]) for row in csv.DictReader(trace)]
        assert all(way in nodes for way in labels), f"{name}: a label names no highway way of its map"
        for index in range(1, len(labels) - 1):
            if make_drives.is_blip(*labels[index - 1:index + 2], nodes):
                blips.append((name, index, labels[index]))
    assert blips == []
