#!/usr/bin/env python3
"""Scores map matching strictly and with a tolerance at junction nodes (the ground-truth drives, Data/drives).

Strict way correct is Tools/evaluate_drives.py's: the matched way is the fix's true_way_id. The tolerant
figure also counts a wrong fix as correct when both hold:
  - the matcher is one way behind or ahead on the drive's own path, not on another road: the matched way is
    the true way of a truth fix at most NEIGHBOURS fixes before or after this one;
  - the fix is at the node where the two ways meet: the matched way and the true way end at a common node
    (equal end coordinates in the map's GeoJSON, `adasis map export-geojson`) at most TOLERANCE_M metres from
    the clean truth point.
What the tolerant figure means: it separates a matched position a metre or two along the road from the truth,
at a node (the matcher's along-track error; the car runs 1.6 m beside the OSM line, so within a couple of metres
of a node the ways meeting there are about equally near), from a wrong road. It is not a correction of the truth
labels: on the clean traces the label changes within 1 m of the OSM node at 818 of the 828 fixes either side of a
change of way (--check-labels; README, fidelity), so the strict figure is the one goals are set on. 3 m (the default) is the lane
offset plus about one metre along the road.

Usage:
  Tools/evaluate_junction_tolerance.py --truth-dir Data/drives --results-dir DIR --suffix=-noisy \\
      --geojson helsinki.geojson [--geojson suburb.geojson] [--tolerance 3] [--check-labels] [--at-node 1]
Reads <results-dir>/<name><suffix>.match.csv for every drive <name>.csv of --truth-dir (as evaluate_drives.py);
several GeoJSON files may be given (the drives of the synthetic suburb run on their own map). Prints a markdown
table: per drive and in total, fixes, strict and tolerant way correct, and the fixes forgiven. --at-node M also
says per drive how many fixes lie within M m along the road of a node where the truth changes way, and how many
of the wrong fixes are among them: how much of a drive's strict figure is decided by decimetres at its nodes.
"""
import bisect
import collections
import csv
import math
import sys

import evaluate_drives as ev

NEIGHBOURS = 3
TOLERANCE_M = 3.0


def way_ends(geojson_paths):
    """{way id: set of (lat, lon) of its links' end nodes} of the GeoJSON files (rounded to 7 decimals)."""
    ends = collections.defaultdict(set)
    for path in geojson_paths:
        for feature in ev.geojson_features(path):
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


def along_from_node(lat, lon, heading, nodes):
    """Metres along `heading` (degrees) from the nearest of `nodes` ((lat, lon) pairs) to (lat, lon): positive
    past it, negative before it."""
    node = min(nodes, key=lambda n: ev.distance_m(lat, lon, n[0], n[1]))
    east = math.radians(lon - node[1]) * ev.EARTH_RADIUS_M * math.cos(math.radians(lat))
    north = math.radians(lat - node[0]) * ev.EARTH_RADIUS_M
    return east * math.sin(math.radians(heading)) + north * math.cos(math.radians(heading))


def label_changes(rows, ends, slack=1.0):
    """Where the truth's label changes way, relative to the OSM node the two ways share: rows are a clean
    drive's (lat, lon, heading degrees, way) in order. Returns (fixes within `slack` m of the right side of
    the node, fixes still labelled with the previous way more than `slack` m past it, fixes labelled with the
    next way more than `slack` m before it, changes between ways that share no node)."""
    at_node = late = early = unshared = 0
    for (lat0, lon0, heading0, way0), (lat1, lon1, heading1, way1) in zip(rows, rows[1:]):
        if way0 == way1:
            continue
        shared = ends.get(way0, set()) & ends.get(way1, set())
        if not shared:
            unshared += 1
            continue
        for lat, lon, heading, before in ((lat0, lon0, heading0, True), (lat1, lon1, heading1, False)):
            along = along_from_node(lat, lon, heading, shared)
            if before and along > slack:
                late += 1
            elif not before and along < -slack:
                early += 1
            else:
                at_node += 1
    return at_node, late, early, unshared


