#!/usr/bin/env python3
"""Scores map matching strictly and with a tolerance at junction nodes (the ground-truth drives, Data/drives).

Strict way correct is Tools/evaluate_drives.py's: the matched way is the fix's true_way_id. The tolerant
figure also counts a wrong fix as correct when both hold:
  - the matcher is one way behind or ahead on the drive's own path, not on another road: the matched way is
    the true way of a truth fix at most NEIGHBOURS fixes before or after this one;
  - the fix is at the node where the two ways meet: the matched way and the true way end at a common node
    (equal end coordinates in the map's GeoJSON, `adasis map export-geojson`) at most TOLERANCE_M metres from
    the clean truth point.
Why a tolerance at the node is legitimate: the truth labels a fix with the nearer of the ways SUMO reports
around it (Data/drives/README.md), and the car runs 1.6 m beside the OSM line (its lane's centre). Within a
couple of metres of a node the two ways meeting there are equally near, so the label is a convention, and
SUMO's own edge boundaries (lanes cut back at junctions) do not sit on the OSM nodes. A matched position a few
metres along the road from the truth is then one way off at the node. 3 m (the default) is the lane offset plus
about one metre along the road; the strict figure stays the one the goals are set on.

Usage:
  Tools/evaluate_junction_tolerance.py --truth-dir Data/drives --results-dir DIR --suffix=-noisy \\
      --geojson helsinki.geojson [--geojson suburb.geojson] [--tolerance 3]
Reads <results-dir>/<name><suffix>.match.csv for every drive <name>.csv of --truth-dir (as evaluate_drives.py);
several GeoJSON files may be given (the drives of the synthetic suburb run on their own map). Prints a markdown
table: per drive and in total, fixes, strict and tolerant way correct, and the fixes forgiven.
"""
import argparse
import collections
import json
import math
import sys

import evaluate_drives as ev

NEIGHBOURS = 3
TOLERANCE_M = 3.0


def way_ends(geojson_paths):
    """{way id: set of (lat, lon) of its links' end nodes} of the GeoJSON files (rounded to 7 decimals)."""
    ends = collections.defaultdict(set)
    for path in geojson_paths:
        try:
            with open(path, encoding="utf-8") as handle:
                features = json.load(handle)["features"]
        except OSError as error:
            raise ev.EvaluationError(f"GeoJSON file {path}: {error.strerror}; "
                                     "make it with adasis map export-geojson MAP -o FILE") from None
        except (ValueError, KeyError, TypeError):
            raise ev.EvaluationError(f"GeoJSON file {path}: not a FeatureCollection; "
                                     "make it with adasis map export-geojson MAP -o FILE") from None
        for feature in features:
            geometry = feature.get("geometry") or {}
            if geometry.get("type") != "LineString" or len(geometry.get("coordinates") or []) < 2:
                continue
            way = feature.get("properties", {}).get("way_id")
            for lon, lat in (geometry["coordinates"][0], geometry["coordinates"][-1]):
                ends[way].add((round(lat, 7), round(lon, 7)))
    return ends


def junction_distance(ends, matched, true, lat, lon):
    """Metres from (lat, lon) to the nearest node both ways end at, or None when they share none."""
    shared = ends.get(matched, set()) & ends.get(true, set())
    return min((ev.distance_m(lat, lon, node_lat, node_lon) for node_lat, node_lon in shared), default=None)


def score_drive(truth, matches, ends, tolerance):
    """(strictly correct, forgiven, fixes) of one drive: truth from ev.read_truth, matches from ev.read_match."""
    correct = forgiven = 0
    for index, (key, lat, lon, true) in enumerate(truth):
        matched = matches.get(key)
        if matched == true:
            correct += 1
            continue
        if matched is None:
            continue
        nearby = {fix[3] for fix in truth[max(0, index - NEIGHBOURS):index + NEIGHBOURS + 1]}
        distance = junction_distance(ends, matched, true, lat, lon) if matched in nearby else None
        if distance is not None and distance <= tolerance:
            forgiven += 1
    return correct, forgiven, len(truth)


def markdown(rows, tolerance):
    """The table: (name, correct, forgiven, fixes) rows and their total."""
    tol = f"{tolerance:g}"
    lines = [f"| drive | fixes | way correct (strict) | way correct (junction ±{tol} m) | forgiven |",
             "|---|---|---|---|---|"]
    totals = ("**total**", sum(r[1] for r in rows), sum(r[2] for r in rows), sum(r[3] for r in rows))
    for name, correct, forgiven, fixes in rows + [totals]:
        lines.append(f"| {name} | {fixes} | {ev.percent(correct / fixes)} | "
                     f"{ev.percent((correct + forgiven) / fixes)} | {forgiven} |")
    return "\n".join(lines)


def main(argv=None):
    """Command line entry; returns the exit code (0 scored, 2 bad input)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--truth-dir", required=True, help="directory of truth CSVs (Data/drives)")
    parser.add_argument("--results-dir", required=True, help="directory of <name><suffix>.match.csv files")
    parser.add_argument("--suffix", default="", help="result file name suffix after the drive name, e.g. -noisy")
    parser.add_argument("--geojson", action="append", required=True, help="the map as GeoJSON (repeatable)")
    parser.add_argument("--tolerance", type=float, default=TOLERANCE_M,
                        help=f"metres from the truth point to the shared node (default {TOLERANCE_M:g})")
    args = parser.parse_args(argv)
    try:
        if not (math.isfinite(args.tolerance) and args.tolerance >= 0):
            raise ev.EvaluationError(f"--tolerance {args.tolerance} is not a distance ≥ 0 m")
        ends = way_ends(args.geojson)
        rows = []
        for name, truth_path, match_path, _ in ev.drives_in(args.truth_dir, args.results_dir, args.suffix):
            if match_path is None:
                continue
            rows.append((name, *score_drive(ev.read_truth(truth_path), ev.read_match(match_path), ends,
                                            args.tolerance)))
        if not rows:
            raise ev.EvaluationError(f"no <name>{args.suffix}.match.csv in {args.results_dir}")
    except ev.EvaluationError as error:
        print(f"evaluate_junction_tolerance: {error}", file=sys.stderr)
        return 2
    print(markdown(rows, args.tolerance))
    return 0


if __name__ == "__main__":
    sys.exit(main())
