#!/usr/bin/env python3
"""Scores map matching and horizon prediction against the ground-truth drives (Data/drives/).

Inputs per drive:
  truth    Data/drives/<name>.csv (time_s,lat,lon,speed_mps,heading_deg,true_way_id). Always the CLEAN file,
           also when the tools ran on <name>-noisy.csv: positions are only used for driven distance.
  match    output of `adasis match --map MAP TRACE`: CSV time_s,state,way_id,link_id,offset_m,lat,lon
           (way_id empty when there is no match).
  horizon  output of `adasis horizon --map MAP TRACE`: JSON Lines, one object per fix with time_s, state,
           way_id and main_path [{"way_id":..,"length_m":..},...] ordered from the vehicle's position ahead;
           the first element's length_m is the part of that way ahead of the vehicle.
Rows are joined on time_s rounded to 0.1 s; output rows with no truth fix are counted, not scored.

Metrics:
  way correct   share of truth fixes whose matched way_id equals true_way_id. A fix missing from the output,
                or output with an empty way_id, counts as wrong.
  off road      share of truth fixes the matcher declared off road (state off_road): every drive stays on
                its roads, so each one is a false positive of the off-road detection.
  horizon 500 m for each truth fix with at least 500 m (less 5 cm) of driven distance ahead (sum of distances between
                consecutive truth fixes): at d = 10, 20, ..., 500 m ahead the true way is the true_way_id of the
                truth fix nearest in driven distance to (distance here + d) (ties: the earlier fix). The sample
                is covered if an element of the main path with that way id overlaps [d - 25 m, d + 25 m], where
                element k spans [sum of the lengths before it, that sum + its length_m]. The fix scores the
                share of its 50 samples covered; a fix missing from the horizon output scores 0. The drive's
                value is the mean over its scored fixes.
  tree 500 m    the same, but a sample is covered when the main path or any side path covers it: a side path's
                elements are laid end to end from its start_distance_m (metres along the tree from the vehicle
                to its first link, in the horizon output); records without side_paths count as main path only.
  tree misses after a return
                of the samples the tree misses, the share that lie after the driven route came back to where
                it had been within those 500 m: a truth fix between here and the sample lies within 20 m of an
                earlier one, also after here, driven at least 50 m before it. A U-turn (on the same road or at
                the end of a side street) or a loop, which no path of a prediction holds.
  Totals weight each drive by its fixes (way correct) or its scored fixes (horizon 500 m).

Usage:
  Tools/evaluate_drives.py --truth Data/drives/kamppi.csv --match out/kamppi-noisy.match.csv \\
      --horizon out/kamppi-noisy.horizon.jsonl
  Tools/evaluate_drives.py --truth-dir Data/drives --results-dir out --suffix=-noisy [--json]
In directory mode every <name>.csv of --truth-dir (not *-noisy.csv) is scored against
<results-dir>/<name><suffix>.match.csv and <name><suffix>.horizon.jsonl, each where it exists.
Prints one markdown table row per drive and a total row; --json prints the same numbers as JSON.
--list-misses prints instead, per drive, every fix whose tree misses samples of the true next 500 m and the ways
missed at the most fixes: the diagnosis that found stop 46's label blips (one 10 m sample of a side street,
missed at every fix for half a minute).
"""
import argparse
import bisect
import csv
import json
import math
import os
import sys

EARTH_RADIUS_M = 6371008.8
AHEAD_M = 500.0
AHEAD_SLACK_M = 0.05  # rounding of 7-decimal coordinates: a fix 499.97 m from the end still has 500 m ahead
SAMPLE_STEP_M = 10.0
TOLERANCE_M = 25.0
TRUTH_COLUMNS = ("time_s", "lat", "lon", "true_way_id")
MATCH_COLUMNS = ("time_s", "way_id")


class EvaluationError(Exception):
    """An input file is missing or malformed; the message names the file, the line and what is expected."""


