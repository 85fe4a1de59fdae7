#!/usr/bin/env python3
"""Way correct over many noise draws: each drive matched with N independent draws of its 5 m noise.

Each drive of Data/drives has one noisy trace: one draw of Gaussian noise (sigma 5 m east and north,
Tools/make-drives.py). A drive's way-correct figure on that one trace depends on where the noise fell
near its junctions: a run of fixes that happens to lie ahead of the car puts it a junction early, and
no causal filter can tell (Docs/measurements.md, stop 47). One draw therefore says little about a
change of a point or two on one drive, and tuning on it fits that draw. This tool draws the noise
again with --seeds other seeds (the same model as make-drives.py: its add_noise, speed and heading
kept exact), runs `adasis match` on each trace, and reports per drive the mean, standard deviation,
least and greatest way correct over the draws, and how many draws reach the goal (97 %, issue 15).
The draws are deterministic: seed k of drive NAME is random.Random(f"{NAME}/{k}").

The traces of Data/drives keep SUMO's exact speed and course; a receiver's are noisy.
--speed-sigma and --course-sigma add that noise too (noisy_rows says how), so the same table
measures how the matcher, which fuses dead reckoning from them, holds up. And a receiver's position
error is not independent from one fix to the next: most of it wanders over seconds (multipath) or
stays for minutes (the atmosphere). --correlation-s makes the 5 m noise a Gauss-Markov process with
that correlation time, and --bias-m adds one constant offset per draw (position_errors says how).
And SUMO's speed and course are not a receiver's: its speed runs about 0.7 % ahead of the distance its
positions go (on the drives' straight steps), and its course is that of the last step, not the direction
of travel at the fix, so dead reckoning from them falls behind in every turn.
--kinematics positions replaces both by what a receiver's Doppler velocity gives for the positions
(kinematics_from_positions says how) before the noise is drawn, and --reported-accuracy has each fix
say how accurate its speed and course are, as gpsd's eps and epd (reported_accuracy). --pieces-s S
matches each trace in pieces of S seconds, each from a cold start: what a matcher restarted that often
gives (match_in_pieces).
--sigma-m gives the position noise another sigma (0.5 or 1 m: a better receiver; 0: the clean
drive), which measures how much of a drive's misses any position accuracy leaves.
And a speed that reaches the matcher late (a receiver's filtered speed, a wheel speed over CAN
stamped on arrival) is the speed of a moment before the fix: --speed-latency-s gives each fix the
drive's speed that many seconds earlier (delayed_speeds says how).

Usage:
  Tools/noise_seeds.py --adasis .build/release/adasis --map helsinki=H.map --map suburb=S.map
      [--truth-dir Data/drives] [--seeds 10] [--first-seed 1] [--work DIR] [--json] [--sigma-m 1]
      [--speed-sigma 0.2] [--course-sigma 3] [--correlation-s 3] [--bias-m 2.5] [--speed-latency-s 0.5]
      [--kinematics positions [--reported-accuracy]] [--pieces-s 30]
      [--match-flag=--no-dead-reckoning ...]
A drive runs on the map its drives.json entry names (`map` containing "suburb": suburb, else
helsinki). --work keeps the traces and match outputs (default: a temporary directory, removed).
"""
import argparse
import concurrent.futures
import csv
import importlib.util
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile

import evaluate_drives as ev

GOAL = 0.97

_spec = importlib.util.spec_from_file_location(
    "make_drives", os.path.join(os.path.dirname(os.path.abspath(__file__)), "make-drives.py"))
make_drives = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_drives)


def position_errors(times, rng, correlation_s=0.0, bias_m=0.0, sigma_m=None):
    """Yields per fix (east, north) metres of position error: make-drives.py's independent Gaussian
    noise (sigma NOISE_SIGMA_M per axis, or sigma_m when given) when correlation_s is 0, else a
    first-order Gauss-Markov process of the same sigma whose correlation falls as exp(-dt /
    correlation_s) between fixes dt apart; plus one constant offset per draw, Gaussian with sigma
    bias_m per axis. One box_muller pair per fix, drawn when the fix's error is taken: without
    correlation or offset the draws are make_drives.add_noise's (scaled by sigma_m / NOISE_SIGMA_M)."""
    sigma = make_drives.NOISE_SIGMA_M if sigma_m is None else sigma_m
    offset = (0.0, 0.0)
    if bias_m > 0:
        offset = tuple(bias_m * value for value in make_drives.box_muller(rng))
    east, north = 0.0, 0.0
    for k, time in enumerate(times):
        if correlation_s > 0 and k > 0:
            rho = math.exp(-max(0.0, time - times[k - 1]) / correlation_s)
            keep, fresh = rho, sigma * math.sqrt(1 - rho * rho)
        else:
            keep, fresh = 0.0, sigma
        draw = make_drives.box_muller(rng)
        east, north = keep * east + fresh * draw[0], keep * north + fresh * draw[1]
        yield east + offset[0], north + offset[1]


