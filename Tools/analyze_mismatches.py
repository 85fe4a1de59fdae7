#!/usr/bin/env python3
"""Lists and classifies the fixes `adasis match` put on the wrong way (diagnosis, not a score).

Needs the map as GeoJSON (`adasis map export-geojson MAP -o map.geojson`), the truth drives and the
match output of Tools/evaluate (.build/evaluation/<product|baseline>/<name><suffix>.match.csv).

Classes of a mismatched fix (first that applies):
  truth-artefact  the matched way is the true way of no fix of any drive, and the clean truth point lies
                  as near (within 1 m) to it as to the labelled way: a way the car drives through that the
                  truth never names (Tools/make-drives.py keeps only the first OSM id of a SUMO edge
                  that netconvert built from several ways)
  wrong-direction matched driving direction more than 120 degrees off the true heading
  lag             the matched way is the true way of one of the 10 fixes before (matcher behind)
  early           the matched way is the true way of one of the 10 fixes after (matcher ahead)
  other           a parallel road, a crossing road or a service road
Each class is split by whether the clean truth point is within 1 m as near to the matched way as to the
true way (a tie at a junction node: which way a point on the node belongs to is a convention).

Usage:
  Tools/analyze_mismatches.py --geojson map.geojson [--geojson suburb.geojson] --results-dir .build/evaluation/product \
      --suffix=-noisy [--list]
"""
import argparse
import collections
import csv
import json
import math
import os

EARTH_RADIUS_M = 6371008.8


def plane(lat, lon):
    """Metres east/north on a plane tangent near Helsinki (good to centimetres across the clip)."""
    return (math.radians(lon) * EARTH_RADIUS_M * math.cos(math.radians(60.17)), math.radians(lat) * EARTH_RADIUS_M)


def segment_distance(p, a, b):
    """Distance from point p to segment ab."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def read_links(paths):
    """{link id: (way id, points)} and {way id: [points lists]} of the GeoJSON files (the maps the drives ran
    on: their way ids do not overlap, the sample's OSM ids and the synthetic suburb's small ones)."""
    features = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            features += json.load(handle)["features"]
    links, ways = {}, collections.defaultdict(list)
    for feature in features:
        if feature["geometry"]["type"] != "LineString":
            continue
        points = [plane(lat, lon) for lon, lat in feature["geometry"]["coordinates"]]
        links[feature["properties"]["link_id"]] = (feature["properties"]["way_id"], points)
        ways[feature["properties"]["way_id"]].append(points)
    return links, ways


def distance_to_way(p, shapes):
    """Distance from p to the nearest segment of any link of a way (infinite for an unknown way)."""
    return min((segment_distance(p, a, b) for points in shapes for a, b in zip(points, points[1:])), default=math.inf)


def bearing_at(p, points):
    """Bearing (degrees from north) of the segment of points nearest to p."""
    a, b = min(zip(points, points[1:]), key=lambda ab: segment_distance(p, *ab))
    return math.degrees(math.atan2(b[0] - a[0], b[1] - a[1])) % 360


def angle_between(a, b):
    """Absolute difference of two bearings, 0-180."""
    return abs((a - b + 180) % 360 - 180)


def classify(truth_dir, results_dir, suffix, links, ways):
    """(class counter, listing lines, fixes) over all drives of truth_dir."""
    names = sorted(f[:-4] for f in os.listdir(truth_dir) if f.endswith(".csv") and not f.endswith("-noisy.csv"))
    truths = {name: list(csv.DictReader(open(os.path.join(truth_dir, name + ".csv"), encoding="utf-8"))) for name in names}
    true_ways = {int(row["true_way_id"]) for rows in truths.values() for row in rows}
    counts, listing, fixes = collections.Counter(), [], 0
    for name in names:
        path = os.path.join(results_dir, f"{name}{suffix}.match.csv")
        if not os.path.isfile(path):
            continue
        matches = {round(float(r["time_s"]) * 10): r for r in csv.DictReader(open(path, encoding="utf-8"))}
        rows = truths[name]
        labels = [int(row["true_way_id"]) for row in rows]
        for i, row in enumerate(rows):
            fixes += 1
            match = matches.get(round(float(row["time_s"]) * 10))
            matched = int(match["way_id"]) if match and match["way_id"] else None
            if matched == labels[i]:
                continue
            p = plane(float(row["lat"]), float(row["lon"]))
            to_true, to_matched = distance_to_way(p, ways[labels[i]]), distance_to_way(p, ways.get(matched, []))
            tie = to_matched <= to_true + 1
            kind = "other"
            link = links.get(int(match["link_id"][1:-1])) if match and match["link_id"] else None
            if matched not in true_ways and tie:
                kind = "truth-artefact"
            elif link and angle_between(float(row["heading_deg"]),
                                        (bearing_at(p, link[1]) + (180 if match["link_id"].endswith("-") else 0)) % 360) > 120:
                kind = "wrong-direction"
            elif matched in labels[max(0, i - 10):i]:
                kind = "lag"
            elif matched in labels[i + 1:i + 11]:
                kind = "early"
            counts[(kind, "tie" if tie else "true way nearer")] += 1
            listing.append(f"{name} t={row['time_s']} {kind} true {labels[i]} matched {matched} "
                           f"speed {row['speed_mps']} m/s, truth point {to_true:.1f} m from true way, "
                           f"{to_matched:.1f} m from matched way")
    return counts, listing, fixes


def main(argv=None):
    """Command line entry; prints the class counts (and the fixes with --list)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--geojson", required=True, action="append",
                        help="`adasis map export-geojson` output of a map the drives ran on; repeat it for each "
                             "map (a drive on a map not given has no geometry: its fixes all count as ties)")
    parser.add_argument("--truth-dir", default="Data/drives")
    parser.add_argument("--results-dir", required=True)
    parser.add_argument("--suffix", default="")
    parser.add_argument("--list", action="store_true", help="print every mismatched fix")
    args = parser.parse_args(argv)
    links, ways = read_links(args.geojson)
    counts, listing, fixes = classify(args.truth_dir, args.results_dir, args.suffix, links, ways)
    if args.list:
        print("\n".join(listing))
    wrong = sum(counts.values())
    artefacts = sum(v for (kind, _), v in counts.items() if kind == "truth-artefact")
    for (kind, tie), value in sorted(counts.items()):
        print(f"{kind:16} {tie:16} {value}")
    ties = sum(v for (_, tie), v in counts.items() if tie == "tie")
    print(f"fixes {fixes}, wrong way {wrong} ({100 * (fixes - wrong) / fixes:.1f} % correct), "
          f"{100 * (fixes - wrong + artefacts) / fixes:.1f} % correct without truth artefacts, "
          f"{100 * (fixes - wrong + ties) / fixes:.1f} % correct when junction ties are forgiven "
          f"(matched way within 1 m as near to the true position as the labelled way)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
