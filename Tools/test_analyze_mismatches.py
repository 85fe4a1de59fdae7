"""Tests of Tools/analyze_mismatches.py (run: python3 -m pytest Tools/test_analyze_mismatches.py)."""
import importlib.util
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("analyze_mismatches", os.path.join(HERE, "analyze_mismatches.py"))
analyze = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(analyze)


def write_map(path, ways):
    """A GeoJSON as `adasis map export-geojson` writes it: one LineString per link (way id, link id, points)."""
    features = [dict(type="Feature", geometry=dict(type="LineString", coordinates=[[lon, lat] for lat, lon in points]),
                     properties=dict(way_id=way, link_id=link)) for way, link, points in ways]
    path.write_text(json.dumps(dict(type="FeatureCollection", features=features)))
    return str(path)


def write_drive(truth, results, name, lat, lon, driven, matched):
    """Three fixes due north along the way `driven`, the second matched to the parallel way `matched` (link
    id = way id), 0.00014° (7.7 m) east."""
    rows = [(t, lat + 0.0001 * (t + 1)) for t in range(3)]
    (truth / f"{name}.csv").write_text("time_s,lat,lon,speed_mps,heading_deg,true_way_id\n" + "".join(
        f"{t:.1f},{y:.7f},{lon},10,0,{driven}\n" for t, y in rows))
    (results / f"{name}.match.csv").write_text("time_s,state,way_id,link_id,offset_m,lat,lon\n" + "".join(
        f"{t:.1f},on_road,{way},L{way}+,0,{y:.7f},{x}\n" for (t, y), way, x in
        zip(rows, (driven, matched, driven), (lon, lon + 0.00014, lon))))


def test_every_map_the_drives_ran_on_gives_its_geometry(tmp_path, capsys):
    # Each map holds two parallel ways 7.7 m apart (the tool's plane is tangent at Helsinki); a drive on each
    # map is matched to the wrong one of its pair at its second fix.
    sample = write_map(tmp_path / "sample.geojson", [
        (100, 100, [(60.17, 24.94), (60.171, 24.94)]), (101, 101, [(60.17, 24.94014), (60.171, 24.94014)])])
    suburb = write_map(tmp_path / "suburb.geojson", [
        (1, 1, [(60.3, 24.7), (60.301, 24.7)]), (2, 2, [(60.3, 24.70014), (60.301, 24.70014)])])
    truth, results = tmp_path / "truth", tmp_path / "results"
    truth.mkdir()
    results.mkdir()
    write_drive(truth, results, "city", 60.17, 24.94, 100, 101)
    write_drive(truth, results, "suburb", 60.3, 24.7, 1, 2)
    arguments = ["--truth-dir", str(truth), "--results-dir", str(results), "--list"]
    # Both maps given: each wrong fix lies on its true way, 7.7 m from the matched one, a road no drive names.
    assert analyze.main(["--geojson", sample, "--geojson", suburb] + arguments) == 0
    out = capsys.readouterr().out
    for name, true, matched in (("city", 100, 101), ("suburb", 1, 2)):
        assert (f"{name} t=1.0 other true {true} matched {matched} speed 10 m/s, truth point 0.0 m from true way, "
                f"7.7 m from matched way") in out
    assert "other            true way nearer  2" in out and " tie  " not in out
    assert "fixes 6, wrong way 2 (66.7 % correct)" in out
    # Without the suburb map its drive has no geometry: the fix can only count as a tie at a node.
    assert analyze.main(["--geojson", sample] + arguments) == 0
    out = capsys.readouterr().out
    assert "suburb t=1.0 truth-artefact true 1 matched 2" in out and "city t=1.0 other" in out
