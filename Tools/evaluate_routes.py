#!/usr/bin/env python3
"""Scores the horizon with a destination: how much of the true next 500 m the main path covers when the
drive is replayed with `adasis horizon --destination`, and how often the route was replanned.

For each drive of a truth directory, the destination is read from its drives.json (`destination`, as
Tools/make-navigated-drives.py writes it) or, where a drive has none (Tools/make-drives.py's drives), is
the drive's last clean fix. The noisy trace is replayed with that destination; the main path is scored by
Tools/evaluate_drives.py's horizon score (share of 10 m samples of the true next 500 m on the main path,
per fix with 500 m of drive ahead), and the route lines the command writes on standard error are counted:
deviations ("left at"), new active routes after a deviation, arrivals.

For a drive that leaves its route on purpose (drives.json `deviation.time_s`: when the car turns off),
two more numbers: the coverage without the fixes in the 500 m before the turn (there the main path
follows the route the driver is about to ignore, which no route-following horizon can foresee), and how
many seconds after the turn the deviation was reported.

  Tools/evaluate_routes.py --adasis ADASIS --map MAP --truth-dir DIR [--results-dir DIR] [--json]

Exit status 0 when scored, 2 on bad input (a missing file or drive, a failed replay).
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evaluate_drives  # noqa: E402

DEVIATION = re.compile(r"^route \d+: left at ([0-9.]+) s")
REPLANNED = re.compile(r"^route \d+ active at [0-9.]+ s \(deviation\)")
ARRIVED = re.compile(r"^route \d+: arrived at ")


class RouteEvaluationError(Exception):
    """Bad input: the message says what and where."""


def route_events(log_text):
    """Counts of the route lines of `adasis horizon|replay` standard error: deviations, replans after a
    deviation, arrivals."""
    lines = log_text.splitlines()
    return dict(deviations=sum(1 for line in lines if DEVIATION.match(line)),
                replans=sum(1 for line in lines if REPLANNED.match(line)),
                arrived=any(ARRIVED.match(line) for line in lines))


def deviation_times(log_text):
    """Session times (s) of the deviations reported in the route lines."""
    return [float(match.group(1)) for match in map(DEVIATION.match, log_text.splitlines()) if match]


def destinations(truth_dir):
    """{drive name: ((lat, lon), turn time or None)} for every clean drive CSV of truth_dir: the destination
    from drives.json where it names one, else the drive's last fix; the time the car leaves its route
    (drives.json `deviation.time_s`) where it does."""
    listed, turns = {}, {}
    manifest = os.path.join(truth_dir, "drives.json")
    if os.path.isfile(manifest):
        with open(manifest, encoding="utf-8") as handle:
            try:
                drives = json.load(handle).get("drives", [])
            except json.JSONDecodeError as error:
                raise RouteEvaluationError(f"{manifest}: not JSON ({error.msg})") from None
        for drive in drives:
            if isinstance(drive, dict) and "destination" in drive:
                lat, lon = drive["destination"]
                listed[drive["name"]] = (float(lat), float(lon))
                if isinstance(drive.get("deviation"), dict) and "time_s" in drive["deviation"]:
                    turns[drive["name"]] = float(drive["deviation"]["time_s"])
    result = {}
    for file_name in sorted(os.listdir(truth_dir)):
        if not file_name.endswith(".csv") or file_name.endswith("-noisy.csv"):
            continue
        name = file_name[:-4]
        if name in listed:
            result[name] = (listed[name], turns.get(name))
            continue
        with open(os.path.join(truth_dir, file_name), newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        if not rows:
            raise RouteEvaluationError(f"{truth_dir}/{file_name}: no fixes to take a destination from")
        result[name] = ((float(rows[-1]["lat"]), float(rows[-1]["lon"])), None)
    if not result:
        raise RouteEvaluationError(f"no drive CSVs in {truth_dir}")
    return result


def per_fix_coverage(truth, horizons):
    """[(driven distance m, time key (tenths of a second), covered share)] for each scored fix: Tools/evaluate_drives.py's horizon
    score, fix by fix (the shares add up to its sum)."""
    distances = evaluate_drives.driven_distances(truth)
    step, ahead = evaluate_drives.SAMPLE_STEP_M, evaluate_drives.AHEAD_M
    samples = [step * k for k in range(1, int(ahead / step) + 1)]
    result = []
    for index, (key, _, _, _) in enumerate(truth):
        here = distances[index]
        if distances[-1] - here < ahead - evaluate_drives.AHEAD_SLACK_M:
            continue
        main_path = horizons.get(key) or []
        hits = sum(1 for d in samples
                   if evaluate_drives.covered(main_path, evaluate_drives.true_way_at(truth, distances, here + d), d))
        result.append((here, truth[index][0], hits / len(samples)))
    return result


def score(truth_path, horizon_path, log_text, turn_time=None):
    """One drive's row: fixes scored, main-path coverage of the true next 500 m, and the route events; with
    a turn time, the coverage without the 500 m before the turn and the seconds to the deviation report."""
    truth = evaluate_drives.read_truth(truth_path)
    horizons = evaluate_drives.read_horizon(horizon_path)
    fixes = per_fix_coverage(truth, horizons)
    covered, scored = sum(share for _, _, share in fixes), len(fixes)
    row = dict(fixes=len(truth), horizon_fixes=scored, coverage_sum=covered,
               coverage=covered / scored if scored else None, **route_events(log_text))
    if turn_time is not None:
        distances = evaluate_drives.driven_distances(truth)
        turn_key = evaluate_drives.time_key(turn_time, f"{truth_path}: deviation time")
        turn_at = next((distance for (key, _, _, _), distance in zip(truth, distances) if key >= turn_key), None)
        if turn_at is None:
            raise RouteEvaluationError(f"{truth_path}: the turn at {turn_time} s is after the last fix")
        kept = [share for here, _, share in fixes if not turn_at - evaluate_drives.AHEAD_M <= here < turn_at]
        reported = [time for time in deviation_times(log_text) if time >= turn_time]
        row.update(turn_s=turn_time, coverage_outside_turn=sum(kept) / len(kept) if kept else None,
                   fixes_outside_turn=len(kept), detected_after_s=reported[0] - turn_time if reported else None)
    return row


def replay(adasis, map_file, trace, destination, horizon_path):
    """Runs `adasis horizon --destination` on trace into horizon_path; returns its standard error."""
    command = [adasis, "horizon", "--map", map_file, "--destination", f"{destination[0]},{destination[1]}", trace]
    with open(horizon_path, "w") as out:
        result = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        raise RouteEvaluationError(f"{' '.join(command)} failed ({result.returncode}): {result.stderr[-2000:]}")
    return result.stderr


def table(rows):
    """Markdown: one row per drive and a total (coverage weighted by scored fixes)."""
    lines = ["| drive | fixes | horizon fixes | horizon 500 m | deviations | replans |", "|---|---|---|---|---|---|"]
    for name, row in rows:
        lines.append(f"| {name} | {row['fixes']} | {row['horizon_fixes']} | "
                     f"{evaluate_drives.percent(row['coverage'])} | {row['deviations']} | {row['replans']} |")
    scored = sum(row["horizon_fixes"] for _, row in rows)
    covered = sum(row["coverage_sum"] for _, row in rows)
    lines.append(f"| **total** | {sum(row['fixes'] for _, row in rows)} | {scored} | "
                 f"{evaluate_drives.percent(covered / scored if scored else None)} | "
                 f"{sum(row['deviations'] for _, row in rows)} | {sum(row['replans'] for _, row in rows)} |")
    turned = [(name, row) for name, row in rows if "turn_s" in row]
    if turned:
        lines += ["", "| drive leaving its route | turns off at | deviation reported after | horizon 500 m "
                  "without the 500 m before the turn (fixes) |", "|---|---|---|---|"]
        for name, row in turned:
            detected = "never" if row["detected_after_s"] is None else f"{row['detected_after_s']:.0f} s"
            lines.append(f"| {name} | {row['turn_s']:.0f} s | {detected} | "
                         f"{evaluate_drives.percent(row['coverage_outside_turn'])} ({row['fixes_outside_turn']}) |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--adasis", required=True, help="the adasis executable")
    parser.add_argument("--map", required=True, help="the map file (adasis map import)")
    parser.add_argument("--truth-dir", required=True, help="directory of drives: <name>.csv, <name>-noisy.csv")
    parser.add_argument("--results-dir", default=".build/evaluation/routes", help="where the horizons go")
    parser.add_argument("--json", action="store_true", help="print JSON instead of markdown")
    args = parser.parse_args(argv)
    try:
        for path, what in ((args.adasis, "adasis executable"), (args.map, "map file")):
            if not os.path.isfile(path):
                raise RouteEvaluationError(f"{what} {path} not found")
        if not os.path.isdir(args.truth_dir):
            raise RouteEvaluationError(f"truth directory {args.truth_dir} not found")
        os.makedirs(args.results_dir, exist_ok=True)
        rows = []
        for name, (destination, turn_time) in destinations(args.truth_dir).items():
            noisy = os.path.join(args.truth_dir, f"{name}-noisy.csv")
            if not os.path.isfile(noisy):
                raise RouteEvaluationError(f"{noisy} not found: every drive needs its noisy trace")
            horizon = os.path.join(args.results_dir, f"{name}-noisy.horizon.jsonl")
            log = replay(args.adasis, args.map, noisy, destination, horizon)
            with open(os.path.join(args.results_dir, f"{name}-noisy.route.log"), "w") as out:
                out.write(log)
            rows.append((name, score(os.path.join(args.truth_dir, f"{name}.csv"), horizon, log, turn_time)))
    except (RouteEvaluationError, evaluate_drives.EvaluationError) as error:
        print(f"evaluate_routes: {error}", file=sys.stderr)
        return 2
    print(json.dumps(dict(rows), indent=1) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