def moved(lat, lon, east, north):
    """(lat, lon) moved `east` and `north` metres, as make-drives.py moves a fix."""
    dlat = math.degrees(north / make_drives.EARTH_RADIUS_M)
    dlon = math.degrees(east / (make_drives.EARTH_RADIUS_M * math.cos(math.radians(lat))))
    return lat + dlat, lon + dlon


def delayed_speeds(times, speeds, latency_s):
    """The speed each fix reports when its speed is `latency_s` seconds late: the drive's speed at
    time - latency_s, linear between the drive's own samples, the first one before the drive starts
    (a car that stood still). 0 gives `speeds` unchanged."""
    result = []
    j = 0
    for time in times:
        target = time - latency_s
        while j + 1 < len(times) and times[j + 1] <= target:
            j += 1
        if target <= times[0]:
            result.append(speeds[0])
        elif j + 1 >= len(times):
            result.append(speeds[-1])
        else:
            share = (target - times[j]) / (times[j + 1] - times[j])
            result.append(speeds[j] + share * (speeds[j + 1] - speeds[j]))
    return result


KINEMATICS_WINDOW = 3


def course_at(a, p, b):
    """The direction of travel at p (radians clockwise from north) of the circle through points a, p, b
    (east, north metres, driven in that order); the direction a to b where they lie on a line; None
    when two of them coincide."""
    ax, ay, bx, by = a[0] - p[0], a[1] - p[1], b[0] - p[0], b[1] - p[1]
    la, lb, lc = math.hypot(ax, ay), math.hypot(bx, by), math.hypot(bx - ax, by - ay)
    if min(la, lb, lc) < 1e-6:
        return None
    chord = math.atan2(bx - ax, by - ay)
    # Twice the triangle's signed area (counter-clockwise positive): the circle's radius is
    # la lb lc / (4 area); the arcs a-p and p-b subtend 2 asin(l / 2R) at its centre, and the tangent
    # at p turns from the chord a-b by half their difference, towards the arc's inside.
    area2 = -ax * by + ay * bx
    if abs(area2) < 1e-9 * la * lb:
        return chord
    radius = la * lb * lc / (2 * abs(area2))
    alpha = 2 * math.asin(min(1.0, la / (2 * radius)))
    beta = 2 * math.asin(min(1.0, lb / (2 * radius)))
    left = 1.0 if area2 > 0 else -1.0  # turning left (counter-clockwise) lowers the heading
    return chord - left * (alpha - beta) / 2


