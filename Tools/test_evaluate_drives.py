"""Tests of Tools/evaluate_drives.py on small synthetic drives (run: python3 -m pytest Tools/test_evaluate_drives.py)."""
import csv
import json
import math
import os

import pytest

import evaluate_drives as ev

HERE = os.path.dirname(os.path.abspath(__file__))
METRES_PER_DEGREE = ev.EARTH_RADIUS_M * math.pi / 180


def straight_drive(fixes=100, step_m=10.0, way_length_m=300.0):
    """A drive due north at 10 m per second: way 1 for the first 300 m, way 2 for the next 300 m, then way 3."""
    rows = []
    for index in range(fixes):
        distance = index * step_m
        rows.append(dict(time_s=float(index), lat=60.0 + distance / METRES_PER_DEGREE, lon=25.0,
                         way=1 + int(distance // way_length_m)))
    return rows


def write_truth(path, rows):
    with open(path, "w") as out:
        out.write("time_s,lat,lon,speed_mps,heading_deg,true_way_id\n")
        for row in rows:
            out.write(f"{row['time_s']:.1f},{row['lat']:.8f},{row['lon']:.7f},10.00,0.0,{row['way']}\n")
    return str(path)


def write_match(path, rows, way_of=lambda row: row["way"], time_shift=0.0):
    with open(path, "w") as out:
        out.write("time_s,state,way_id,link_id,offset_m,lat,lon\n")
        for row in rows:
            way = way_of(row)
            out.write(f"{row['time_s'] + time_shift:.2f},{'matched' if way else 'lost'},"
                      f"{'' if way is None else way},0,0.0,{row['lat']},{row['lon']}\n")
    return str(path)


def perfect_main_path(distance, way_length_m=300.0, ahead_m=600.0):
    """The exact main path of the straight drive from a driven distance."""
    path, position = [], distance
    while position < distance + ahead_m:
        way = 1 + int(position // way_length_m)
        end = way * way_length_m
        path.append(dict(way_id=way, length_m=end - position))
        position = end
    return path


def write_horizon(path, rows, main_path_of):
    with open(path, "w") as out:
        for index, row in enumerate(rows):
            main_path = main_path_of(index, row)
            if main_path is not None:
                out.write(json.dumps(dict(time_s=row["time_s"], state="matched", way_id=row["way"],
                                          main_path=main_path, side_paths=[])) + "\n")
    return str(path)


def test_perfect_outputs_score_everything(tmp_path):
    rows = straight_drive()
    truth = write_truth(tmp_path / "d.csv", rows)
    match = write_match(tmp_path / "d.match.csv", rows)
    horizon = write_horizon(tmp_path / "d.horizon.jsonl", rows, lambda i, row: perfect_main_path(10.0 * i))
    result = ev.evaluate_drive("d", truth, match, horizon)
    assert result["way_correct_share"] == 1.0
    assert result["matched_fixes"] == 100
    # 990 m driven: fixes at 0..490 m have 500 m ahead.
    assert result["horizon_fixes"] == 50
    assert result["horizon_coverage"] == pytest.approx(1.0)
    assert result["output_rows_without_truth"] == 0


def test_partially_wrong_match_counts_wrong_lost_and_missing_fixes(tmp_path):
    rows = straight_drive(fixes=40)
    truth = write_truth(tmp_path / "d.csv", rows)

    def way_of(row):
        index = int(row["time_s"])
        if index % 4 == 0:
            return 99          # wrong way: 10 fixes
        if index % 10 == 1:
            return None        # lost: fixes 1, 11, 21, 31
        return row["way"]
    kept = [row for row in rows if int(row["time_s"]) not in (3, 7)]  # two fixes missing from the output
    match = write_match(tmp_path / "d.match.csv", kept, way_of)
    result = ev.evaluate_drive("d", truth, match_path=match)
    assert result["way_correct"] == 40 - 10 - 4 - 2
    assert result["way_correct_share"] == pytest.approx(24 / 40)
    assert result["matched_fixes"] == 40 - 4 - 2
    assert result["horizon_coverage"] is None


def test_horizon_that_stops_at_the_end_of_the_current_way(tmp_path):
    rows = straight_drive()
    truth = write_truth(tmp_path / "d.csv", rows)
    horizon = write_horizon(tmp_path / "d.horizon.jsonl", rows,
                            lambda i, row: perfect_main_path(10.0 * i)[:1])
    result = ev.evaluate_drive("d", truth, horizon_path=horizon)
    # Fix k (k*10 m) sees only its own way: on way 1 (k < 30) the samples 10..(290 - 10k) m are covered
    # (29 - k of 50), on way 2 (30 <= k < 50) 59 - k of 50.
    expected = (sum(29 - k for k in range(30)) + sum(59 - k for k in range(30, 50))) / (50 * 50)
    assert result["horizon_coverage"] == pytest.approx(expected)


def test_horizon_turning_onto_a_wrong_way_and_missing_fixes(tmp_path):
    rows = straight_drive()
    truth = write_truth(tmp_path / "d.csv", rows)

    def main_path(index, row):
        if index % 2:
            return None  # no horizon for odd fixes: they score 0
        path = perfect_main_path(10.0 * index)
        return path[:1] + [dict(way_id=77, length_m=1000.0)]
    horizon = write_horizon(tmp_path / "d.horizon.jsonl", rows, main_path)
    result = ev.evaluate_drive("d", truth, horizon_path=horizon)
    expected = (sum(29 - k for k in range(0, 30, 2)) + sum(59 - k for k in range(30, 50, 2))) / (50 * 50)
    assert result["horizon_coverage"] == pytest.approx(expected)
    assert 0 < result["horizon_coverage"] < 0.5


def test_empty_outputs_score_zero(tmp_path):
    rows = straight_drive()
    truth = write_truth(tmp_path / "d.csv", rows)
    header_only = write_match(tmp_path / "h.match.csv", [])
    zero_bytes = tmp_path / "z.match.csv"
    zero_bytes.write_text("")
    horizon = tmp_path / "d.horizon.jsonl"
    horizon.write_text("")
    for match in (header_only, str(zero_bytes)):
        result = ev.evaluate_drive("d", truth, match, str(horizon))
        assert result["way_correct_share"] == 0.0
        assert result["matched_fixes"] == 0
        assert result["horizon_fixes"] == 50
        assert result["horizon_coverage"] == 0.0


def test_coverage_tolerance_is_25_m_either_side():
    path = [(1, 100.0), (2, 100.0)]
    assert ev.covered(path, 2, 110.0)
    assert ev.covered(path, 2, 76.0)       # 76 + 25 reaches the start of way 2 at 100 m
    assert not ev.covered(path, 2, 74.0)
    assert ev.covered(path, 1, 124.0)      # 124 - 25 is still inside way 1
    assert not ev.covered(path, 1, 126.0)
    assert not ev.covered(path, 2, 226.0)  # beyond the end of the main path
    assert not ev.covered([], 1, 10.0)


def test_join_rounds_time_to_a_tenth_of_a_second(tmp_path):
    rows = straight_drive(fixes=10)
    truth = write_truth(tmp_path / "d.csv", rows)
    near = write_match(tmp_path / "near.match.csv", rows, time_shift=0.04)
    far = write_match(tmp_path / "far.match.csv", rows, time_shift=0.3)
    assert ev.evaluate_drive("d", truth, near)["way_correct_share"] == 1.0
    result = ev.evaluate_drive("d", truth, far)
    # Every output row lands 0.3 s off: nothing joins and every output row lacks a truth fix.
    assert result["way_correct_share"] == 0.0
    assert result["output_rows_without_truth"] == 10


def test_drive_shorter_than_the_horizon_has_no_horizon_score(tmp_path):
    rows = straight_drive(fixes=30)  # 290 m
    truth = write_truth(tmp_path / "d.csv", rows)
    horizon = write_horizon(tmp_path / "d.horizon.jsonl", rows, lambda i, row: perfect_main_path(10.0 * i))
    result = ev.evaluate_drive("d", truth, horizon_path=horizon)
    assert result["horizon_fixes"] == 0
    assert result["horizon_coverage"] is None
    assert "| d | 30 | – | – | – | 0 | – | – | – |" in ev.markdown([result])


def test_total_weights_drives_by_fixes(tmp_path):
    short, long = straight_drive(fixes=10), straight_drive(fixes=30)
    good = ev.evaluate_drive("good", write_truth(tmp_path / "a.csv", short),
                             write_match(tmp_path / "a.match.csv", short))
    bad = ev.evaluate_drive("bad", write_truth(tmp_path / "b.csv", long),
                            write_match(tmp_path / "b.match.csv", long, lambda row: 5))
    row = ev.total([good, bad])
    assert row["fixes"] == 40
    assert row["way_correct_share"] == pytest.approx(0.25)
    table = ev.markdown([good, bad]).splitlines()
    assert table[2] == "| good | 10 | 10 | 100.0 % | 0.0 % | – | – | – | – |"
    assert table[3] == "| bad | 30 | 30 | 0.0 % | 0.0 % | – | – | – | – |"
    assert table[4] == "| **total** | 40 | 40 | 25.0 % | 0.0 % | – | – | – | – |"


@pytest.mark.parametrize("content, message", [
    ("time_s,lat,lon\n0,60,25\n", ":1: header lacks column(s) true_way_id"),
    ("time_s,lat,lon,true_way_id\n0,60,25,1\nabc,60,25,1\n", ":3: time_s 'abc' is not a number"),
    ("time_s,lat,lon,true_way_id\n0,60,25,1\n0.01,60,25,1\n", ":3: time_s 0.01 appears twice"),
    ("time_s,lat,lon,true_way_id\n0,91,25,1\n", ":2: lat/lon 91.0,25.0 out of range"),
    ("time_s,lat,lon,true_way_id\n0,60,25,\n", ":2: way id is empty"),
    ("time_s,lat,lon,true_way_id\n", "no fixes"),
])
def test_bad_truth_is_a_clear_error(tmp_path, content, message):
    path = tmp_path / "t.csv"
    path.write_text(content)
    with pytest.raises(ev.EvaluationError, match=None) as error:
        ev.read_truth(str(path))
    assert message in str(error.value)
    assert str(path) in str(error.value)


@pytest.mark.parametrize("content, message", [
    ('{"time_s": 0, "main_path": []}\nnot json\n', ":2: not JSON"),
    ('[1, 2]\n', ":1: expected an object with time_s"),
    ('{"time_s": 0, "main_path": [{"way_id": 1}]}\n', "main_path[0] needs way_id and length_m"),
    ('{"time_s": 0, "main_path": [{"way_id": 1, "length_m": -3}]}\n', "length_m -3 is not a length"),
    ('{"time_s": 0, "main_path": [{"way_id": "x", "length_m": 3}]}\n', "way id 'x' is not an integer"),
    ('{"time_s": 0, "main_path": []}\n{"time_s": 0.0, "main_path": []}\n', ":2: time_s 0.0 appears twice"),
])
def test_bad_horizon_is_a_clear_error(tmp_path, content, message):
    path = tmp_path / "h.jsonl"
    path.write_text(content)
    with pytest.raises(ev.EvaluationError) as error:
        ev.read_horizon(str(path))
    assert message in str(error.value)


def test_bad_match_and_missing_files_are_clear_errors(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("time_s,state,way_id\n0,matched,12x\n")
    with pytest.raises(ev.EvaluationError, match=r"m\.csv:2: way id '12x' is not an integer"):
        ev.read_match(str(path))
    with pytest.raises(ev.EvaluationError, match="match file .*nope.csv: No such file"):
        ev.read_match(str(tmp_path / "nope.csv"))


def test_command_line_directory_mode_and_json(tmp_path, capsys):
    truth_dir, results = tmp_path / "drives", tmp_path / "out"
    truth_dir.mkdir()
    results.mkdir()
    rows = straight_drive()
    write_truth(truth_dir / "north.csv", rows)
    write_truth(truth_dir / "north-noisy.csv", rows)  # ignored: noisy files are inputs, not truth
    write_truth(truth_dir / "other.csv", rows)        # no results: skipped
    write_match(results / "north-noisy.match.csv", rows, lambda row: 1)
    write_horizon(results / "north-noisy.horizon.jsonl", rows, lambda i, row: perfect_main_path(10.0 * i))
    args = ["--truth-dir", str(truth_dir), "--results-dir", str(results), "--suffix=-noisy"]
    assert ev.main(args) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[2] == "| north | 100 | 100 | 30.0 % | 0.0 % | 50 | 100.0 % | 100.0 % | – |"
    assert len(table) == 4
    assert ev.main(args + ["--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [d["name"] for d in report["drives"]] == ["north"]
    assert report["total"]["way_correct_share"] == pytest.approx(0.3)
    assert ev.main(["--truth-dir", str(truth_dir), "--results-dir", str(tmp_path / "none")]) == 2
    assert "results directory" in capsys.readouterr().err
    assert ev.main(["--truth", str(truth_dir / "north.csv")]) == 2
    assert "nothing to score" in capsys.readouterr().err


def test_oracle_outputs_built_from_a_real_drive_score_full():
    """The committed drive parses, and outputs rebuilt from its own truth score 100 %."""
    truth_path = os.path.join(HERE, "..", "Data", "drives", "mannerheimintie.csv")
    truth = ev.read_truth(truth_path)
    distances = ev.driven_distances(truth)
    assert 1500 < distances[-1] < 2000
    # Way runs along the drive: a way changes halfway between two fixes.
    boundaries = [0.0]
    ways = [truth[0][3]]
    for index in range(1, len(truth)):
        if truth[index][3] != ways[-1]:
            boundaries.append((distances[index - 1] + distances[index]) / 2)
            ways.append(truth[index][3])
    boundaries.append(distances[-1])
    horizons = {}
    for key, distance in zip((fix[0] for fix in truth), distances):
        path = []
        for way, start, end in zip(ways, boundaries, boundaries[1:]):
            if end > distance:
                path.append((way, end - max(start, distance)))
        horizons[key] = path
    matches = {fix[0]: fix[3] for fix in truth}
    assert ev.match_score(truth, matches) == (len(truth), len(truth))
    coverage_sum, scored = ev.horizon_score(truth, horizons)
    assert scored > 50
    assert coverage_sum / scored == pytest.approx(1.0)


def test_true_way_ahead_is_the_way_of_the_fix_nearest_in_driven_distance():
    truth = [(0, 0, 0, 1), (10, 0, 0, 2), (20, 0, 0, 3)]
    distances = [0.0, 10.0, 30.0]
    assert ev.true_way_at(truth, distances, 4.9) == 1
    assert ev.true_way_at(truth, distances, 5.0) == 1   # tie: the earlier fix
    assert ev.true_way_at(truth, distances, 5.1) == 2
    assert ev.true_way_at(truth, distances, 20.0) == 2
    assert ev.true_way_at(truth, distances, 20.1) == 3
    assert ev.true_way_at(truth, distances, 99.0) == 3  # past the end: the last fix


def test_side_paths_count_for_the_tree_but_not_for_the_main_path(tmp_path):
    # The main path wrongly continues on way 9 at the end of way 1; a side path from that junction carries
    # the true ways 2 and 3. The main path covers only way 1, the tree covers everything.
    rows = straight_drive()
    truth = write_truth(tmp_path / "d.csv", rows)

    def record(index, row):
        here = 10.0 * index
        path = [way for way in perfect_main_path(here) if way["way_id"] == 1]
        rest = 300.0 - here if here < 300 else None
        main = path + [dict(way_id=9, length_m=600.0)]
        side = [] if rest is None else [dict(path_id=2, level=1, start_distance_m=rest, ways=[
            dict(way_id=2, length_m=300.0), dict(way_id=3, length_m=300.0)])]
        return dict(time_s=row["time_s"], state="on_road", main_path=main if rest is not None else
                    perfect_main_path(here), side_paths=side)

    horizon = tmp_path / "d.horizon.jsonl"
    horizon.write_text("".join(json.dumps(record(i, row)) + "\n" for i, row in enumerate(rows)))
    result = ev.evaluate_drive("d", truth, horizon_path=str(horizon))
    assert result["tree_coverage"] == pytest.approx(1.0)
    assert result["horizon_coverage"] < 0.75


def test_tree_misses_after_the_route_comes_back_are_told_apart(tmp_path):
    # North 300 m on way 1 and 100 m on way 2, a U-turn, back south 8 m further east (the other lane): way 2
    # again, then way 1 from 502.8 m driven. The tree holds way 1 up to 300 m, then a wrong way 9. At each
    # of the 11 scored fixes (here = 10 h m, h = 0 ... 10) it misses every sample from 300 m to here + 500 m
    # (21 + h); from 420 m (the fix at 422.8 m lies 12.8 m from the one at 370 m, driven 52.8 m before)
    # they lie after the route came back (9 + h).
    rows = []
    for index in range(61):
        north, east = (10.0 * index, 0.0) if index <= 40 else (800.0 - 10.0 * index, 8.0)
        rows.append(dict(time_s=float(index), lat=60.0 + north / METRES_PER_DEGREE,
                         lon=25.0 + east / (METRES_PER_DEGREE * math.cos(math.radians(60.0))),
                         way=2 if 30 <= index <= 50 else 1))
    truth = write_truth(tmp_path / "d.csv", rows)
    horizon = tmp_path / "d.horizon.jsonl"
    horizon.write_text("".join(json.dumps(dict(time_s=row["time_s"], main_path=[
        dict(way_id=1, length_m=max(0.0, 300.0 - 10.0 * index)), dict(way_id=9, length_m=600.0)],
        side_paths=[])) + "\n" for index, row in enumerate(rows)))
    result = ev.evaluate_drive("d", truth, horizon_path=str(horizon))
    assert result["horizon_fixes"] == 11
    assert result["tree_missed"] == sum(21 + h for h in range(11))
    assert result["tree_missed_after_return"] == sum(9 + h for h in range(11))
    assert ev.markdown([result]).splitlines()[2].endswith("| 53.8 % |")
    # The same drive without the U-turn (straight on north): no miss lies after a return.
    for index, row in enumerate(rows):
        row["lat"], row["lon"] = 60.0 + 10.0 * index / METRES_PER_DEGREE, 25.0
    straight = ev.evaluate_drive("d", write_truth(tmp_path / "s.csv", rows), horizon_path=str(horizon))
    assert straight["tree_missed"] > 0 and straight["tree_missed_after_return"] == 0


def test_side_path_without_start_distance_is_skipped_and_old_outputs_have_no_tree(tmp_path):
    rows = straight_drive()
    truth = write_truth(tmp_path / "d.csv", rows)
    horizon = tmp_path / "d.horizon.jsonl"
    horizon.write_text("".join(json.dumps(dict(time_s=row["time_s"], main_path=[], side_paths=[
        dict(ways=[dict(way_id=1, length_m=900.0)])])) + "\n" for row in rows))
    assert ev.evaluate_drive("d", truth, horizon_path=str(horizon))["tree_coverage"] == 0.0
    horizon.write_text("".join(json.dumps(dict(time_s=row["time_s"], main_path=[])) + "\n" for row in rows))
    assert ev.evaluate_drive("d", truth, horizon_path=str(horizon))["tree_coverage"] is None


def test_off_road_fixes_are_counted_as_false_positives(tmp_path):
    rows = straight_drive(fixes=20)
    truth = write_truth(tmp_path / "d.csv", rows)
    match = tmp_path / "d.match.csv"
    match.write_text("time_s,state,way_id,link_id,offset_m,lat,lon\n" + "".join(
        f"{row['time_s']:.1f},{'off_road' if index < 5 else 'on_road'},{'' if index < 5 else row['way']},,,0,0\n"
        for index, row in enumerate(rows)))
    result = ev.evaluate_drive("d", truth, str(match))
    assert result["off_road"] == 5
    assert result["off_road_share"] == pytest.approx(0.25)
    assert result["way_correct_share"] == pytest.approx(0.75)


def test_list_misses_names_each_fix_and_the_way_missed_at_the_most_fixes(tmp_path, capsys):
    # The straight drive, its main path exact except that it never holds way 2: every fix whose next 500 m
    # reach into way 2 (300-600 m driven) misses those samples, and way 2 leads the count.
    rows = straight_drive()
    truth = write_truth(tmp_path / "d.csv", rows)

    def without_way_two(index, row):
        return [dict(way_id=9 if way["way_id"] == 2 else way["way_id"], length_m=way["length_m"])
                for way in perfect_main_path(10.0 * index)]

    write_horizon(tmp_path / "d.horizon.jsonl", rows, without_way_two)
    assert ev.main(["--truth", truth, "--horizon", str(tmp_path / "d.horizon.jsonl"), "--list-misses"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # Fixes at 0-490 m driven are scored (100 fixes, 990 m: 500 m ahead from the fix at 490 m); from 0 m on,
    # way 2 lies within 500 m ahead, and the fix at 0 m misses its samples 300-500 m ahead: 21 of 50.
    assert lines[0] == "d t=0.0 s: 21 of 50 samples missed, the first 300 m ahead on way 2; ways 2"
    assert len(lines) == 51 and lines[-1] == "d: ways missed at the most fixes: 2 at 50"
    # A perfect horizon misses nothing.
    write_horizon(tmp_path / "p.horizon.jsonl", rows, lambda index, row: perfect_main_path(10.0 * index))
    assert ev.main(["--truth", truth, "--horizon", str(tmp_path / "p.horizon.jsonl"), "--list-misses"]) == 0
    assert capsys.readouterr().out.splitlines() == ["d: ways missed at the most fixes: none"]
    # Without a horizon there is nothing to list: a clear error.
    match = write_match(tmp_path / "d.match.csv", rows)
    assert ev.main(["--truth", truth, "--match", match, "--list-misses"]) == 2
    assert "--list-misses needs horizon outputs" in capsys.readouterr().err
