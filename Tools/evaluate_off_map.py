#!/usr/bin/env python3
"""Off-road detection when the vehicle drives where the map has no road: each drive's longest stretch
on one way is taken out of the map, and `adasis match` runs the drive on that map.

The drives (Data/drives/) stay on OSM roads, so on the full map every fix declared off road is a false
positive (Tools/evaluate_drives.py's "off road"). What a false-positive rate of zero is worth depends
on what the detector does when the vehicle really is off the map: a road built after the extract, a
car park, a private road the extract lacks. This tool makes that happen on the same drives.

The way taken out of each drive: the way of its longest run of consecutive fixes (one OSM way),
leaving out runs that start within the first or end within the last SKIP_FIXES fixes (the first fixes
set the matcher up; the last leave no time to come back). Ways are taken out of the map the drive
runs on (`map` in drives.json: the Helsinki sample or the synthetic suburb); all drives on one map
share one reduced map, so a fix is *off the map* when its true way is any of that map's removed ways.

Scores per drive (`adasis match` on the noisy trace, or the clean one with --suffix ""):
  off-map fixes   fixes whose true way was taken out;
  declared off road
                  the share of them the matcher declared off road (state off_road): the detection;
  on another road the share matched to a road of the map: the horizon then describes a road the vehicle
                  is not on;
  first detection seconds from the first off-map fix of a run to its first off-road fix (– if none);
  back on road    seconds from the first fix back on a mapped way after a run to the first fix matched to
                  its true way (– if never within the drive);
  nearest road    median distance, metres, from the off-map fixes' true positions (the clean trace) to the
                  nearest road left on the map: how far a detector has to tell the roads from the vehicle;
  false off road  the share of the other fixes (on mapped ways) declared off road.

Usage:
  Tools/evaluate_off_map.py --adasis .build/release/adasis --work DIR [--suffix -noisy] [--json]
"""
import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys

import evaluate_drives as ev

SKIP_FIXES = 20
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# The point-to-polyline distance of the truth labels (Tools/make-drives.py), reused.
_spec = importlib.util.spec_from_file_location("make_drives", os.path.join(HERE, "make-drives.py"))
MAKE_DRIVES = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(MAKE_DRIVES)


def longest_run_way(truth, skip=SKIP_FIXES):
    """The way of the drive's longest run of consecutive fixes on one way (`truth` as
    evaluate_drives.read_truth gives it), among the runs that start at fix `skip` or later and end
    `skip` fixes or more before the last; None if there is none."""
    runs = []
    for index, (_, _, _, way) in enumerate(truth):
        if runs and runs[-1][0] == way:
            runs[-1][2] = index
        else:
            runs.append([way, index, index])
    eligible = [r for r in runs if r[1] >= skip and r[2] < len(truth) - skip]
    if not eligible:
        return None
    way, first, last = max(eligible, key=lambda r: (r[2] - r[1], -r[1]))
    return way


def score(truth, states, ways, removed, nearest=None):
    """The scores of one drive (module docstring). `truth` as evaluate_drives.read_truth gives it,
    `states` and `ways` the match output as its read_states and read_match give it (by time key);
    `removed` is the set of way ids taken out of its map; `nearest(lat, lon)` gives the distance to the
    nearest road left (None: not reported)."""
    off_map = [fix for fix in truth if fix[3] in removed]
    on_map = [fix for fix in truth if fix[3] not in removed]
    state = lambda fix: states.get(fix[0], "missing")
    declared = sum(1 for fix in off_map if state(fix) == "off_road")
    elsewhere = sum(1 for fix in off_map if state(fix) == "on_road")
    false_off = sum(1 for fix in on_map if state(fix) == "off_road")
    seconds_between = lambda earlier, later: (later[0] - earlier[0]) / 10  # time keys are tenths
    detections, recoveries = [], []
    index = 0
    while index < len(truth):
        if truth[index][3] not in removed:
            index += 1
            continue
        start = index
        while index < len(truth) and truth[index][3] in removed:
            index += 1
        run = truth[start:index]
        first_off = next((fix for fix in run if state(fix) == "off_road"), None)
        detections.append(None if first_off is None else seconds_between(run[0], first_off))
        if index < len(truth):
            right = next((fix for fix in truth[index:] if state(fix) == "on_road" and ways.get(fix[0]) == fix[3]),
                         None)
            recoveries.append(None if right is None else seconds_between(truth[index], right))
    distances = [nearest(lat, lon) for _, lat, lon, _ in off_map] if nearest else []
    return dict(
        off_map=len(off_map), declared=declared, elsewhere=elsewhere, detections=detections,
        recoveries=recoveries, nearest_m=statistics.median(distances) if distances else None,
        on_map=len(on_map), false_off=false_off)