def time_key(value, where):
    """The join key of a time: tenths of a second, rounded; raises EvaluationError when it is no number."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise EvaluationError(f"{where}: time_s {value!r} is not a number") from None
    if not math.isfinite(seconds):
        raise EvaluationError(f"{where}: time_s {value!r} is not a finite number")
    return round(seconds * 10)


def way_id(value, where, allow_empty):
    """A way id from text or JSON (int); None for empty when allowed."""
    if value is None or (isinstance(value, str) and value.strip() == ""):
        if allow_empty:
            return None
        raise EvaluationError(f"{where}: way id is empty")
    if isinstance(value, bool):
        raise EvaluationError(f"{where}: way id {value!r} is not an integer")
    try:
        number = int(value) if isinstance(value, int) else int(str(value).strip())
    except ValueError:
        raise EvaluationError(f"{where}: way id {value!r} is not an integer") from None
    return number


def open_text(path, role):
    """Opens an input file, or raises EvaluationError naming its role."""
    try:
        return open(path, newline="", encoding="utf-8")
    except OSError as error:
        raise EvaluationError(f"{role} file {path}: {error.strerror}; pass an existing file") from None


def read_csv_rows(path, role, columns):
    """(line number, row dict) of a CSV file with a header that has the given columns; [] for an empty file."""
    with open_text(path, role) as handle:
        reader = csv.DictReader(handle)
        if reader.fieldnames is None:
            return []
        missing = [column for column in columns if column not in reader.fieldnames]
        if missing:
            raise EvaluationError(f"{role} file {path}:1: header lacks column(s) {', '.join(missing)}; "
                                  f"expected at least {','.join(columns)}")
        return [(reader.line_num, row) for row in reader]


def read_truth(path):
    """Truth fixes as a list of (time key, lat, lon, way id), in file order; raises on bad rows or no fixes."""
    fixes, seen = [], set()
    for line, row in read_csv_rows(path, "truth", TRUTH_COLUMNS):
        where = f"truth file {path}:{line}"
        key = time_key(row["time_s"], where)
        if key in seen:
            raise EvaluationError(f"{where}: time_s {row['time_s']} appears twice")
        seen.add(key)
        try:
            lat, lon = float(row["lat"]), float(row["lon"])
        except (TypeError, ValueError):
            raise EvaluationError(f"{where}: lat/lon {row['lat']!r},{row['lon']!r} are not numbers") from None
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            raise EvaluationError(f"{where}: lat/lon {lat},{lon} out of range")
        fixes.append((key, lat, lon, way_id(row["true_way_id"], where, allow_empty=False)))
    if not fixes:
        raise EvaluationError(f"truth file {path}: no fixes; pass a drive CSV from Data/drives")
    return fixes


def read_match(path):
    """Matcher output as {time key: way id or None}; raises on bad rows or a repeated time."""
    matches = {}
    for line, row in read_csv_rows(path, "match", MATCH_COLUMNS):
        where = f"match file {path}:{line}"
        key = time_key(row["time_s"], where)
        if key in matches:
            raise EvaluationError(f"{where}: time_s {row['time_s']} appears twice")
        matches[key] = way_id(row["way_id"], where, allow_empty=True)
    return matches


def read_states(path):
    """Matcher output as {time key: state}, the state column when there is one (else empty)."""
    states = {}
    for line, row in read_csv_rows(path, "match", MATCH_COLUMNS):
        if row.get("state") is not None:
            states[time_key(row["time_s"], f"match file {path}:{line}")] = row["state"]
    return states


def path_elements(elements, where, name):
    """[(way id, length m), ...] of a main or side path's JSON list; raises on bad elements."""
    if not isinstance(elements, list):
        raise EvaluationError(f"{where}: {name} is not a list")
    result = []
    for index, element in enumerate(elements):
        if not isinstance(element, dict) or "way_id" not in element or "length_m" not in element:
            raise EvaluationError(f"{where}: {name}[{index}] needs way_id and length_m")
        length = element["length_m"]
        if isinstance(length, bool) or not isinstance(length, (int, float)) or not math.isfinite(length) \
                or length < 0:
            raise EvaluationError(f"{where}: {name}[{index}].length_m {length!r} is not a length ≥ 0")
        result.append((way_id(element["way_id"], f"{where}: {name}[{index}]", allow_empty=False), float(length)))
    return result


