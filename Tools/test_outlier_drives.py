"""Tests of Tools/outlier_drives.py (run: python3 -m pytest Tools/test_outlier_drives.py)."""
import csv
import math

import outlier_drives as od

HEADER = "time_s,lat,lon,speed_mps,heading_deg,true_way_id\n"


def write_drive(directory, name, count):
    """<name>.csv and <name>-noisy.csv of `count` fixes 10 m apart northwards."""
    rows = "".join(f"{k}.0,{60 + k * 10 / od.METRES_PER_DEGREE:.7f},25.0000000,10.00,0.0,{1 + k // 10}\n"
                   for k in range(count))
    (directory / f"{name}.csv").write_text(HEADER + rows)
    (directory / f"{name}-noisy.csv").write_text(HEADER + rows)


def read(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def offset_m(a, b):
    """Metres between two rows' positions."""
    north = (float(a["lat"]) - float(b["lat"])) * od.METRES_PER_DEGREE
    east = (float(a["lon"]) - float(b["lon"])) * od.METRES_PER_DEGREE * math.cos(math.radians(float(a["lat"])))
    return math.hypot(north, east)


def test_the_listed_fixes_move_by_the_distances_asked_and_nothing_else_changes(tmp_path):
    source, out = tmp_path / "in", tmp_path / "out"
    source.mkdir()
    write_drive(source, "a", 400)
    assert od.main(["--drives", str(source), "--out", str(out), "--rate", "0.1", "--min-m", "30",
                    "--max-m", "80", "--seed", "5"]) == 0
    before, after = read(source / "a-noisy.csv"), read(out / "a-noisy.csv")
    moved = {line.strip() for line in (out / "a.outliers").read_text().splitlines()}
    assert 20 <= len(moved) <= 60  # about 10 % of 397 fixes
    for old, new in zip(before, after):
        distance = offset_m(old, new)
        if new["time_s"] in moved:
            assert 30 - 0.01 <= distance <= 80 + 0.01
        else:
            assert distance < 0.01
        assert {k: new[k] for k in ("time_s", "speed_mps", "heading_deg", "true_way_id")} == \
               {k: old[k] for k in ("time_s", "speed_mps", "heading_deg", "true_way_id")}
    # The first three fixes are never moved; the clean truth is copied as it was.
    assert not moved & {"0.0", "1.0", "2.0"}
    assert (out / "a.csv").read_text() == (source / "a.csv").read_text()


def test_the_same_seed_gives_the_same_drives_and_bursts_come_in_runs(tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    write_drive(source, "b", 300)
    for name in ("one", "two"):
        assert od.main(["--drives", str(source), "--out", str(tmp_path / name), "--burst", "4", "--seed", "9"]) == 0
    assert (tmp_path / "one" / "b-noisy.csv").read_text() == (tmp_path / "two" / "b-noisy.csv").read_text()
    times = sorted(float(t) for t in (tmp_path / "one" / "b.outliers").read_text().split())
    runs = [1]  # lengths of the runs of consecutive moved fixes
    for previous, time in zip(times, times[1:]):
        if time == previous + 1:
            runs[-1] += 1
        else:
            runs.append(1)
    # Bursts of up to 4; a new burst may start right after one ends, so two can touch.
    assert max(runs) > 1 and max(runs) <= 8


def test_bad_arguments_are_clear_errors(tmp_path, capsys):
    assert od.main(["--drives", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    assert "no <name>-noisy.csv" in capsys.readouterr().err
    write_drive(tmp_path, "c", 10)
    assert od.main(["--drives", str(tmp_path), "--out", str(tmp_path / "o"), "--rate", "2",
                    "--min-m", "50", "--max-m", "10"]) == 2
    error = capsys.readouterr().err
    assert "--rate 2.0 is not a probability" in error and "--min-m 50.0 and --max-m 10.0" in error
