#!/usr/bin/env python3
"""How far along the road the matched positions are from the truth (the ground-truth drives, Data/drives).

Most wrong fixes are one way behind or ahead of the truth at a junction node (Tools/analyze_mismatches.py): the
matcher is on the right road, but its along-track estimate (a Kalman filter of dead reckoning from the fix
speeds and the fix's projection, Sources/Horizon/Matching/AlongTrackEstimate.swift) puts the vehicle a metre or
two before or past the node. This tool measures that error directly.

For each truth fix with speed ≥ 1 m/s whose matched row has a point: the signed along-track error is the
matched point minus the clean truth point, projected on the truth heading (metres, positive = ahead of the
car). The cross-track part (the car runs beside the OSM line) is left out. Fixes within TURN_WINDOW fixes of
a heading change of more than TURN_DEGREES (over 2 × TURN_WINDOW fixes) are also reported apart, as "in
turns". Prints a markdown table per drive and in total: fixes, mean, standard deviation, p90 of |error|, the
share beyond 2 m, and the same for the fixes in turns.

A second table says what that error costs in way-correct fixes. Where the truth's way changes every L metres
on average (the clean drive's length over its label changes) and the matched point errs along the road by
σ (root mean square of the errors under FAR_M, normal), a fix lies on the other side of a way boundary with probability about
2σ / (L √(2π)) ≈ 0.8 σ / L (boundaries spread evenly under the fixes). Per drive: L, σ, that prediction,
the share of those fixes actually on a wrong way, and the σ that 97 % way correct among them would need
(Docs/measurements.md, stop 58).

A third table (--truth-kinematics, instead of the two above; reads no results) says how well the drive's own
speeds and courses explain its positions, which bounds how far dead reckoning can take the matcher
(Docs/measurements.md, stop 59). Per drive, from the truth alone: each step's dead reckoning (the mean of its
two speeds times its time, along the mean of its two courses, as Sources/Horizon/Matching/DeadReckoningFilter.swift
steps) minus the step the positions took, its part along that course; the root mean square per step, and of the
sum over DR_WINDOW_S steps in a row (what the matcher's fused position inherits while it averages that many
fixes). Both as the drive gives its speeds and courses (SUMO's) and as a receiver would give them for the same
positions (noise_seeds.py's kinematics_from_positions), and the share of the latter's squares in the steps within
WAY_CHANGE_STEPS rows of a change of the true way. A receiver's Doppler velocity, good to 0.05-0.1 m/s, misses
by about that per 1-s step; what a drive misses by beyond it is the simulation's, not the receiver's.

Usage:
  Tools/evaluate_along_track.py --truth-dir Data/drives --results-dir DIR --suffix=-noisy
  Tools/evaluate_along_track.py --truth-dir Data/drives --truth-kinematics
Reads <results-dir>/<name><suffix>.match.csv for every drive <name>.csv of --truth-dir (as evaluate_drives.py).
"""
import argparse
import csv
import math
import os
import statistics
import sys

import evaluate_drives as ev

MINIMUM_SPEED = 1.0
TURN_WINDOW = 2
TURN_DEGREES = 30.0
# A matched point farther than this along the road from the truth is on another road or past a wrong turn,
# not a step before or past a way boundary: left out of the way-boundary table's rms.
FAR_M = 20.0
# Steps summed for the dead-reckoning table's second column.
DR_WINDOW_S = 10
# A step counts as at a way change where the true way changes within this many rows of it.
WAY_CHANGE_STEPS = 1
EARTH_METRES_PER_DEGREE = 111_320.0


def plane_offset(a, b):
    """Metres (east, north) from the point of CSV row a to that of row b (lat, lon), on a plane tangent at a."""
    lat0, lon0 = float(a["lat"]), float(a["lon"])
    north = (float(b["lat"]) - lat0) * EARTH_METRES_PER_DEGREE
    east = (float(b["lon"]) - lon0) * EARTH_METRES_PER_DEGREE * math.cos(math.radians(lat0))
    return east, north


def along_track_error(truth_row, match_row):
    """Signed metres from the truth point to the matched point along the truth heading, or None."""
    try:
        east, north = plane_offset(truth_row, match_row)
        heading = math.radians(float(truth_row["heading_deg"]))
    except (KeyError, TypeError, ValueError):
        return None
    return east * math.sin(heading) + north * math.cos(heading)


def heading_change(a, b):
    """Absolute difference of two headings, degrees in 0...180."""
    difference = abs(a - b) % 360
    return 360 - difference if difference > 180 else difference