def read_horizon(path, side_paths=None):
    """Horizon output as {time key: [(way id, length m), ...]}; raises on bad lines or a repeated time.
    When side_paths is a dict it receives {time key: [(start distance m, [(way id, length m), ...]), ...]}
    for every record that has a side_paths list (side paths without a start distance are skipped)."""
    horizons = {}
    with open_text(path, "horizon") as handle:
        for line, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            where = f"horizon file {path}:{line}"
            try:
                record = json.loads(text)
            except json.JSONDecodeError as error:
                raise EvaluationError(f"{where}: not JSON ({error.msg}); expected one object per line") from None
            if not isinstance(record, dict) or "time_s" not in record:
                raise EvaluationError(f"{where}: expected an object with time_s and main_path")
            key = time_key(record["time_s"], where)
            if key in horizons:
                raise EvaluationError(f"{where}: time_s {record['time_s']} appears twice")
            horizons[key] = path_elements(record.get("main_path") or [], where, "main_path")
            if side_paths is not None and isinstance(record.get("side_paths"), list):
                sides = []
                for index, side in enumerate(record["side_paths"]):
                    start = side.get("start_distance_m") if isinstance(side, dict) else None
                    if isinstance(start, bool) or not isinstance(start, (int, float)) or not math.isfinite(start):
                        continue
                    sides.append((float(start), path_elements(side.get("ways") or [], where,
                                                              f"side_paths[{index}].ways")))
                side_paths[key] = sides
    return horizons


def match_scoring_parser(doc):
    """The command line of a tool that scores the match outputs of a results directory against the drives
    of a truth directory on the map's GeoJSON: --truth-dir, --results-dir, --suffix, --geojson."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=doc)
    parser.add_argument("--truth-dir", required=True, help="directory of truth CSVs (Data/drives)")
    parser.add_argument("--results-dir", required=True, help="directory of <name><suffix>.match.csv files")
    parser.add_argument("--suffix", default="", help="result file name suffix after the drive name, e.g. -noisy")
    parser.add_argument("--geojson", action="append", required=True, help="the map as GeoJSON (repeatable)")
    return parser


def geojson_features(path):
    """The features of a map's GeoJSON file (`adasis map export-geojson`); raises on a missing or bad file."""
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)["features"]
    except OSError as error:
        raise EvaluationError(f"GeoJSON file {path}: {error.strerror}; "
                              "make it with adasis map export-geojson MAP -o FILE") from None
    except (ValueError, KeyError, TypeError):
        raise EvaluationError(f"GeoJSON file {path}: not a FeatureCollection; "
                              "make it with adasis map export-geojson MAP -o FILE") from None


def distance_m(lat0, lon0, lat1, lon1):
    """Distance in metres between two close points (local tangent plane)."""
    dx = math.radians(lon1 - lon0) * EARTH_RADIUS_M * math.cos(math.radians((lat0 + lat1) / 2))
    dy = math.radians(lat1 - lat0) * EARTH_RADIUS_M
    return math.hypot(dx, dy)


def driven_distances(truth):
    """Cumulative driven distance at each truth fix, starting at 0."""
    totals = [0.0]
    for (_, lat0, lon0, _), (_, lat1, lon1, _) in zip(truth, truth[1:]):
        totals.append(totals[-1] + distance_m(lat0, lon0, lat1, lon1))
    return totals


def truth_index_at(distances, target):
    """The index of the truth fix nearest in driven distance to target (ties: the earlier fix)."""
    index = bisect.bisect_left(distances, target)
    if index == len(distances):
        return len(distances) - 1
    if index > 0 and target - distances[index - 1] <= distances[index] - target:
        index -= 1
    return index


def true_way_at(truth, distances, target):
    """The true way of the truth fix nearest in driven distance to target (ties: the earlier fix)."""
    return truth[truth_index_at(distances, target)][3]


def covered(main_path, way, distance, start=0.0):
    """Whether an element of the main path on this way overlaps [distance - tolerance, distance + tolerance];
    the path's first element starts `start` metres ahead."""
    for element_way, length in main_path:
        end = start + length
        if element_way == way and start <= distance + TOLERANCE_M and end >= distance - TOLERANCE_M:
            return True
        start = end
        if start > distance + TOLERANCE_M:
            return False
    return False


def match_score(truth, matches):
    """(fixes with the correct way, fixes) of one drive."""
    correct = sum(1 for key, _, _, way in truth if matches.get(key) == way)
    return correct, len(truth)


SAMPLES_M = [SAMPLE_STEP_M * k for k in range(1, int(AHEAD_M / SAMPLE_STEP_M) + 1)]