def kinematics_from_positions(rows):
    """`rows` with speed_mps and heading_deg as a receiver's Doppler velocity gives them for the rows'
    positions: the course at each fix the direction of travel of the circle through it and its
    neighbours (the step's own direction at the ends); the speed the rows' own, scaled by the distance
    the positions went over the KINEMATICS_WINDOW steps each side (each step the arc of those circles,
    its chord where the course does not change) against the distance the speeds say for them
    ((v0 + v1) / 2 times the step's time, dead reckoning's model). A standstill (speed 0) stays as it
    is. Positions, times and labels are unchanged."""
    n = len(rows)
    if n < 3:
        return [dict(row) for row in rows]
    lat0 = float(rows[0]["lat"])
    points = [(math.radians(float(r["lon"])) * make_drives.EARTH_RADIUS_M * math.cos(math.radians(lat0)),
               math.radians(float(r["lat"])) * make_drives.EARTH_RADIUS_M) for r in rows]
    times = [float(r["time_s"]) for r in rows]
    given = [float(r["speed_mps"]) for r in rows]
    courses = [None] * n
    for k in range(n):
        a, b = points[max(0, k - 1)], points[min(n - 1, k + 1)]
        course = course_at(a, points[k], b) if 0 < k < n - 1 else None
        if course is not None:
            courses[k] = course
        elif math.hypot(b[0] - a[0], b[1] - a[1]) > 1e-6:
            courses[k] = math.atan2(b[0] - a[0], b[1] - a[1])
    arcs = []
    for k in range(n - 1):
        chord = math.hypot(points[k + 1][0] - points[k][0], points[k + 1][1] - points[k][1])
        turn = 0.0
        if courses[k] is not None and courses[k + 1] is not None:
            turn = abs((courses[k + 1] - courses[k] + math.pi) % (2 * math.pi) - math.pi)
        arcs.append(chord * (turn / 2) / math.sin(turn / 2) if 1e-6 < turn < 3.0 else chord)
    # The rows' speeds scaled, fix by fix, by how far the positions went over the steps around the fix
    # against how far those speeds say (dead reckoning's (v0 + v1) / 2 per step): the lane's length
    # against its shape, evened out over KINEMATICS_WINDOW steps each side.
    said = [(given[k] + given[k + 1]) / 2 * (times[k + 1] - times[k]) for k in range(n - 1)]
    speeds = []
    for k in range(n):
        steps = range(max(0, k - KINEMATICS_WINDOW), min(n - 1, k + KINEMATICS_WINDOW))
        claimed = sum(said[i] for i in steps)
        speeds.append(given[k] * sum(arcs[i] for i in steps) / claimed if claimed > 0.5 else given[k])
    result = []
    for row, speed, course, standstill in zip(rows, speeds, courses, given):
        changed = dict(row, speed_mps=f"{0.0 if standstill == 0 else max(0.0, speed):.2f}")
        if course is not None and standstill > 0:
            changed["heading_deg"] = f"{math.degrees(course) % 360:.1f}"
        result.append(changed)
    return result


REPORTED_SPEED_FLOOR = 0.05  # m/s: the least speed error a receiver reports (a good one's Doppler)
REPORTED_COURSE_FLOOR = 0.5  # degrees at 10 m/s and above


def reported_accuracy(speed, speed_sigma, course_sigma):
    """(speed accuracy m/s, course accuracy degrees) a receiver reports with its velocity (gpsd's eps and
    epd, as 1 sigma): the noise noisy_rows adds, no less than the floors; the course's grows as 10 / speed
    below 10 m/s as its noise does."""
    spread = min(20.0, max(1.0, 10.0 / max(speed, 0.01)))
    return max(speed_sigma, REPORTED_SPEED_FLOOR), max(course_sigma, REPORTED_COURSE_FLOOR) * spread


def noisy_rows(rows, rng, speed_sigma=0.0, course_sigma=0.0, correlation_s=0.0, bias_m=0.0, speed_latency_s=0.0,
               reports_accuracy=False, sigma_m=None):
    """`rows` (clean drive CSV rows) with make-drives.py's position noise drawn from `rng`, and when
    asked a receiver's speed and course noise: speed + N(0, speed_sigma), never below 0 (a receiver
    at standstill reports a small speed, not a negative one); course + N(0, s) degrees with
    s = course_sigma at 10 m/s and above, growing as 10 / speed below (a Doppler course is the
    velocity's direction, as good as the speed is large against the velocity's noise), at most
    20 course_sigma. With speed_latency_s each fix reports the speed of that many seconds before
    (delayed_speeds), the course the one it had. With reports_accuracy each row also says how accurate
    its speed and course are (speed_accuracy_mps, heading_accuracy_deg: reported_accuracy). sigma_m
    replaces make-drives.py's 5 m as the position noise's sigma (position_errors)."""
    result = []
    times = [float(row["time_s"]) for row in rows]
    errors = position_errors(times, rng, correlation_s, bias_m, sigma_m)
    speeds = [float(row["speed_mps"]) for row in rows]
    reported = delayed_speeds(times, speeds, speed_latency_s) if speed_latency_s > 0 else speeds
    for row, error, late_speed in zip(rows, errors, reported):
        lat, lon = moved(float(row["lat"]), float(row["lon"]), *error)
        noisy = dict(row, lat=f"{lat:.7f}", lon=f"{lon:.7f}")
        speed = float(row["speed_mps"])
        if speed_latency_s > 0:
            noisy["speed_mps"] = f"{late_speed:.2f}"
        if course_sigma > 0:
            spread = course_sigma * min(20.0, max(1.0, 10.0 / max(speed, 0.01)))
            noisy["heading_deg"] = f"{(float(row['heading_deg']) + rng.gauss(0, spread)) % 360:.1f}"
        if speed_sigma > 0:
            noisy["speed_mps"] = f"{max(0.0, late_speed + rng.gauss(0, speed_sigma)):.2f}"
        if reports_accuracy:
            speed_accuracy, course_accuracy = reported_accuracy(speed, speed_sigma, course_sigma)
            noisy["speed_accuracy_mps"] = f"{speed_accuracy:.2f}"
            noisy["heading_accuracy_deg"] = f"{course_accuracy:.1f}"
        result.append(noisy)
    return result


