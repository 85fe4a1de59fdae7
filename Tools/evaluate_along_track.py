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

Usage:
  Tools/evaluate_along_track.py --truth-dir Data/drives --results-dir DIR --suffix=-noisy
Reads <results-dir>/<name><suffix>.match.csv for every drive <name>.csv of --truth-dir (as evaluate_drives.py).
"""
import argparse
import csv
import math
import statistics
import sys

import evaluate_drives as ev

MINIMUM_SPEED = 1.0
TURN_WINDOW = 2
TURN_DEGREES = 30.0
# A matched point farther than this along the road from the truth is on another road or past a wrong turn,
# not a step before or past a way boundary: left out of the way-boundary table's rms.
FAR_M = 20.0
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
    """A drive's truth rows [(line, row)], their speeds and headings, and its matched rows by time key; raises
    EvaluationError naming the file and line of a truth row whose speed or heading is not a number."""
    truth = list(ev.read_csv_rows(truth_path, "truth", ev.TRUTH_COLUMNS + ("speed_mps", "heading_deg")))
    matches = {}
    for line, row in ev.read_csv_rows(match_path, "match", ev.MATCH_COLUMNS + ("lat", "lon")):
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


def summary(errors):
    """Cells of one group of errors: fixes, mean, sd, p90 |e|, share beyond 2 m."""
    if not errors:
        return ["0", "–", "–", "–", "–"]
    magnitudes = sorted(abs(e) for e in errors)
    p90 = magnitudes[min(len(magnitudes) - 1, int(0.9 * len(magnitudes)))]
    beyond = sum(1 for e in magnitudes if e > 2) / len(magnitudes)
    return [str(len(errors)), f"{statistics.fmean(errors):+.2f} m", f"{statistics.pstdev(errors):.2f} m",
            f"{p90:.2f} m", f"{100 * beyond:.1f} %"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--truth-dir", required=True)
    parser.add_argument("--results-dir", required=True)
    parser.add_argument("--suffix", default="")
    args = parser.parse_args(argv)
    try:
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