def write_reduced_pbf(source, target, removed):
    """Copies the OSM file `source` to `target` without the ways in `removed` (way ids)."""
    import osmium

    class Copy(osmium.SimpleHandler):
        def __init__(self, writer):
            super().__init__()
            self.writer = writer

        def node(self, node):
            self.writer.add_node(node)

        def way(self, way):
            if way.id not in removed:
                self.writer.add_way(way)

        def relation(self, relation):
            self.writer.add_relation(relation)

    if os.path.exists(target):
        os.remove(target)
    writer = osmium.SimpleWriter(target)
    try:
        Copy(writer).apply_file(source)
    finally:
        writer.close()


class RoadIndex:
    """The roads of an `adasis map export-geojson` file, for the distance from a point to the nearest."""

    def __init__(self, geojson_path):
        # As make-drives.py's distance_to_polyline_m takes them: (lat, lon) points.
        self.lines = [[(lat, lon) for lon, lat in f["geometry"]["coordinates"]]
                      for f in ev.geojson_features(geojson_path) if f["geometry"]["type"] == "LineString"]

    def nearest(self, lat, lon):
        return min(MAKE_DRIVES.distance_to_polyline_m(lat, lon, line) for line in self.lines)


def seconds(values):
    """A list of delays as text: each in seconds, – where there was none."""
    return ", ".join("–" if v is None else f"{v:.0f}" for v in values) or "–"


def share(part, whole):
    """part / whole as evaluate_drives prints a share ('–' for no whole)."""
    return ev.percent(part / whole if whole else None)


def evaluate(args):
    """The scores of every drive of args.truth_dir, by drive name (reduced maps and match output in args.work)."""
    os.makedirs(args.work, exist_ok=True)
    with ev.open_text(os.path.join(args.truth_dir, "drives.json"), "drives list") as source:
        drives = json.load(source)["drives"]
    by_map = {}
    for drive in drives:
        truth = ev.read_truth(os.path.join(args.truth_dir, drive["name"] + ".csv"))
        way = longest_run_way(truth)
        if way is None:
            continue
        pbf = drive.get("map", "Data/helsinki.osm.pbf")
        by_map.setdefault(pbf, []).append((drive["name"], truth, way))
    results = {}
    for pbf, entries in sorted(by_map.items()):
        removed = {way for _, _, way in entries}
        stem = os.path.splitext(os.path.splitext(os.path.basename(pbf))[0])[0]
        reduced = os.path.join(args.work, f"{stem}-off-map.osm.pbf")
        map_path = os.path.join(args.work, f"{stem}-off-map.map")
        geojson = os.path.join(args.work, f"{stem}-off-map.geojson")
        write_reduced_pbf(os.path.join(ROOT, pbf), reduced, removed)
        subprocess.run([args.adasis, "map", "import", reduced, "-o", map_path, "--country", "FI"],
                       check=True, stdout=subprocess.DEVNULL)
        subprocess.run([args.adasis, "map", "export-geojson", map_path, "-o", geojson], check=True,
                       stdout=subprocess.DEVNULL)
        roads = RoadIndex(geojson)
        for name, truth, way in entries:
            trace = os.path.join(args.truth_dir, name + args.suffix + ".csv")
            output = os.path.join(args.work, name + args.suffix + ".match.csv")
            with open(output, "w") as out:
                subprocess.run([args.adasis, "match", "--map", map_path, trace], check=True, stdout=out)
            results[name] = dict(removed_way=way, **score(
                truth, ev.read_states(output), ev.read_match(output), removed, roads.nearest))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--adasis", required=True, help="the adasis executable")
    parser.add_argument("--work", required=True, help="a directory for the reduced maps and the match output")
    parser.add_argument("--truth-dir", default=os.path.join(ROOT, "Data", "drives"))
    parser.add_argument("--suffix", default="-noisy", help="trace suffix to match (default -noisy; \"\" for clean)")
    parser.add_argument("--json", action="store_true", help="print the scores as JSON")
    args = parser.parse_args()
    try:
        results = evaluate(args)
    except ev.EvaluationError as error:
        print(f"evaluate_off_map: {error}", file=sys.stderr)
        return 2
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        print()
        return 0
    print("| drive | way taken out | off-map fixes | nearest road | declared off road | on another road "
          "| first detection (s) | back on road (s) | false off road |")
    print("|---|---|---|---|---|---|---|---|---|")
    totals = dict(off_map=0, declared=0, elsewhere=0, on_map=0, false_off=0)
    for name, r in results.items():
        for key in totals:
            totals[key] += r[key]
        print(f"| {name} | {r['removed_way']} | {r['off_map']} | {r['nearest_m']:.0f} m | "
              f"{share(r['declared'], r['off_map'])} | {share(r['elsewhere'], r['off_map'])} | "
              f"{seconds(r['detections'])} | {seconds(r['recoveries'])} | {share(r['false_off'], r['on_map'])} |")
    print(f"| **total** | | {totals['off_map']} | | {share(totals['declared'], totals['off_map'])} | "
          f"{share(totals['elsewhere'], totals['off_map'])} | | | {share(totals['false_off'], totals['on_map'])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
