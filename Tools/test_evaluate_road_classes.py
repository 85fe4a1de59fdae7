"""Tests of Tools/evaluate_road_classes.py (run: python3 -m pytest Tools/test_evaluate_road_classes.py)."""
import json

import evaluate_road_classes as rc


def write_map(path, classes):
    """A GeoJSON FeatureCollection with one link per (way id, highway class), as adasis map export-geojson
    writes them (a link per feature, its way and class in the properties)."""
    features = [dict(type="Feature", properties=dict(link_id=way * 10, way_id=way, highway=highway),
                     geometry=dict(type="LineString", coordinates=[[25.0, 60.0], [25.0, 60.001]]))
                for way, highway in classes.items()]
    path.write_text(json.dumps(dict(type="FeatureCollection", features=features)))
    return str(path)


def write_drive(directory, name, ways, matched, suffix=""):
    """Truth <name>.csv (clean) with one fix per way of `ways`, and <name><suffix>.match.csv with `matched`."""
    truth = ["time_s,lat,lon,speed_mps,heading_deg,true_way_id"]
    truth += [f"{k}.0,60.0,25.0,10,0,{way}" for k, way in enumerate(ways)]
    (directory / f"{name}.csv").write_text("\n".join(truth) + "\n")
    match = ["time_s,state,way_id"] + [f"{k}.0,on_road,{way}" for k, way in enumerate(matched)]
    (directory / f"{name}{suffix}.match.csv").write_text("\n".join(match) + "\n")


def test_fixes_are_scored_by_the_class_of_their_true_way(tmp_path):
    geojson = write_map(tmp_path / "map.geojson", {1: "motorway", 2: "motorwayLink", 3: "primary"})
    # Four fixes on the motorway (one matched to the ramp), two on the ramp, two on the primary road (one unmatched).
    write_drive(tmp_path, "a", [1, 1, 1, 1, 2, 2, 3, 3], [1, 1, 1, 2, 2, 2, 3, ""], suffix="-noisy")
    write_drive(tmp_path, "b", [3, 7], [3, 7], suffix="-noisy")
    classes = rc.way_classes([geojson])
    drives = [("a", *(rc.ev.read_truth(tmp_path / "a.csv"), rc.ev.read_match(tmp_path / "a-noisy.match.csv"))),
              ("b", *(rc.ev.read_truth(tmp_path / "b.csv"), rc.ev.read_match(tmp_path / "b-noisy.match.csv")))]
    scores = rc.score_by_class(drives, classes)
    assert scores["motorway"][:2] == [3, 4]
    assert scores["motorwayLink"][:2] == [2, 2]
    assert scores["primary"][:2] == [2, 3] and scores["primary"][2] == {"a", "b"}
    # Way 7 is in no map given: counted apart, not dropped.
    assert scores[rc.NOT_IN_MAP][:2] == [1, 1]
    table = rc.markdown(scores)
    assert "| motorway | 4 | 75.0 % | a |" in table
    assert "| **highways** (motorway, trunk) | 4 | 75.0 % | a |" in table
    assert "| **highways and their ramps** | 6 | 83.3 % | a |" in table


def test_without_highway_fixes_there_is_no_highway_row(tmp_path):
    geojson = write_map(tmp_path / "map.geojson", {3: "residential"})
    write_drive(tmp_path, "c", [3, 3], [3, 3])
    assert rc.main(["--truth-dir", str(tmp_path), "--results-dir", str(tmp_path), "--geojson", geojson]) == 0
    table = rc.markdown(rc.score_by_class(
        [("c", rc.ev.read_truth(tmp_path / "c.csv"), rc.ev.read_match(tmp_path / "c.match.csv"))],
        rc.way_classes([geojson])))
    assert "| residential | 2 | 100.0 % | c |" in table
    assert "highways" not in table


def test_bad_input_is_a_clear_error(tmp_path, capsys):
    write_drive(tmp_path, "d", [3], [3])
    assert rc.main(["--truth-dir", str(tmp_path), "--results-dir", str(tmp_path),
                    "--geojson", str(tmp_path / "absent.geojson")]) == 2
    assert "adasis map export-geojson" in capsys.readouterr().err
    empty = tmp_path / "empty.geojson"
    empty.write_text(json.dumps(dict(type="FeatureCollection", features=[])))
    assert rc.main(["--truth-dir", str(tmp_path), "--results-dir", str(tmp_path), "--geojson", str(empty)]) == 2
    assert "no link with a way_id and a highway class" in capsys.readouterr().err
