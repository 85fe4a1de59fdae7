"""Tests of Tools/evaluate_along_track.py (run: python3 -m pytest Tools/test_evaluate_along_track.py)."""
import math

import evaluate_along_track as at
import evaluate_drives as ev

METRES_PER_DEGREE = at.EARTH_METRES_PER_DEGREE


def point(east, north):
    """(lat, lon) `east`, `north` metres from 60° N 25° E."""
    return 60.0 + north / METRES_PER_DEGREE, 25.0 + east / (METRES_PER_DEGREE * math.cos(math.radians(60)))


def write_drive(tmp_path, offsets, turn_at=None):
    """A drive north at 10 m/s, one fix per second, turning east at fix `turn_at`; its match CSV puts each
    fix `offsets[k]` metres ahead along the heading and 2 m to the side (cross-track, not counted)."""
    truth = ["time_s,lat,lon,speed_mps,heading_deg,true_way_id"]
    match = ["time_s,state,way_id,link_id,offset_m,lat,lon"]
    for k, ahead in enumerate(offsets):
        turned = turn_at is not None and k >= turn_at
        heading = 90.0 if turned else 0.0
        east, north = (10.0 * (k - turn_at), 10.0 * turn_at) if turned else (0.0, 10.0 * k)
        lat, lon = point(east, north)
        truth.append(f"{k}.0,{lat:.9f},{lon:.9f},10.00,{heading},1")
        if turned:
            lat, lon = point(east + ahead, north - 2)
        else:
            lat, lon = point(east + 2, north + ahead)
        match.append(f"{k}.0,on_road,1,L1+,0,{lat:.9f},{lon:.9f}")
    (tmp_path / "drive.csv").write_text("\n".join(truth) + "\n")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "drive.match.csv").write_text("\n".join(match) + "\n")
    return str(tmp_path / "drive.csv"), str(tmp_path / "out" / "drive.match.csv")


def test_the_error_is_signed_along_the_heading_and_ignores_the_side(tmp_path):
    truth, match = write_drive(tmp_path, [1.5, -2.5, 0.0, 3.0])
    errors, turning = at.drive_errors(at.read_drive(truth, match))
    assert [round(e, 2) for e in errors] == [1.5, -2.5, 0.0, 3.0]
    assert turning == []


def test_fixes_around_a_turn_are_counted_apart(tmp_path):
    truth, match = write_drive(tmp_path, [0.5] * 4 + [-4.0] * 2 + [0.5] * 4, turn_at=5)
    errors, turning = at.drive_errors(at.read_drive(truth, match))
    assert len(errors) == 10
    # Fixes 3 to 6 see the heading change within two fixes either side.
    assert [round(e, 2) for e in turning] == [0.5, -4.0, -4.0, 0.5]


def test_the_table_and_a_missing_directory(tmp_path, capsys):
    write_drive(tmp_path, [1.0, -1.0, 3.0])
    assert at.main(["--truth-dir", str(tmp_path), "--results-dir", str(tmp_path / "out")]) == 0
    table = capsys.readouterr().out
    assert "| drive | 3 | +1.00 m |" in table and "33.3 %" in table
    assert at.main(["--truth-dir", str(tmp_path), "--results-dir", str(tmp_path / "absent")]) == 2
    assert "results directory" in capsys.readouterr().err


def test_a_truth_row_without_numbers_is_a_clear_error(tmp_path):
    truth, match = write_drive(tmp_path, [1.0])
    with open(truth, "a") as handle:
        handle.write("1.0,60.0,25.0,fast,0,1\n")
    try:
        at.drive_errors(at.read_drive(truth, match))
    except ev.EvaluationError as error:
        assert "speed_mps/heading_deg" in str(error) and ":3" in str(error)
    else:
        raise AssertionError("expected an EvaluationError")


def relabel(path, column, labels):
    """Rewrites `column` of a CSV file, row k (after the header) to labels[k]."""
    lines = open(path).read().splitlines()
    index = lines[0].split(",").index(column)
    for k, label in enumerate(labels):
        cells = lines[k + 1].split(",")
        cells[index] = str(label)
        lines[k + 1] = ",".join(cells)
    open(path, "w").write("\n".join(lines) + "\n")