def write_trace(path, rows):
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0].keys()), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def match_in_pieces(adasis, map_path, flags, trace, output, seconds):
    """`adasis match` of `trace` cut into pieces of `seconds` (by time_s), each matched on its own from
    a cold start, as a matcher restarted that often would match it (the daemon before stop 58 at every
    change of custom objects); the pieces' rows, their times put back on the trace's, written to
    `output`."""
    with open(trace, newline="") as handle:
        rows = list(csv.DictReader(handle))
    pieces = {}
    for row in rows:
        pieces.setdefault(int(float(row["time_s"]) // seconds), []).append(row)
    header, lines = None, []
    for number in sorted(pieces):
        piece = trace[:-4] + f".piece{number}.csv"
        write_trace(piece, pieces[number])
        text = subprocess.run([adasis, "match", "--map", map_path, *flags, piece], capture_output=True, text=True,
                              check=True).stdout
        os.remove(piece)
        matched = list(csv.DictReader(text.splitlines()))
        start = float(pieces[number][0]["time_s"])
        for row in matched:
            row["time_s"] = f"{float(row['time_s']) + start:.1f}"
        if matched:
            header = list(matched[0].keys())
            lines += matched
    with open(output, "w", newline="") as handle:
        if header:
            writer = csv.DictWriter(handle, fieldnames=header, lineterminator="\n")
            writer.writeheader()
            writer.writerows(lines)


def map_names(truth_dir):
    """{drive name: "suburb" or "helsinki"} from drives.json."""
    with open(os.path.join(truth_dir, "drives.json")) as handle:
        drives = json.load(handle)["drives"]
    return {d["name"]: ("suburb" if "suburb" in d.get("map", "") else "helsinki") for d in drives}


def summary(name, scores):
    """One table row's figures from [(correct, fixes)] per draw."""
    shares = [correct / fixes for correct, fixes in scores]
    return dict(
        drive=name, draws=len(shares), mean=statistics.fmean(shares),
        sd=statistics.stdev(shares) if len(shares) > 1 else 0.0, least=min(shares), most=max(shares),
        meeting_goal=sum(1 for s in shares if s >= GOAL),
        fixes=sum(f for _, f in scores), correct=sum(c for c, _ in scores))


def markdown(rows):
    lines = ["| drive | draws | mean | sd | least | most | draws ≥ 97 % |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['drive']} | {r['draws']} | {r['mean'] * 100:.1f} % | {r['sd'] * 100:.1f} | "
                     f"{r['least'] * 100:.1f} % | {r['most'] * 100:.1f} % | {r['meeting_goal']} of {r['draws']} |")
    fixes = sum(r["fixes"] for r in rows)
    correct = sum(r["correct"] for r in rows)
    draws = rows[0]["draws"] if rows else 0
    every = sum(1 for r in rows if r["meeting_goal"] == r["draws"])
    lines.append(f"| **all** | {draws} | **{correct / fixes * 100:.1f} %** | | | | "
                 f"{every} of {len(rows)} drives in every draw |")
    return "\n".join(lines)


def run(args, work):
    maps = dict(entry.split("=", 1) for entry in args.map)
    drives = map_names(args.truth_dir)
    jobs = []
    for name in sorted(drives):
        truth_path = os.path.join(args.truth_dir, f"{name}.csv")
        if not os.path.exists(truth_path):
            continue
        if drives[name] not in maps:
            raise ev.EvaluationError(f"drive {name} runs on the {drives[name]} map: pass --map {drives[name]}=PATH")
        with open(truth_path, newline="") as handle:
            rows = list(csv.DictReader(handle))
        if args.kinematics == "positions":
            rows = kinematics_from_positions(rows)
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            trace = os.path.join(work, f"{name}-seed{seed}.csv")
            rng = random.Random(f"{name}/{seed}")
            write_trace(trace, noisy_rows(rows, rng, args.speed_sigma, args.course_sigma, args.correlation_s, args.bias_m,
                                          args.speed_latency_s, args.reported_accuracy, args.sigma_m))
            jobs.append((name, truth_path, trace, maps[drives[name]]))

    def match(job):
        name, truth_path, trace, map_path = job
        output = trace[:-4] + ".match.csv"
        if args.pieces_s > 0:
            match_in_pieces(args.adasis, map_path, args.match_flag, trace, output, args.pieces_s)
        else:
            with open(output, "w") as handle:
                subprocess.run([args.adasis, "match", "--map", map_path, *args.match_flag, trace],
                               stdout=handle, stderr=subprocess.DEVNULL, check=True)
        return name, ev.match_score(ev.read_truth(truth_path), ev.read_match(output))

    scores = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for name, score in pool.map(match, jobs):
            scores.setdefault(name, []).append(score)
    return [summary(name, scores[name]) for name in sorted(scores)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--adasis", required=True)
    parser.add_argument("--map", action="append", default=[], help="NAME=PATH, NAME helsinki or suburb")
    parser.add_argument("--truth-dir", default="Data/drives")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--sigma-m", type=float, default=make_drives.NOISE_SIGMA_M,
                        help="the position noise's sigma per axis, metres (default: make-drives.py's, as in "
                             "Data/drives); 0 matches the clean drive with every draw")
    parser.add_argument("--speed-sigma", type=float, default=0.0,
                        help="a receiver's speed noise, m/s (default 0: the speeds exact, as in Data/drives)")
    parser.add_argument("--course-sigma", type=float, default=0.0,
                        help="a receiver's course noise at 10 m/s and above, degrees (default 0: exact)")
    parser.add_argument("--correlation-s", type=float, default=0.0,
                        help="correlation time of the position noise, seconds (default 0: independent per fix)")
    parser.add_argument("--bias-m", type=float, default=0.0,
                        help="a constant position offset per draw, sigma per axis, metres (default 0)")
    parser.add_argument("--speed-latency-s", type=float, default=0.0,
                        help="how late each fix's speed is, seconds: it reports the drive's speed that long "
                             "before (default 0: on time)")
    parser.add_argument("--kinematics", choices=("simulator", "positions"), default="simulator",
                        help="the speeds and courses of the traces: SUMO's (default, as in Data/drives) or a "
                             "receiver's for the positions (kinematics_from_positions)")
    parser.add_argument("--reported-accuracy", action="store_true",
                        help="each fix says how accurate its speed and course are (reported_accuracy), as gpsd's eps "
                             "and epd; only with --kinematics positions (SUMO's course is off by a step in turns)")
    parser.add_argument("--pieces-s", type=float, default=0.0,
                        help="match each trace in pieces of this many seconds, each from a cold start (a matcher "
                             "restarted that often; default 0: whole)")
    parser.add_argument("--work")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--match-flag", action="append", default=[], help="passed to adasis match")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error("--seeds must be at least 1")
    for option, value in (("--sigma-m", args.sigma_m), ("--speed-sigma", args.speed_sigma),
                          ("--course-sigma", args.course_sigma),
                          ("--correlation-s", args.correlation_s), ("--bias-m", args.bias_m),
                          ("--speed-latency-s", args.speed_latency_s), ("--pieces-s", args.pieces_s)):
        if not (value >= 0 and math.isfinite(value)):
            parser.error(f"{option} {value}: give a finite value of 0 or more")
    if args.reported_accuracy and args.kinematics != "positions":
        parser.error("--reported-accuracy: a receiver reports the accuracy of its own velocity; give --kinematics "
                     "positions too (SUMO's course is the last step's, degrees off in every turn)")
    for entry in args.map:
        if "=" not in entry:
            parser.error(f"--map {entry}: write NAME=PATH, e.g. --map helsinki=helsinki.map")
    try:
        if args.work:
            os.makedirs(args.work, exist_ok=True)
            rows = run(args, args.work)
        else:
            with tempfile.TemporaryDirectory() as work:
                rows = run(args, work)
    except (ev.EvaluationError, OSError, subprocess.CalledProcessError) as error:
        print(f"noise_seeds: {error}", file=sys.stderr)
        return 1
    if not rows:
        print(f"noise_seeds: no drives with a truth CSV in {args.truth_dir}", file=sys.stderr)
        return 1
    print(json.dumps(rows, indent=1) if args.json else markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
