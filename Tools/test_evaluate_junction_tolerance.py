"""Tests of Tools/evaluate_junction_tolerance.py (run: python3 -m pytest Tools/test_evaluate_junction_tolerance.py)."""
import json
import math

import evaluate_drives as ev
import evaluate_junction_tolerance as jt

METRES_PER_DEGREE = ev.EARTH_RADIUS_M * math.pi / 180


def north(metres):
    """(lat, lon) `metres` due north of 60° N 25° E."""
    return 60.0 + metres / METRES_PER_DEGREE, 25.0


def write_map(path):
    """Way 1 from 0 to 100 m north, way 2 from 100 to 200 m, way 9 a side street leaving the node at 100 m."""
    def line(way, a, b):
        (lat0, lon0), (lat1, lon1) = a, b
        return dict(type="Feature", properties=dict(way_id=way, link_id=way),
                    geometry=dict(type="LineString", coordinates=[[lon0, lat0], [lon1, lat1]]))
    features = [line(1, north(0), north(100)), line(2, north(100), north(200)),
                line(9, north(100), (north(100)[0], 25.001))]
    path.write_text(json.dumps(dict(type="FeatureCollection", features=features)))
    return str(path)


def test_a_fix_by_the_node_one_way_off_is_forgiven_and_others_are_not(tmp_path):
    ends = jt.way_ends([write_map(tmp_path / "map.geojson")])
    # Fixes every 2 m from 90 to 110 m; the truth switches to way 2 at the node.
    distances = [90 + 2 * k for k in range(11)]
    truth = [(k, *north(d), 1 if d <= 100 else 2) for k, d in enumerate(distances)]
    # Matched a way ahead at 96, 98, 100 m (4, 2, 0 m before the node), and on the side street at 104 m.
    matches = {key: way for key, _, _, way in truth}
    matches.update({3: 2, 4: 2, 5: 2, 7: 9})
    correct, forgiven, fixes = jt.score_drive(truth, matches, ends, tolerance=3)
    assert (correct, fixes) == (7, 11)
    # 98 and 100 m are within 3 m of the node; 96 m is 4 m away; way 9 is not on the drive's path.
    assert forgiven == 2
    assert jt.score_drive(truth, matches, ends, tolerance=0.1)[1] == 1  # only the fix on the node


def test_a_missing_geojson_is_a_clear_error(tmp_path, capsys):
    status = jt.main(["--truth-dir", str(tmp_path), "--results-dir", str(tmp_path),
                      "--geojson", str(tmp_path / "absent.geojson")])
    assert status == 2
    assert "adasis map export-geojson" in capsys.readouterr().err


def test_the_table_has_the_strict_and_the_tolerant_share():
    table = jt.markdown([("a", 90, 5, 100), ("b", 48, 0, 50)], 3)
    assert "| a | 100 | 90.0 % | 95.0 % | 5 |" in table
    assert "| **total** | 150 | 92.0 % | 95.3 % | 5 |" in table


def test_label_changes_are_checked_against_the_node(tmp_path):
    ends = jt.way_ends([write_map(tmp_path / "map.geojson")])
    # Heading north; the label changes from way 1 to way 2 between 98 and 103 m (node at 100 m): right.
    right = [(*north(98), 0.0, 1), (*north(103), 0.0, 2)]
    # Way 1 kept until 104 m, way 2 from 94 m: one fix late, one early.
    late = [(*north(104), 0.0, 1), (*north(109), 0.0, 2)]
    early = [(*north(90), 0.0, 1), (*north(94), 0.0, 2)]
    assert jt.label_changes(right, ends) == (2, 0, 0, 0)
    assert jt.label_changes(late, ends) == (1, 1, 0, 0)
    assert jt.label_changes(early, ends) == (1, 0, 1, 0)
    assert jt.label_changes([(*north(10), 0.0, 1), (*north(15), 0.0, 7)], ends) == (0, 0, 0, 1)


def test_fixes_at_the_node_are_counted_along_the_road_either_side_of_the_change(tmp_path):
    ends = jt.way_ends([write_map(tmp_path / "map.geojson")])
    # Heading north every 0.6 m from 97.3 to 103.3 m; the label changes at the node (100 m). The car runs
    # 1.6 m east of the line: beside the node is not off it.
    beside = 1.6 / (METRES_PER_DEGREE * math.cos(math.radians(60)))
    rows = [(north(d)[0], 25.0 + beside, 0.0, 1 if d < 100 else 2) for d in (97.3 + 0.6 * k for k in range(11))]
    # 99.1, 99.7, 100.3, 100.9 m lie within 1 m of the node; 99.7 and 100.3 m within 0.5 m.
    assert jt.fixes_at_node(rows, ends, 1.0) == [3, 4, 5, 6]
    assert jt.fixes_at_node(rows, ends, 0.5) == [4, 5]
    # Ways that share no node (a folded short way) have no node to be beside.
    assert jt.fixes_at_node([(lat, lon, h, 9 if way == 2 else 3) for lat, lon, h, way in rows], ends, 1.0) == []


def test_the_summary_says_how_many_wrong_fixes_lie_at_a_node():
    line = jt.at_node_summary([("a", 20, 9, 200, 12), ("b", 5, 1, 100, 2)], 1)
    assert line.startswith("Fixes within 1 m along the road of a node")
    assert "a 20 of 200 (10.0 %), 9 of its 12 wrong" in line
    assert "all drives 25 of 300 (8.3 %), 10 of its 14 wrong." in line


def test_a_negative_at_node_distance_is_refused(tmp_path, capsys):
    status = jt.main(["--truth-dir", str(tmp_path), "--results-dir", str(tmp_path),
                      "--geojson", str(write_map(tmp_path / "map.geojson")), "--at-node", "-1"])
    assert status == 2
    assert "--at-node -1.0 is not a distance ≥ 0 m" in capsys.readouterr().err