def test_way_boundaries_predict_the_wrong_share_from_the_error_along_the_road(tmp_path):
    # Ten fixes 10 m apart, a new way every second fix (4 boundaries over the 90 m driven), the
    # matcher 1 m ahead or behind and on the way ahead at two fixes, and once 30 m off (another road).
    offsets = [1.0, -1.0] * 4 + [1.0, 30.0]
    truth, match = write_drive(tmp_path, offsets)
    relabel(truth, "true_way_id", [k // 2 for k in range(10)])
    relabel(match, "way_id", [k // 2 for k in range(10)])
    relabel(match, "way_id", [0, 1])  # fix 1 (way 0) matched to way 1, the next
    spacing, rms, wrong = at.boundary_budget(at.read_drive(truth, match))
    assert round(spacing, 1) == 22.5
    assert abs(rms - 1.0) < 1e-3  # the 30 m one is left out
    assert wrong == 0.1
    cells = at.budget_cells(spacing, rms, wrong)
    assert cells == ["22.5 m", "1.00 m", "3.5 %", "10.0 %", "0.85 m"]
    assert at.budget_cells(None, 1.0, 0.0) == ["–"] * 5


def test_dead_reckoning_misses_are_measured_along_the_course_and_placed_at_way_changes(tmp_path):
    # Twelve fixes north at 10 m/s, 10 m apart, except that the positions jump 1 m back where the way
    # changes (fix 6, as at one of SUMO's junctions) and 2 m sideways at fix 9 (not along: not counted).
    truth, match = write_drive(tmp_path, [0.0] * 12)
    lines = open(truth).read().splitlines()
    for k in range(1, 13):
        cells = lines[k].split(",")
        north = 10.0 * (k - 1) - (1.0 if k - 1 >= 6 else 0.0)
        east = 2.0 if k - 1 == 9 else 0.0
        cells[1], cells[2] = (f"{v:.9f}" for v in point(east, north))
        cells[5] = "1" if k - 1 < 6 else "2"
        lines[k] = ",".join(cells)
    open(truth, "w").write("\n".join(lines) + "\n")
    drive = at.read_drive(truth, match)
    rows = [row for _, row in drive["truth"]]
    misses = at.dead_reckoning_misses(rows, drive["speeds"], drive["headings"])
    assert len(misses) == 11
    step, window, share = at.dead_reckoning_rms(misses, window=10)
    # One step of the eleven misses by 1 m along: rms sqrt(1/11); every run of ten steps holds it.
    assert abs(step - math.sqrt(1 / 11)) < 1e-3
    assert abs(window - 1.0) < 1e-3
    assert abs(share - 1.0) < 1e-6
    # The way changes between fixes 5 and 6: the steps ending at fixes 5 to 7 lie within a row of it.
    assert [change for _, _, change in misses] == [False] * 4 + [True] * 3 + [False] * 4
    cells = at.dead_reckoning_cells(drive)
    assert cells[:2] == ["0.30 m", "1.00 m"]
    # A receiver's speeds for these positions (noise_seeds.py) spread the jump over the steps around it:
    # less per step, and still most of it at the way change.
    assert float(cells[2].split()[0]) < 0.30
    assert int(cells[4].split()[0]) >= 90 and cells[4].endswith("(27 % of the steps)")
    assert at.dead_reckoning_rms([]) == (None, None, None)


def test_the_truth_kinematics_table_needs_no_results(tmp_path, capsys):
    write_drive(tmp_path, [0.0] * 12)
    assert at.main(["--truth-dir", str(tmp_path), "--truth-kinematics"]) == 0
    table = capsys.readouterr().out
    # The positions follow their speeds exactly: no miss (a receiver's kinematics for them, fitted over
    # three steps each side, miss by centimetres at the ends), and the way never changes.
    assert "| drive | 0.00 m | 0.00 m |" in table and "| 0 % (0 % of the steps) |" in table
    assert at.main(["--truth-dir", str(tmp_path)]) == 2
    assert "--results-dir" in capsys.readouterr().err
    assert at.main(["--truth-dir", str(tmp_path / "absent"), "--truth-kinematics"]) == 2
    assert "truth directory" in capsys.readouterr().err
