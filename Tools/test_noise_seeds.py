"""Tests of Tools/noise_seeds.py (run: python3 -m pytest Tools/test_noise_seeds.py)."""
import json
import math
import random
import statistics
import sys

import pytest

import noise_seeds as ns

HEADER = "time_s,lat,lon,speed_mps,heading_deg,true_way_id\n"
METRES_PER_DEGREE = 6371008.8 * math.pi / 180


def rows(count, speed=10.0):
    return [dict(time_s=f"{k}.0", lat=f"{60 + k * 10 / METRES_PER_DEGREE:.7f}", lon="25.0000000",
                 speed_mps=f"{speed:.2f}", heading_deg="0.0", true_way_id=str(1 + k // 50)) for k in range(count)]


def test_positions_get_five_metres_of_noise_and_nothing_else_changes():
    clean = rows(3000)
    noisy = ns.noisy_rows(clean, random.Random(1))
    north = [(float(n["lat"]) - float(c["lat"])) * METRES_PER_DEGREE for c, n in zip(clean, noisy)]
    east = [(float(n["lon"]) - float(c["lon"])) * METRES_PER_DEGREE * math.cos(math.radians(60))
            for c, n in zip(clean, noisy)]
    for axis in (north, east):
        assert abs(statistics.fmean(axis)) < 0.3
        assert 4.7 < statistics.pstdev(axis) < 5.3
    for c, n in zip(clean, noisy):
        assert {k: n[k] for k in ("time_s", "speed_mps", "heading_deg", "true_way_id")} == \
               {k: c[k] for k in ("time_s", "speed_mps", "heading_deg", "true_way_id")}


def test_receiver_noise_keeps_speeds_non_negative_and_spreads_the_course_more_when_slow():
    fast = ns.noisy_rows(rows(3000, speed=20), random.Random(2), speed_sigma=0.2, course_sigma=3)
    speeds = [float(r["speed_mps"]) for r in fast]
    assert 0.18 < statistics.pstdev(speeds) < 0.22
    fast_course = [((float(r["heading_deg"]) + 180) % 360) - 180 for r in fast]
    assert 2.7 < statistics.pstdev(fast_course) < 3.3
    slow = ns.noisy_rows(rows(3000, speed=2), random.Random(3), course_sigma=3)
    slow_course = [((float(r["heading_deg"]) + 180) % 360) - 180 for r in slow]
    assert 13 < statistics.pstdev(slow_course) < 17  # 3° × 10 / 2 m/s
    stopped = ns.noisy_rows(rows(500, speed=0), random.Random(4), speed_sigma=0.2)
    assert min(float(r["speed_mps"]) for r in stopped) == 0
    assert max(float(r["speed_mps"]) for r in stopped) > 0.2


def make_drives(directory, names):
    directory.mkdir()
    drives = []
    for name in names:
        lines = "".join(",".join(r.values()) + "\n" for r in rows(100))
        (directory / f"{name}.csv").write_text(HEADER + lines)
        drives.append(dict(name=name, map="Data/drives/suburb.osm.pbf" if name == "town" else ""))
    (directory / "drives.json").write_text(json.dumps(dict(drives=drives)))


def fake_adasis(tmp_path, wrong_every):
    """An `adasis match` stand-in: names each fix's true way, but a wrong one every `wrong_every` fixes,
    and records which map it was given."""
    script = tmp_path / "adasis"
    script.write_text(f"""#!{sys.executable}
import csv, sys
args = sys.argv[1:]
map_path, trace = args[args.index("--map") + 1], args[-1]
open(trace + ".map", "w").write(map_path)
print("time_s,state,way_id,link_id,offset_m,lat,lon")
for k, row in enumerate(csv.DictReader(open(trace))):
    way = row["true_way_id"] if k % {wrong_every} else "999"
    print(f"{{row['time_s']}},on_road,{{way}},L1+,0.0,{{row['lat']}},{{row['lon']}}")
""")
    script.chmod(0o755)
    return str(script)


def test_every_draw_is_matched_on_its_drives_map_and_scored(tmp_path, capsys):
    truth = tmp_path / "drives"
    make_drives(truth, ["city", "town"])
    work = tmp_path / "work"
    assert ns.main(["--adasis", fake_adasis(tmp_path, 25), "--map", "helsinki=H.map", "--map", "suburb=S.map",
                    "--truth-dir", str(truth), "--seeds", "3", "--work", str(work), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert [r["drive"] for r in table] == ["city", "town"]
    for r in table:
        assert r["draws"] == 3 and r["fixes"] == 300
        assert abs(r["mean"] - 0.96) < 1e-9 and r["meeting_goal"] == 0
    assert (work / "city-seed2.csv.map").read_text() == "H.map"
    assert (work / "town-seed3.csv.map").read_text() == "S.map"
    # The draws differ from one another and are the same on every run.
    first = (work / "city-seed1.csv").read_text()
    assert first != (work / "city-seed2.csv").read_text()
    again = tmp_path / "again"
    assert ns.main(["--adasis", fake_adasis(tmp_path, 25), "--map", "helsinki=H.map", "--map", "suburb=S.map",
                    "--truth-dir", str(truth), "--seeds", "1", "--work", str(again)]) == 0
    assert (again / "city-seed1.csv").read_text() == first
    assert "| city | 1 | 96.0 % |" in capsys.readouterr().out


def test_a_drive_without_its_map_is_refused_by_name(tmp_path, capsys):
    truth = tmp_path / "drives"
    make_drives(truth, ["town"])
    assert ns.main(["--adasis", fake_adasis(tmp_path, 25), "--map", "helsinki=H.map",
                    "--truth-dir", str(truth), "--seeds", "1"]) == 1
    assert "drive town runs on the suburb map: pass --map suburb=PATH" in capsys.readouterr().err


def test_correlated_noise_keeps_its_sigma_and_correlation_and_the_offset_stays_for_the_draw():
    times = [float(k) for k in range(20000)]
    errors = list(ns.position_errors(times, random.Random(5), correlation_s=4))
    east = [e for e, _ in errors]
    assert 4.6 < statistics.pstdev(east) < 5.4
    lag_one = statistics.fmean(a * b for a, b in zip(east, east[1:])) / statistics.pvariance(east)
    assert abs(lag_one - math.exp(-1 / 4)) < 0.03
    independent = [e for e, _ in ns.position_errors(times, random.Random(5))]
    assert abs(statistics.fmean(a * b for a, b in zip(independent, independent[1:]))) < 1.0
    # One offset per draw: the mean error of a long draw is its offset, different per draw.
    offsets = []
    for seed in range(40):
        draw = list(ns.position_errors(times[:400], random.Random(seed), bias_m=3))
        offsets.append(statistics.fmean(n for _, n in draw))
    assert 2.2 < statistics.pstdev(offsets) < 3.8


def test_late_speeds_are_the_drives_speeds_of_that_long_before_and_nothing_else_changes():
    assert ns.delayed_speeds([0.0, 1.0, 2.0, 3.0], [0.0, 2.0, 4.0, 4.0], 0.5) == [0.0, 1.0, 3.0, 4.0]
    assert ns.delayed_speeds([0.0, 1.0, 2.0], [5.0, 7.0, 9.0], 1.0) == [5.0, 5.0, 7.0]
    assert ns.delayed_speeds([0.0, 1.0, 2.0], [5.0, 7.0, 9.0], 0.0) == [5.0, 7.0, 9.0]
    clean = [dict(r, speed_mps=f"{k % 7:.2f}") for k, r in enumerate(rows(40))]
    on_time = ns.noisy_rows(clean, random.Random(3))
    late = ns.noisy_rows(clean, random.Random(3), speed_latency_s=1.0)
    assert [r["speed_mps"] for r in late[1:]] == [r["speed_mps"] for r in clean[:-1]]
    for a, b in zip(on_time, late):
        assert {k: v for k, v in a.items() if k != "speed_mps"} == {k: v for k, v in b.items() if k != "speed_mps"}


def test_kinematics_from_positions_gives_the_circles_course_and_the_arcs_speed():
    # A car round a circle of 40 m radius, clockwise (right), 1 s apart at 8 m/s of arc, whose rows say
    # 0.7 % more speed and the course of the step before (as SUMO's do); then it stands for 3 s (a stop
    # within a second, which the steps next to it show as a slower car: only fixes 3 steps off checked).
    radius, speed = 40.0, 8.0
    drive = []
    for k in range(20):
        angle = k * speed / radius  # clockwise from north, seen from the centre
        east, north = radius * math.sin(angle), radius * math.cos(angle)
        tangent = math.degrees(angle) + 90
        drive.append(dict(time_s=f"{k}.0", lat=f"{60 + north / METRES_PER_DEGREE:.9f}",
                          lon=f"{25 + east / (METRES_PER_DEGREE * math.cos(math.radians(60))):.9f}",
                          speed_mps=f"{speed * 1.007:.3f}", heading_deg=f"{tangent - 5.7:.1f}", true_way_id="7"))
    for k in range(20, 23):
        drive.append(dict(drive[19], time_s=f"{k}.0", speed_mps="0.00", heading_deg="123.0"))
    derived = ns.kinematics_from_positions(drive)
    for k in range(1, 17):
        expected = (math.degrees(k * speed / radius) + 90) % 360
        assert abs(float(derived[k]["heading_deg"]) - expected) < 0.15, k
        assert abs(float(derived[k]["speed_mps"]) - speed) < 0.02, k
    for k in range(20, 23):
        assert derived[k]["speed_mps"] == "0.00" and derived[k]["heading_deg"] == "123.0"
    for before, after in zip(drive, derived):
        assert {key: after[key] for key in ("time_s", "lat", "lon", "true_way_id")} == \
               {key: before[key] for key in ("time_s", "lat", "lon", "true_way_id")}


def test_course_at_follows_the_arc_whichever_way_it_turns_and_a_line_is_its_chord():
    centre_radius = 20.0

    def on_circle(angle):
        return centre_radius * math.sin(angle), centre_radius * math.cos(angle)

    # Clockwise round the centre (a right turn) from 0.1 to 0.7 rad, the middle point off-centre.
    course = ns.course_at(on_circle(0.1), on_circle(0.5), on_circle(0.7))
    assert abs(math.degrees(course) - (math.degrees(0.5) + 90)) < 1e-6
    # The same points driven back (a left turn).
    course = ns.course_at(on_circle(0.7), on_circle(0.5), on_circle(0.1))
    assert abs((math.degrees(course) - (math.degrees(0.5) - 90) + 180) % 360 - 180) < 1e-6
    assert ns.course_at((0, 0), (3, 4), (6, 8)) == math.atan2(6, 8)
    assert ns.course_at((0, 0), (0, 0), (6, 8)) is None


def test_a_receiver_that_reports_its_velocity_accuracy_says_the_noise_it_adds_and_no_less_than_a_floor():
    quiet = ns.noisy_rows(rows(5, speed=20), random.Random(4), reports_accuracy=True)
    assert {(r["speed_accuracy_mps"], r["heading_accuracy_deg"]) for r in quiet} == {("0.05", "0.5")}
    noisy = ns.noisy_rows(rows(5, speed=2), random.Random(4), speed_sigma=0.2, course_sigma=3, reports_accuracy=True)
    assert {(r["speed_accuracy_mps"], r["heading_accuracy_deg"]) for r in noisy} == {("0.20", "15.0")}
    assert "speed_accuracy_mps" not in ns.noisy_rows(rows(5), random.Random(4))[0]


def test_reported_accuracy_needs_the_receivers_kinematics(tmp_path, capsys):
    try:
        ns.main(["--adasis", "adasis", "--reported-accuracy"])
    except SystemExit as exit_:
        assert exit_.code == 2
    else:
        raise AssertionError("expected a usage error")
    assert "--kinematics positions" in capsys.readouterr().err


def test_matched_in_pieces_each_from_a_cold_start_and_put_back_on_the_traces_times(tmp_path, capsys):
    # A stand-in that, as adasis match, counts time from each trace's first fix, and is wrong at the first
    # fix of each trace it is given (a cold start).
    script = tmp_path / "adasis-cold"
    script.write_text(f"""#!{sys.executable}
import csv, sys
trace = sys.argv[-1]
print("time_s,state,way_id,link_id,offset_m,lat,lon")
rows = list(csv.DictReader(open(trace)))
for k, row in enumerate(rows):
    way = row["true_way_id"] if k else "999"
    print(f"{{float(row['time_s']) - float(rows[0]['time_s']):.1f}},on_road,{{way}},L1+,0.0,{{row['lat']}},{{row['lon']}}")
""")
    script.chmod(0o755)
    truth = tmp_path / "drives"
    make_drives(truth, ["city"])
    work = tmp_path / "work"
    assert ns.main(["--adasis", str(script), "--map", "helsinki=H.map", "--truth-dir", str(truth), "--seeds", "1",
                    "--work", str(work), "--pieces-s", "20", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table[0]["fixes"] == 100 and abs(table[0]["mean"] - 0.95) < 1e-9  # five pieces, five cold starts
    matched = (work / "city-seed1.match.csv").read_text().splitlines()
    assert [line.split(",")[0] for line in matched[1:]] == [f"{k}.0" for k in range(100)]
    assert not list(work.glob("*.piece*"))
    assert ns.main(["--adasis", str(script), "--map", "helsinki=H.map", "--truth-dir", str(truth), "--seeds", "1",
                    "--json"]) == 0
    assert abs(json.loads(capsys.readouterr().out)[0]["mean"] - 0.99) < 1e-9  # whole: one cold start


def test_another_sigma_scales_the_position_noise_and_zero_leaves_the_clean_drive():
    clean = rows(3000)
    for sigma in (1.0, 0.5):
        noisy = ns.noisy_rows(clean, random.Random(1), sigma_m=sigma)
        north = [(float(n["lat"]) - float(c["lat"])) * METRES_PER_DEGREE for c, n in zip(clean, noisy)]
        assert 0.94 * sigma < statistics.pstdev(north) < 1.06 * sigma
    still = ns.noisy_rows(clean, random.Random(1), sigma_m=0.0)
    assert [(n["lat"], n["lon"]) for n in still] == \
           [(f"{float(c['lat']):.7f}", f"{float(c['lon']):.7f}") for c in clean]


def test_a_negative_sigma_is_refused_by_name(tmp_path, capsys):
    with pytest.raises(SystemExit):
        ns.main(["--adasis", "adasis", "--map", f"helsinki={tmp_path}/h.map", "--sigma-m", "-1"])
    assert "--sigma-m -1.0: give a finite value of 0 or more" in capsys.readouterr().err