def scored_fixes(truth, distances, horizons, side_paths):
    """(index, driven distance, [(start, elements)] of the main path and side paths, empty without a
    horizon) of each truth fix with AHEAD_M of truth ahead, the fixes the horizon scores are over."""
    for index, (key, _, _, _) in enumerate(truth):
        here = distances[index]
        if distances[-1] - here < AHEAD_M - AHEAD_SLACK_M:
            continue
        main_path = horizons.get(key)
        yield index, here, [(0.0, main_path)] + (side_paths or {}).get(key, []) if main_path else []


def horizon_score(truth, horizons, side_paths=None):
    """(sum of per-fix covered shares, fixes scored) of one drive; fixes need AHEAD_M of truth ahead. With
    side_paths ({time key: [(start, elements)]}) a sample also counts when a side path covers it (tree)."""
    distances = driven_distances(truth)
    total, scored = 0.0, 0
    for _, here, paths in scored_fixes(truth, distances, horizons, side_paths):
        scored += 1
        if not paths:
            continue
        hits = 0
        for d in SAMPLES_M:
            way = true_way_at(truth, distances, here + d)
            hits += any(covered(path, way, d, start) for start, path in paths)
        total += hits / len(SAMPLES_M)
    return total, scored


RETURN_RADIUS_M = 20.0
RETURN_AFTER_M = 50.0


def last_visits(truth, distances):
    """For each truth fix, the index of the latest earlier fix within RETURN_RADIUS_M of it and at least
    RETURN_AFTER_M of driving before it (the route came back there), or -1."""
    result = []
    for j, (_, lat, lon, _) in enumerate(truth):
        earlier = bisect.bisect_right(distances, distances[j] - RETURN_AFTER_M)
        result.append(next((i for i in range(earlier - 1, -1, -1)
                            if distance_m(truth[i][1], truth[i][2], lat, lon) < RETURN_RADIUS_M), -1))
    return result


def missed_samples(truth, horizons, side_paths):
    """For each fix horizon_score scores: (its time key, [(d, true way, after a return)] of the samples no path
    covers), a sample being after a return when the route came back to where it had been within those d
    metres (last_visits)."""
    distances = driven_distances(truth)
    visits = last_visits(truth, distances)
    for index, here, paths in scored_fixes(truth, distances, horizons, side_paths):
        returned, seen, missed = False, index, []
        for d in SAMPLES_M:
            at = truth_index_at(distances, here + d)
            # Every fix passed since the last sample: did the route come back to a place driven after here?
            returned = returned or any(visits[j] >= index for j in range(seen + 1, at + 1))
            seen = max(seen, at)
            way = truth[at][3]
            if not any(covered(path, way, d, start) for start, path in paths):
                missed.append((d, way, returned))
        yield truth[index][0], missed


def tree_misses(truth, horizons, side_paths):
    """(samples the tree misses, of which after the route came back to where it had been within them) of one
    drive, over the fixes and samples horizon_score scores."""
    misses = [sample for _, missed in missed_samples(truth, horizons, side_paths) for sample in missed]
    return len(misses), sum(1 for _, _, returned in misses if returned)


def miss_listing(name, truth_path, horizon_path):
    """The lines of --list-misses for one drive: each fix whose tree misses samples (time, how many, the first
    one's distance and way, the ways missed), then the ways missed at the most fixes. A way missed sample by
    sample at fix after fix, one sample each, is a way the prediction never holds where the drive passes: a
    side street the truth names at a junction the car crossed (the labels mended at stop 46), or a turn the
    tree does not offer."""
    truth = read_truth(truth_path)
    side_paths = {}
    horizons = read_horizon(horizon_path, side_paths)
    lines, fixes_per_way = [], {}
    for key, missed in missed_samples(truth, horizons, side_paths):
        if not missed:
            continue
        ways = sorted({way for _, way, _ in missed})
        for way in ways:
            fixes_per_way[way] = fixes_per_way.get(way, 0) + 1
        returned = sum(1 for _, _, after in missed if after)
        lines.append(f"{name} t={key / 10:.1f} s: {len(missed)} of {len(SAMPLES_M)} samples missed"
                     f"{f' ({returned} after a return)' if returned else ''}, the first {missed[0][0]:.0f} m ahead "
                     f"on way {missed[0][1]}; ways {' '.join(map(str, ways))}")
    most = sorted(fixes_per_way.items(), key=lambda item: (-item[1], item[0]))[:5]
    lines.append(f"{name}: ways missed at the most fixes: "
                 + (", ".join(f"{way} at {count}" for way, count in most) if most else "none"))
    return lines


