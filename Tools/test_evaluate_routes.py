"""Tests of Tools/evaluate_routes.py (run: python3 -m pytest Tools/test_evaluate_routes.py)."""
import json
import os
import stat

import pytest

import evaluate_routes as er
from test_evaluate_drives import perfect_main_path, straight_drive, write_horizon, write_truth

LOG = """route 1 active at 0.0 s (manual): 85 links
route 1: left at 84.0 s onto L2321844262062260542+
route 2 active at 84.0 s (deviation): 43 links
route 2: left at 108.0 s onto L2321998880884916304-
route planning failed at 108.0 s, next try at 109.0 s: leg 1: no legal route
route 3 active at 109.0 s (deviation): 45 links
route 3: arrived at 266.0 s
"""


def test_route_events_counts_deviations_replans_and_arrival():
    assert er.route_events(LOG) == dict(deviations=2, replans=2, arrived=True)
    assert er.route_events("route 1 active at 0.0 s (manual): 3 links\n") == dict(deviations=0, replans=0,
                                                                                    arrived=False)


def test_coverage_is_the_share_of_the_true_next_500_m_on_the_main_path(tmp_path):
    rows = straight_drive()
    truth = write_truth(tmp_path / "d.csv", rows)
    # The exact main path: everything covered.
    exact = write_horizon(tmp_path / "exact.jsonl", rows, lambda i, row: perfect_main_path(i * 10.0))
    result = er.score(truth, str(tmp_path / "exact.jsonl"), LOG)
    assert result["horizon_fixes"] == 50  # fixes 0..49 have 500 m of drive ahead (990 m driven)
    assert result["coverage"] == pytest.approx(1.0)
    assert (result["deviations"], result["replans"]) == (2, 2)
    # A main path only 250 m long: the 10 m samples at 10..270 m (250 m + the 25 m tolerance), 27 of 50
    # (give or take a sample where a way changes between two fixes).
    short = write_horizon(tmp_path / "short.jsonl", rows, lambda i, row: [
        dict(way_id=w["way_id"], length_m=w["length_m"]) for w in clip(perfect_main_path(i * 10.0), 250.0)])
    assert er.score(truth, str(tmp_path / "short.jsonl"), "")["coverage"] == pytest.approx(27 / 50, abs=0.01)
    # No horizon on odd fixes: those count as zero.
    half = write_horizon(tmp_path / "half.jsonl", rows,
                         lambda i, row: perfect_main_path(i * 10.0) if i % 2 == 0 else None)
    assert er.score(truth, str(tmp_path / "half.jsonl"), "")["coverage"] == pytest.approx(0.5)
    del exact, short, half


def test_per_fix_coverage_adds_up_to_evaluate_drives_score(tmp_path):
    rows = straight_drive()
    truth = er.evaluate_drives.read_truth(write_truth(tmp_path / "d.csv", rows))
    write_horizon(tmp_path / "h.jsonl", rows, lambda i, row: clip(perfect_main_path(i * 10.0), 10.0 * (i % 7) * 20))
    horizons = er.evaluate_drives.read_horizon(str(tmp_path / "h.jsonl"))
    fixes = er.per_fix_coverage(truth, horizons)
    total, scored = er.evaluate_drives.horizon_score(truth, horizons)
    assert len(fixes) == scored
    assert sum(share for _, _, share in fixes) == pytest.approx(total)


def test_a_turn_off_the_route_leaves_out_the_500_m_before_it_and_times_the_report(tmp_path):
    rows = straight_drive()
    truth = write_truth(tmp_path / "d.csv", rows)
    # The main path is right everywhere except at fixes 20..29, where it is missing (as if the route
    # there led elsewhere); the driver turns at 70 s (700 m), so fixes 20..69 (200..690 m) are the 500 m
    # before the turn and fixes 0..19 are what remains of the 50 scored ones.
    write_horizon(tmp_path / "h.jsonl", rows,
                  lambda i, row: None if 20 <= i < 30 else perfect_main_path(i * 10.0))
    log = "route 1: left at 40.0 s onto L1+\nroute 1: left at 75.0 s onto L2+\n"
    result = er.score(truth, str(tmp_path / "h.jsonl"), log, turn_time=70.0)
    assert result["coverage"] == pytest.approx(40 / 50)
    assert result["fixes_outside_turn"] == 20
    assert result["coverage_outside_turn"] == pytest.approx(1.0)
    assert result["detected_after_s"] == 5.0, "the first deviation at or after the turn"
    assert "| d | 70 s | 5 s | 100.0 % (20) |" in er.table([("d", result)])
    assert er.score(truth, str(tmp_path / "h.jsonl"), "", turn_time=70.0)["detected_after_s"] is None


def clip(path, metres):
    """The first `metres` of a main path."""
    result, total = [], 0.0
    for element in path:
        if total >= metres:
            break
        length = min(element["length_m"], metres - total)
        result.append(dict(way_id=element["way_id"], length_m=length))
        total += length
    return result


def test_destinations_come_from_drives_json_else_the_last_fix(tmp_path):
    rows = straight_drive(fixes=5)
    write_truth(tmp_path / "a.csv", rows)
    write_truth(tmp_path / "a-noisy.csv", rows)
    write_truth(tmp_path / "b.csv", rows)
    (tmp_path / "drives.json").write_text(json.dumps(dict(drives=[dict(name="a", destination=[60.5, 25.5])])))
    found = er.destinations(str(tmp_path))
    assert found["a"] == ((60.5, 25.5), None)
    assert found["b"][0] == pytest.approx((rows[-1]["lat"], rows[-1]["lon"]), abs=1e-7)
    (tmp_path / "drives.json").write_text(json.dumps(dict(drives=[
        dict(name="a", destination=[60.5, 25.5], deviation=dict(time_s=42.0))])))
    assert er.destinations(str(tmp_path))["a"] == ((60.5, 25.5), 42.0)
    assert set(found) == {"a", "b"}


def test_bad_input_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "drives.json").write_text("{not json")
    with pytest.raises(er.RouteEvaluationError, match="not JSON"):
        er.destinations(str(tmp_path))
    assert er.main(["--adasis", str(tmp_path / "none"), "--map", "m", "--truth-dir", str(tmp_path)]) == 2
    assert "adasis executable" in capsys.readouterr().err


def test_a_failed_replay_is_reported_with_the_command(tmp_path):
    failing = tmp_path / "adasis"
    failing.write_text("#!/bin/sh\necho 'no road near' >&2\nexit 1\n")
    failing.chmod(failing.stat().st_mode | stat.S_IXUSR)
    with pytest.raises(er.RouteEvaluationError, match="no road near"):
        er.replay(str(failing), "m", "t.csv", (60.0, 25.0), str(tmp_path / "h.jsonl"))
    assert os.path.isfile(tmp_path / "h.jsonl")
