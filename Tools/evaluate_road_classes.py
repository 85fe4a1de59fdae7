#!/usr/bin/env python3
"""Scores map matching by road class: way correct over the fixes whose true way is of each OSM highway class.

The design sets two matching goals: >= 95 % of the fixes of noisy city traces, >= 99 % on highways. A drive's
figure mixes classes (the motorway drive also drives its ramps, a primary road and a secondary street), so this
splits every drive's fixes by the class of the way the car was truly on, from the map's GeoJSON
(`adasis map export-geojson`, the `highway` of the links of that way), and scores each class over all drives:
  - one row per class, in the map's naming (motorway, motorwayLink, trunk, primary, ..., service);
  - "highways": motorway and trunk; "highways and their ramps": with motorwayLink and trunkLink.
A true way no GeoJSON holds counts under "not in the map" (a drive run on a map not given).

Usage:
  Tools/evaluate_road_classes.py --truth-dir Data/drives --results-dir DIR --suffix=-noisy \\
      --geojson helsinki.geojson [--geojson suburb.geojson]
Reads <results-dir>/<name><suffix>.match.csv for every drive <name>.csv of --truth-dir (as evaluate_drives.py).
Prints a markdown table: class, fixes, way correct, and the drives with fixes of that class.
"""
import collections
import os
import sys

import evaluate_drives as ev

HIGHWAYS = ("motorway", "trunk")
RAMPS = ("motorwayLink", "trunkLink")
NOT_IN_MAP = "not in the map"


def way_classes(geojson_paths):
    """{way id: highway class} of the GeoJSON files (`adasis map export-geojson` output)."""
    classes = {}
    for path in geojson_paths:
        for feature in ev.geojson_features(path):
            properties = feature.get("properties") or {}
            if "way_id" in properties and properties.get("highway"):
                classes[properties["way_id"]] = properties["highway"]
    if not classes:
        raise ev.EvaluationError(f"GeoJSON file(s) {', '.join(geojson_paths)}: no link with a way_id and a "
                                 "highway class; make them with adasis map export-geojson MAP -o FILE")
    return classes


def score_by_class(drives, classes):
    """{class: [correct, fixes, set of drive names]} over drives: (name, truth, matches) with truth from
    ev.read_truth and matches from ev.read_match."""
    scores = collections.defaultdict(lambda: [0, 0, set()])
    for name, truth, matches in drives:
        for key, _, _, way in truth:
            score = scores[classes.get(way, NOT_IN_MAP)]
            score[0] += matches.get(key) == way
            score[1] += 1
            score[2].add(name)
    return scores


def combined(scores, members):
    """[correct, fixes, drives] of the classes `members` together."""
    parts = [scores[member] for member in members if member in scores]
    return [sum(p[0] for p in parts), sum(p[1] for p in parts), set().union(*(p[2] for p in parts))]


def markdown(scores):
    """The table: a row per class, most fixes first, then the highway rows when there are highway fixes."""
    lines = ["| road class | fixes | way correct | drives |", "|---|---|---|---|"]

    def row(label, correct, fixes, names):
        lines.append(f"| {label} | {fixes} | {ev.percent(correct / fixes)} | {', '.join(sorted(names))} |")

    for label, (correct, fixes, names) in sorted(scores.items(), key=lambda item: (-item[1][1], item[0])):
        row(label, correct, fixes, names)
    highways = combined(scores, HIGHWAYS)
    if highways[1]:
        row("**highways** (" + ", ".join(HIGHWAYS) + ")", *highways)
    with_ramps = combined(scores, HIGHWAYS + RAMPS)
    if with_ramps[1] > highways[1]:
        row("**highways and their ramps**", *with_ramps)
    return "\n".join(lines)


def main(argv=None):
    """Command line entry; returns the exit code (0 scored, 2 bad input)."""
    parser = ev.match_scoring_parser(__doc__)
    args = parser.parse_args(argv)
    try:
        classes = way_classes(args.geojson)
        drives = [(name, ev.read_truth(truth), ev.read_match(match))
                  for name, truth, match, _ in ev.drives_in(args.truth_dir, args.results_dir, args.suffix) if match]
        if not drives:
            raise ev.EvaluationError(f"no <name>{args.suffix}.match.csv in {args.results_dir}")
    except ev.EvaluationError as error:
        print(f"evaluate_road_classes: {error}", file=sys.stderr)
        return 2
    print(markdown(score_by_class(drives, classes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