def evaluate_drive(name, truth_path, match_path=None, horizon_path=None):
    """The scores of one drive as a dict; a metric whose output file is not given is None."""
    truth = read_truth(truth_path)
    truth_keys = {fix[0] for fix in truth}
    result = dict(name=name, fixes=len(truth), matched_fixes=None, way_correct=None, way_correct_share=None,
                  horizon_fixes=None, horizon_coverage_sum=None, horizon_coverage=None, tree_coverage_sum=None,
                  tree_coverage=None, tree_missed=None, tree_missed_after_return=None,
                  tree_missed_after_return_share=None, off_road=None, off_road_share=None,
                  output_rows_without_truth=0)
    if match_path is not None:
        matches = read_match(match_path)
        correct, total = match_score(truth, matches)
        result.update(matched_fixes=sum(1 for key in truth_keys if matches.get(key) is not None),
                      way_correct=correct, way_correct_share=correct / total)
        states = read_states(match_path)
        off_road = sum(1 for key in truth_keys if states.get(key) == "off_road")
        result.update(off_road=off_road, off_road_share=off_road / total)
        result["output_rows_without_truth"] += sum(1 for key in matches if key not in truth_keys)
    if horizon_path is not None:
        side_paths = {}
        horizons = read_horizon(horizon_path, side_paths)
        coverage_sum, scored = horizon_score(truth, horizons)
        result.update(horizon_fixes=scored, horizon_coverage_sum=coverage_sum,
                      horizon_coverage=coverage_sum / scored if scored else None)
        if side_paths:
            tree_sum, _ = horizon_score(truth, horizons, side_paths)
            result.update(tree_coverage_sum=tree_sum, tree_coverage=tree_sum / scored if scored else None)
            missed, after_return = tree_misses(truth, horizons, side_paths)
            result.update(tree_missed=missed, tree_missed_after_return=after_return,
                          tree_missed_after_return_share=after_return / missed if missed else None)
        result["output_rows_without_truth"] += sum(1 for key in horizons if key not in truth_keys)
    return result


def total(results):
    """The total row: way correct weighted by fixes, horizon coverage weighted by scored fixes."""
    row = dict(name="total", fixes=sum(r["fixes"] for r in results), matched_fixes=None, way_correct=None,
               way_correct_share=None, horizon_fixes=None, horizon_coverage_sum=None, horizon_coverage=None,
               tree_coverage_sum=None, tree_coverage=None, tree_missed=None, tree_missed_after_return=None,
               tree_missed_after_return_share=None, off_road=None, off_road_share=None,
               output_rows_without_truth=sum(r["output_rows_without_truth"] for r in results))
    with_match = [r for r in results if r["way_correct"] is not None]
    if with_match:
        fixes = sum(r["fixes"] for r in with_match)
        row.update(matched_fixes=sum(r["matched_fixes"] for r in with_match),
                   way_correct=sum(r["way_correct"] for r in with_match),
                   way_correct_share=sum(r["way_correct"] for r in with_match) / fixes,
                   off_road=sum(r["off_road"] for r in with_match),
                   off_road_share=sum(r["off_road"] for r in with_match) / fixes)
    with_horizon = [r for r in results if r["horizon_fixes"] is not None]
    if with_horizon:
        scored = sum(r["horizon_fixes"] for r in with_horizon)
        coverage_sum = sum(r["horizon_coverage_sum"] for r in with_horizon)
        row.update(horizon_fixes=scored, horizon_coverage_sum=coverage_sum,
                   horizon_coverage=coverage_sum / scored if scored else None)
    with_tree = [r for r in results if r["tree_coverage_sum"] is not None]
    if with_tree:
        scored = sum(r["horizon_fixes"] for r in with_tree)
        tree_sum = sum(r["tree_coverage_sum"] for r in with_tree)
        row.update(tree_coverage_sum=tree_sum, tree_coverage=tree_sum / scored if scored else None)
        missed = sum(r["tree_missed"] for r in with_tree)
        after_return = sum(r["tree_missed_after_return"] for r in with_tree)
        row.update(tree_missed=missed, tree_missed_after_return=after_return,
                   tree_missed_after_return_share=after_return / missed if missed else None)
    return row