def read_drive(truth_path, match_path):
    """A drive's truth rows [(line, row)], their speeds and headings, and its matched rows by time key (none
    when match_path is None); raises
    EvaluationError naming the file and line of a truth row whose speed or heading is not a number."""
    truth = list(ev.read_csv_rows(truth_path, "truth", ev.TRUTH_COLUMNS + ("speed_mps", "heading_deg")))
    matches = {}
    for line, row in ev.read_csv_rows(match_path, "match", ev.MATCH_COLUMNS + ("lat", "lon")) if match_path else ():
        matches[ev.time_key(row["time_s"], f"match file {match_path}:{line}")] = row
    headings, speeds = [], []
    for line, row in truth:
        try:
            headings.append(float(row["heading_deg"]))
            speeds.append(float(row["speed_mps"]))
        except (TypeError, ValueError):
            raise ev.EvaluationError(f"truth file {truth_path}:{line}: speed_mps/heading_deg "
                                     f"{row['speed_mps']!r},{row['heading_deg']!r} are not numbers") from None
    return dict(path=truth_path, truth=truth, speeds=speeds, headings=headings, matches=matches)


def moving_fixes(drive):
    """(index, truth row, matched row, along-track error) of each truth fix with speed >= MINIMUM_SPEED whose
    matched row has a point."""
    for index, (line, row) in enumerate(drive["truth"]):
        if drive["speeds"][index] < MINIMUM_SPEED:
            continue
        match = drive["matches"].get(ev.time_key(row["time_s"], f"truth file {drive['path']}:{line}"))
        error = along_track_error(row, match) if match else None
        if error is not None:
            yield index, row, match, error


def drive_errors(drive):
    """(all errors, errors in turns) of one drive (read_drive)."""
    errors, turning = [], []
    headings, last = drive["headings"], len(drive["truth"]) - 1
    for index, _, _, error in moving_fixes(drive):
        errors.append(error)
        before, after = max(0, index - TURN_WINDOW), min(last, index + TURN_WINDOW)
        if heading_change(headings[before], headings[after]) > TURN_DEGREES:
            turning.append(error)
    return errors, turning


def boundary_budget(drive):
    """(metres between way boundaries along the clean drive, rms along-track error, share of the moving fixes
    on a wrong way) of one drive (read_drive); the first is None when its label never changes."""
    truth = [row for _, row in drive["truth"]]
    driven = sum(math.hypot(*plane_offset(before, row)) for before, row in zip(truth, truth[1:]))
    changes = sum(before["true_way_id"] != row["true_way_id"] for before, row in zip(truth, truth[1:]))
    squares, wrong, moving = [], 0, 0
    for _, row, match, error in moving_fixes(drive):
        if abs(error) < FAR_M:
            squares.append(error * error)
        moving += 1
        wrong += match["way_id"] != row["true_way_id"]
    spacing = driven / changes if changes else None
    rms = math.sqrt(statistics.fmean(squares)) if squares else None
    return spacing, rms, (wrong / moving if moving else None)


def budget_cells(spacing, rms, wrong):
    """Cells of one drive's row of the way-boundary table."""
    if spacing is None or rms is None:
        return ["–"] * 5
    predicted = 2 * rms / (spacing * math.sqrt(2 * math.pi))
    needed = 0.03 * spacing * math.sqrt(2 * math.pi) / 2
    return [f"{spacing:.1f} m", f"{rms:.2f} m", f"{100 * predicted:.1f} %", f"{100 * wrong:.1f} %", f"{needed:.2f} m"]


def dead_reckoning_misses(rows, speeds, headings):
    """Per step between two truth rows (moving: either speed >= MINIMUM_SPEED), in drive order: the unit vector of
    its mean course, the miss of its dead reckoning (metres east, north: the step the speeds and courses say minus
    the one the positions took), and whether the true way changes within WAY_CHANGE_STEPS rows of it."""
    misses = []
    for k in range(1, len(rows)):
        v0, v1 = speeds[k - 1], speeds[k]
        if max(v0, v1) < MINIMUM_SPEED:
            continue
        h0, h1 = math.radians(headings[k - 1]), math.radians(headings[k])
        x, y = math.sin(h0) + math.sin(h1), math.cos(h0) + math.cos(h1)
        length = math.hypot(x, y)
        if length < 1e-9:
            continue
        course = (x / length, y / length)
        driven = (v0 + v1) / 2 * (float(rows[k]["time_s"]) - float(rows[k - 1]["time_s"]))
        east, north = plane_offset(rows[k - 1], rows[k])
        nearby = rows[max(0, k - 1 - WAY_CHANGE_STEPS):k + WAY_CHANGE_STEPS + 1]
        at_change = len({row["true_way_id"] for row in nearby}) > 1
        misses.append((course, (driven * course[0] - east, driven * course[1] - north), at_change))
    return misses


def dead_reckoning_rms(misses, window=DR_WINDOW_S):
    """(rms along the course of one step's miss, rms of `window` consecutive misses summed and taken along the
    last one's course, share of the steps' squared misses along that lies at way changes); None where there are
    too few steps."""
    def along(course, miss):
        return course[0] * miss[0] + course[1] * miss[1]
    if not misses:
        return None, None, None
    squares = [along(course, miss) ** 2 for course, miss, _ in misses]
    total = sum(squares)
    at_changes = sum(square for square, (_, _, change) in zip(squares, misses) if change)
    sums = []
    for k in range(len(misses) - window + 1):
        east = sum(miss[0] for _, miss, _ in misses[k:k + window])
        north = sum(miss[1] for _, miss, _ in misses[k:k + window])
        sums.append(along(misses[k + window - 1][0], (east, north)) ** 2)
    return (math.sqrt(total / len(squares)), math.sqrt(statistics.fmean(sums)) if sums else None,
            at_changes / total if total > 0 else None)


