"""Tests of Tools/evaluate_off_map.py on small synthetic drives (run: python3 -m pytest Tools/test_evaluate_off_map.py)."""
import math
import os

import pytest

import evaluate_off_map as om


def truth_of(ways):
    """Truth fixes one second apart along a line due east, with these way ids, as
    evaluate_drives.read_truth gives them: (time key in tenths of a second, lat, lon, way id)."""
    return [(i * 10, 60.0, 25.0 + i * 1e-4, w) for i, w in enumerate(ways)]


def test_the_longest_run_away_from_the_ends_is_taken_out():
    ways = [1] * 25 + [2] * 30 + [3] * 5 + [4] * 40 + [5] * 19
    # Way 4's run (40 fixes) ends 19 fixes before the last: too late to come back; way 2 is next.
    assert om.longest_run_way(truth_of(ways)) == 2
    assert om.longest_run_way(truth_of(ways + [6])) == 4
    # A run that starts within the first fixes is no candidate either.
    assert om.longest_run_way(truth_of([1] * 60 + [2] * 25)) is None
    # Equal runs: the earlier one.
    assert om.longest_run_way(truth_of([0] * 20 + [1] * 10 + [2] * 10 + [3] * 20)) == 1


def test_scores_count_detection_the_road_taken_instead_and_the_way_back():
    truth = truth_of([1] * 5 + [2] * 6 + [1] * 4 + [3] * 3)
    states, ways = {}, {}
    listed = (["on_road"] * 5 + ["on_road", "on_road", "off_road", "off_road", "off_road", "off_road"]
              + ["off_road", "on_road", "on_road", "on_road"] + ["off_road", "on_road", "on_road"])
    for (key, _, _, way), state in zip(truth, listed):
        states[key] = state
        ways[key] = way if state == "on_road" else None
        if key in (50, 60):
            ways[key] = 9  # matched to the road beside the one taken out
    scores = om.score(truth, states, ways, {2}, nearest=lambda lat, lon: 25.0)
    assert scores["off_map"] == 6 and scores["declared"] == 4 and scores["elsewhere"] == 2
    assert scores["detections"] == [2.0]
    assert scores["recoveries"] == [1.0]  # back on way 1 at t = 11 (still off road), matched at 12
    assert scores["on_map"] == 12 and scores["false_off"] == 2  # t = 11 (the way back) and t = 15
    assert scores["nearest_m"] == 25.0


def test_a_run_never_detected_and_never_recovered():
    truth = truth_of([1] * 3 + [2] * 3 + [1] * 2)
    states = {key: "on_road" for key, _, _, _ in truth}
    ways = {key: 9 for key, _, _, _ in truth}
    scores = om.score(truth, states, ways, {2})
    assert scores["detections"] == [None] and scores["recoveries"] == [None]
    assert scores["elsewhere"] == 3 and scores["nearest_m"] is None
    assert om.seconds(scores["detections"]) == "–"


def test_a_fix_missing_from_the_output_is_neither_declared_nor_elsewhere():
    truth = truth_of([1, 2, 2, 1])
    scores = om.score(truth, {0: "on_road", 10: "off_road"}, {0: 1, 10: None}, {2})
    assert (scores["declared"], scores["elsewhere"], scores["off_map"]) == (1, 0, 2)


def test_the_match_output_is_read_as_evaluate_drives_reads_it(tmp_path):
    match = tmp_path / "d.match.csv"
    match.write_text("time_s,state,way_id,link_id,offset_m,lat,lon\n0.0,on_road,1,L1+,0.0,60,25\n"
                     "1.0,off_road,,,,60,25\n")
    truth = truth_of([1, 2])
    scores = om.score(truth, om.ev.read_states(str(match)), om.ev.read_match(str(match)), {2})
    assert (scores["declared"], scores["false_off"], scores["detections"]) == (1, 0, [0.0])


def test_the_nearest_road_is_measured_to_segments_not_vertices(tmp_path):
    path = tmp_path / "roads.geojson"
    # One road from 0.001° west to 0.001° east of the point, 0.0002° (≈ 22 m) north of it.
    path.write_text('{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, '
                    '"geometry": {"type": "LineString", "coordinates": [[24.999, 60.0002], [25.001, 60.0002]]}}]}')
    roads = om.RoadIndex(str(path))
    expected = 0.0002 * om.MAKE_DRIVES.EARTH_RADIUS_M * math.pi / 180
    assert roads.nearest(60.0, 25.0) == pytest.approx(expected, rel=1e-6)


def test_the_reduced_map_lacks_exactly_the_ways_taken_out(tmp_path):
    osmium = pytest.importorskip("osmium")
    source = tmp_path / "in.osm"
    source.write_text("""<?xml version='1.0' encoding='UTF-8'?>
<osm version="0.6">
 <node id="1" lat="60.0" lon="25.0" version="1"/><node id="2" lat="60.0" lon="25.001" version="1"/>
 <node id="3" lat="60.0" lon="25.002" version="1"/>
 <way id="10" version="1"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/></way>
 <way id="11" version="1"><nd ref="2"/><nd ref="3"/><tag k="highway" v="residential"/></way>
</osm>
""")
    target = tmp_path / "out.osm.pbf"
    om.write_reduced_pbf(str(source), str(target), {11})

    class Ways(osmium.SimpleHandler):
        def __init__(self):
            super().__init__()
            self.ways, self.nodes = [], 0

        def way(self, way):
            self.ways.append(way.id)

        def node(self, node):
            self.nodes += 1

    found = Ways()
    found.apply_file(str(target))
    assert found.ways == [10] and found.nodes == 3
