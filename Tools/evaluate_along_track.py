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
EARTH_METRES_PER_DEGREE = 111_320.0


def along_track_error(truth_row, match_row):
    """Signed metres from the truth point to the matched point along the truth heading, or None."""
    try:
        lat0, lon0 = float(truth_row["lat"]), float(truth_row["lon"])
        lat, lon = float(match_row["lat"]), float(match_row["lon"])
        heading = math.radians(float(truth_row["heading_deg"]))
    except (KeyError, TypeError, ValueError):
        return None
    north = (lat - lat0) * EARTH_METRES_PER_DEGREE
    east = (lon - lon0) * EARTH_METRES_PER_DEGREE * math.cos(math.radians(lat0))
    return east * math.sin(heading) + north * math.cos(heading)


def heading_change(a, b):
    """Absolute difference of two headings, degrees in 0...180."""
    difference = abs(a - b) % 360
    return 360 - difference if difference > 180 else difference


def drive_errors(truth_path, match_path):
    """(all errors, errors in turns) of one drive."""
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
    errors, turning = [], []
    for index, (line, row) in enumerate(truth):
        if speeds[index] < MINIMUM_SPEED:
            continue
        match = matches.get(ev.time_key(row["time_s"], f"truth file {truth_path}:{line}"))
        error = along_track_error(row, match) if match else None
        if error is None:
            continue
        errors.append(error)
        before, after = max(0, index - TURN_WINDOW), min(len(truth) - 1, index + TURN_WINDOW)
        if heading_change(headings[before], headings[after]) > TURN_DEGREES:
            turning.append(error)
    return errors, turning


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
        everything, all_turning = [], []
        for name, truth_path, match_path, _ in drives:
            if match_path is None:
                continue
            errors, turning = drive_errors(truth_path, match_path)
            everything += errors
            all_turning += turning
            print("| " + " | ".join([name] + summary(errors) + summary(turning)) + " |")
        print("| **all** | " + " | ".join(summary(everything) + summary(all_turning)) + " |")
    except ev.EvaluationError as error:
        print(f"evaluate_along_track: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