def dead_reckoning_cells(drive):
    """Cells of one drive's row of the dead-reckoning table: per step and over DR_WINDOW_S steps with the drive's
    speeds and courses, the same with a receiver's for its positions, and the share of the latter at way changes."""
    import noise_seeds  # the receiver's kinematics; imported here as it needs make-drives.py beside it
    rows = [row for _, row in drive["truth"]]
    receiver = noise_seeds.kinematics_from_positions(rows)
    cells = []
    for speeds, headings in ((drive["speeds"], drive["headings"]),
                             ([float(r["speed_mps"]) for r in receiver], [float(r["heading_deg"]) for r in receiver])):
        misses = dead_reckoning_misses(rows, speeds, headings)
        step, window, share = dead_reckoning_rms(misses)
        cells += ["–" if value is None else f"{value:.2f} m" for value in (step, window)]
    if share is None:
        return cells + ["–"]
    steps = sum(change for _, _, change in misses) / len(misses)
    return cells + [f"{100 * share:.0f} % ({100 * steps:.0f} % of the steps)"]


def summary(errors):
    """Cells of one group of errors: fixes, mean, sd, p90 |e|, share beyond 2 m."""
    if not errors:
        return ["0", "–", "–", "–", "–"]
    magnitudes = sorted(abs(e) for e in errors)
    p90 = magnitudes[min(len(magnitudes) - 1, int(0.9 * len(magnitudes)))]
    beyond = sum(1 for e in magnitudes if e > 2) / len(magnitudes)
    return [str(len(errors)), f"{statistics.fmean(errors):+.2f} m", f"{statistics.pstdev(errors):.2f} m",
            f"{p90:.2f} m", f"{100 * beyond:.1f} %"]


def truth_kinematics_table(truth_dir):
    """Prints the dead-reckoning table for every clean drive (<name>.csv, not -noisy) of truth_dir."""
    if not os.path.isdir(truth_dir):
        raise ev.EvaluationError(f"truth directory {truth_dir} not found; pass --truth-dir Data/drives")
    names = sorted(f[:-4] for f in os.listdir(truth_dir) if f.endswith(".csv") and not f.endswith("-noisy.csv"))
    if not names:
        raise ev.EvaluationError(f"no drives (<name>.csv) in {truth_dir}")
    print(f"| drive | dead reckoning misses the positions along the road: per step | over {DR_WINDOW_S} s"
          f" | with a receiver's speeds and courses: per step | over {DR_WINDOW_S} s | of its squares at way changes |")
    print("|---|---|---|---|---|---|")
    for name in names:
        drive = read_drive(os.path.join(truth_dir, f"{name}.csv"), None)
        print("| " + " | ".join([name] + dead_reckoning_cells(drive)) + " |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--truth-dir", required=True)
    parser.add_argument("--results-dir", help="the <name><suffix>.match.csv files (not with --truth-kinematics)")
    parser.add_argument("--suffix", default="")
    parser.add_argument("--truth-kinematics", action="store_true",
                        help="print only the drives' own dead-reckoning table (their speeds and courses against their "
                             "positions); reads no results")
    args = parser.parse_args(argv)
    try:
        if args.truth_kinematics:
            truth_kinematics_table(args.truth_dir)
            return 0
        if args.results_dir is None:
            raise ev.EvaluationError("pass --results-dir (the adasis match outputs), or --truth-kinematics")
        drives = ev.drives_in(args.truth_dir, args.results_dir, args.suffix)
        print("| drive | fixes | mean | sd | p90 abs | beyond 2 m | in turns: fixes | mean | sd | p90 abs |"
              " beyond 2 m |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        everything, all_turning, budgets = [], [], []
        for name, truth_path, match_path, _ in drives:
            if match_path is None:
                continue
            drive = read_drive(truth_path, match_path)
            errors, turning = drive_errors(drive)
            everything += errors
            all_turning += turning
            budgets.append((name, boundary_budget(drive)))
            print("| " + " | ".join([name] + summary(errors) + summary(turning)) + " |")
        print("| **all** | " + " | ".join(summary(everything) + summary(all_turning)) + " |")
        print()
        print("| drive | a way boundary every | rms along | 0.8 rms / boundary spacing | moving fixes on a wrong way"
              " | rms for 3 % |")
        print("|---|---|---|---|---|---|")
        for name, budget in budgets:
            print("| " + " | ".join([name] + budget_cells(*budget)) + " |")
    except ev.EvaluationError as error:
        print(f"evaluate_along_track: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