def percent(value):
    """A share as '97.3 %', or '–' when there is none."""
    return "–" if value is None else f"{100 * value:.1f} %"


def markdown(results):
    """The markdown table: one row per drive and the total."""
    lines = ["| drive | fixes | matched | way correct | off road | horizon fixes | horizon 500 m | tree 500 m "
             "| tree misses after a return |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in results + [total(results)]:
        name = f"**{row['name']}**" if row["name"] == "total" else row["name"]
        matched = "–" if row["matched_fixes"] is None else str(row["matched_fixes"])
        scored = "–" if row["horizon_fixes"] is None else str(row["horizon_fixes"])
        lines.append(f"| {name} | {row['fixes']} | {matched} | {percent(row['way_correct_share'])} | "
                     f"{percent(row['off_road_share'])} | {scored} | {percent(row['horizon_coverage'])} | "
                     f"{percent(row['tree_coverage'])} | {percent(row['tree_missed_after_return_share'])} |")
    return "\n".join(lines)


def drives_in(truth_dir, results_dir, suffix):
    """(name, truth, match or None, horizon or None) for every drive of truth_dir with a result file."""
    if not os.path.isdir(truth_dir):
        raise EvaluationError(f"truth directory {truth_dir} not found; pass --truth-dir Data/drives")
    if not os.path.isdir(results_dir):
        raise EvaluationError(f"results directory {results_dir} not found; pass the directory with the "
                              "<name>.match.csv / <name>.horizon.jsonl files")
    drives = []
    for file_name in sorted(os.listdir(truth_dir)):
        if not file_name.endswith(".csv") or file_name.endswith("-noisy.csv"):
            continue
        name = file_name[:-4]
        match = os.path.join(results_dir, f"{name}{suffix}.match.csv")
        horizon = os.path.join(results_dir, f"{name}{suffix}.horizon.jsonl")
        match = match if os.path.isfile(match) else None
        horizon = horizon if os.path.isfile(horizon) else None
        if match or horizon:
            drives.append((name, os.path.join(truth_dir, file_name), match, horizon))
    if not drives:
        raise EvaluationError(f"no <name>{suffix}.match.csv or <name>{suffix}.horizon.jsonl in {results_dir} "
                              f"for the drives of {truth_dir}")
    return drives


def main(argv=None):
    """Command line entry; returns the exit code (0 scored, 2 bad input)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--truth", help="one drive's clean truth CSV")
    parser.add_argument("--match", help="`adasis match` CSV output for that drive")
    parser.add_argument("--horizon", help="`adasis horizon` JSON Lines output for that drive")
    parser.add_argument("--name", help="drive name in the table (default: the truth file's name)")
    parser.add_argument("--truth-dir", help="directory of truth CSVs (Data/drives)")
    parser.add_argument("--results-dir", help="directory of <name><suffix>.match.csv / .horizon.jsonl files")
    parser.add_argument("--suffix", default="", help="result file name suffix after the drive name, e.g. -noisy")
    parser.add_argument("--json", action="store_true", help="print JSON instead of markdown")
    parser.add_argument("--list-misses", action="store_true",
                        help="instead of the table, list every fix whose tree misses samples of the true next "
                             "500 m, and per drive the ways missed at the most fixes (diagnosis)")
    args = parser.parse_args(argv)
    try:
        if args.truth and not args.truth_dir:
            if not args.match and not args.horizon:
                raise EvaluationError("nothing to score: pass --match and/or --horizon with --truth")
            name = args.name or os.path.splitext(os.path.basename(args.truth))[0]
            drives = [(name, args.truth, args.match, args.horizon)]
        elif args.truth_dir and args.results_dir and not args.truth:
            drives = drives_in(args.truth_dir, args.results_dir, args.suffix)
        else:
            raise EvaluationError("pass either --truth with --match/--horizon, or --truth-dir with --results-dir")
        if args.list_misses:
            listing = [line for name, truth, _, horizon in drives if horizon for line in
                       miss_listing(name, truth, horizon)]
            if not listing:
                raise EvaluationError("--list-misses needs horizon outputs (--horizon, or <name>.horizon.jsonl)")
            print("\n".join(listing))
            return 0
        results = [evaluate_drive(*drive) for drive in drives]
    except EvaluationError as error:
        print(f"evaluate_drives: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(dict(drives=results, total=total(results)), indent=1))
    else:
        print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