def fixes_at_node(rows, ends, within):
    """The indices of the fixes of a clean drive that lie within `within` metres along the road (by the fix's
    heading) of the OSM node where the truth changes way, the change before them or after: rows as
    label_changes takes. At such a fix the car is about as near to either way (it runs 1.6 m beside the OSM
    line), so which way the label names is decided by decimetres along the road, and a matcher whose error
    along the road is a metre or more gets many of them wrong whatever it does."""
    changes = [k for k in range(1, len(rows)) if rows[k][3] != rows[k - 1][3]]
    found = []
    for index, (lat, lon, heading, way) in enumerate(rows):
        # The way before the last change up to this fix, and the way after the next change.
        position = bisect.bisect_right(changes, index)
        neighbours = [rows[changes[position - 1] - 1][3]] if position > 0 else []
        neighbours += [rows[changes[position]][3]] if position < len(changes) else []
        for other in neighbours:
            shared = ends.get(way, set()) & ends.get(other, set())
            if shared and abs(along_from_node(lat, lon, heading, shared)) <= within:
                found.append(index)
                break
    return found


def at_node_summary(rows, within):
    """One sentence of (name, fixes at a node, of them wrong, fixes, wrong fixes) rows: per drive and for all,
    how many fixes lie within `within` m of a node where the truth changes way, and how many of the wrong
    fixes are among them."""
    def part(name, count, wrong_there, fixes, wrong):
        return f"{name} {count} of {fixes} ({100 * count / fixes:.1f} %), {wrong_there} of its {wrong} wrong"
    total = ("all drives", *(sum(r[k] for r in rows) for k in range(1, 5)))
    return (f"Fixes within {within:g} m along the road of a node where the truth changes way, and the wrong "
            f"fixes among them: " + "; ".join(part(*r) for r in rows + [total]) + ".")


def read_headed_truth(path):
    """(lat, lon, heading, way) rows of a clean truth CSV (after ev.read_truth has validated it)."""
    with ev.open_text(path, "truth") as handle:
        try:
            return [(float(r["lat"]), float(r["lon"]), float(r["heading_deg"]), int(r["true_way_id"]))
                    for r in csv.DictReader(handle)]
        except (KeyError, TypeError, ValueError):
            raise ev.EvaluationError(f"truth file {path}: needs numeric lat, lon, heading_deg, true_way_id") from None


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
    parser = ev.match_scoring_parser(__doc__)
    parser.add_argument("--tolerance", type=float, default=TOLERANCE_M,
                        help=f"metres from the truth point to the shared node (default {TOLERANCE_M:g})")
    parser.add_argument("--check-labels", action="store_true",
                        help="also check where the truth's label changes way against the OSM node (clean traces)")
    parser.add_argument("--at-node", type=float, metavar="M",
                        help="also count per drive the clean truth's fixes within M m along the road of the node "
                             "where the truth changes way, and the wrong fixes among them (fixes_at_node)")
    args = parser.parse_args(argv)
    try:
        for option, value in (("--tolerance", args.tolerance), ("--at-node", args.at_node)):
            if value is not None and not (math.isfinite(value) and value >= 0):
                raise ev.EvaluationError(f"{option} {value} is not a distance ≥ 0 m")
        ends = way_ends(args.geojson)
        rows, labels, at_node = [], [0, 0, 0, 0], []
        for name, truth_path, match_path, _ in ev.drives_in(args.truth_dir, args.results_dir, args.suffix):
            if match_path is None:
                continue
            truth, matches = ev.read_truth(truth_path), ev.read_match(match_path)
            headed = read_headed_truth(truth_path) if args.check_labels or args.at_node is not None else None
            if args.check_labels:
                labels = [a + b for a, b in zip(labels, label_changes(headed, ends))]
            if args.at_node is not None:
                wrong = {k for k, fix in enumerate(truth) if matches.get(fix[0]) != fix[3]}
                there = fixes_at_node(headed, ends, args.at_node)
                at_node.append((name, len(there), len(wrong.intersection(there)), len(truth), len(wrong)))
            rows.append((name, *score_drive(truth, matches, ends, args.tolerance)))
        if not rows:
            raise ev.EvaluationError(f"no <name>{args.suffix}.match.csv in {args.results_dir}")
    except ev.EvaluationError as error:
        print(f"evaluate_junction_tolerance: {error}", file=sys.stderr)
        return 2
    print(markdown(rows, args.tolerance))
    if args.check_labels:
        print(f"\nTruth labels at a change of way (fixes either side): {labels[0]} within 1 m of the shared OSM node, "
              f"{labels[1]} keep the previous way more than 1 m past it, {labels[2]} take the next way more than "
              f"1 m before it; {labels[3]} changes between ways sharing no node.")
    if args.at_node is not None:
        print("\n" + at_node_summary(at_node, args.at_node))
    return 0


if __name__ == "__main__":
    sys.exit(main())
