#!/usr/bin/env python3
"""Routes the pairs `adasis-bench route --output` wrote through Valhalla and compares (Tools/bench-route).

    python3 Tools/route_compare.py --pbf Data/helsinki.osm.pbf --tiles DIR --routes ROUTES.json [--csv OUT.csv]

Valhalla (PyPI `pyvalhalla-weekly`): tiles are built from the same extract into DIR (kept there
and reused while the extract and the Valhalla version are unchanged; no admin or time-zone
databases). Each pair goes through `valhalla.Actor.route` — the code behind Valhalla's `/route`
HTTP API — with costing `auto`, and the route's shape is decoded from its polyline6. Timing as in
`adasis-bench route`: one untimed pass over all pairs (results, warm tiles), then the same number
of timed passes over all pairs in the same order; a query is the `Actor.route` call with the
request as JSON text (Valhalla parses it and serialises its answer, as behind HTTP).

Comparison over the pairs both routed:
  * query time p50/p99/max (nearest rank over every timed query, as adasis-bench computes them);
  * ETA difference (ours - Valhalla's) / Valhalla's: median and p90 of its absolute value, and its
    signed median;
  * shared length: see `shared_share`.
"""

import argparse
import csv
import hashlib
import json
import math
import os
import shutil
import sys
import time

TOLERANCE_M = 15.0  # how near Valhalla's shape a piece of our route must lie to count as shared
STEP_M = 1.0  # pieces a route is cut into to measure that (at most this long)
EARTH_RADIUS_M = 6_371_008.8  # as RoadMap's GeoPoint


# ---------------------------------------------------------------------------------------------
# Geometry

def _projector(points):
    """A local equirectangular projection (metres) around the mean latitude of `points`."""
    latitude = sum(p[0] for p in points) / len(points) if points else 0.0
    kx = math.radians(1) * EARTH_RADIUS_M * math.cos(math.radians(latitude))
    ky = math.radians(1) * EARTH_RADIUS_M
    return lambda p: (p[1] * kx, p[0] * ky)


def _point_segment_distance(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    qx, qy = ax + t * dx - px, ay + t * dy - py
    return math.hypot(qx, qy)


class _SegmentGrid:
    """The segments of a polyline (in metres) in square cells of `cell` metres; a segment sits in
    every cell its bounding box, widened by `cell`, touches, so one cell holds every segment
    within `cell` metres of any point in it."""

    def __init__(self, xy, cell):
        self.cell = cell
        self.cells = {}
        self.segments = list(zip(xy, xy[1:])) if len(xy) > 1 else [(xy[0], xy[0])] if xy else []
        for index, ((ax, ay), (bx, by)) in enumerate(self.segments):
            for cx in range(math.floor((min(ax, bx) - cell) / cell), math.floor((max(ax, bx) + cell) / cell) + 1):
                for cy in range(math.floor((min(ay, by) - cell) / cell), math.floor((max(ay, by) + cell) / cell) + 1):
                    self.cells.setdefault((cx, cy), []).append(index)

    def within(self, x, y, tolerance):
        for index in self.cells.get((math.floor(x / self.cell), math.floor(y / self.cell)), ()):
            (ax, ay), (bx, by) = self.segments[index]
            if _point_segment_distance(x, y, ax, ay, bx, by) <= tolerance:
                return True
        return False


def shared_share(route, other, tolerance=TOLERANCE_M, step=STEP_M):
    """The share of `route`'s length that lies within `tolerance` metres of `other`'s shape.

    Both are polylines of (lat, lon) in degrees. `route` is cut into pieces at most `step` metres
    long (each segment into equal pieces); a piece counts as shared when its midpoint lies within
    `tolerance` metres of the nearest point of any segment of `other` (distances in a local
    equirectangular projection). The result is the counted length over `route`'s whole length,
    0…1; the direction of travel is not compared. A route of no length scores 1 when its point
    lies within `tolerance` of `other`, else 0; an empty `other` shares nothing."""
    if not route or not other:
        return 0.0
    project = _projector(list(route) + list(other))
    xy = [project(p) for p in route]
    grid = _SegmentGrid([project(p) for p in other], max(tolerance, 1e-9))
    total = shared = 0.0
    for (ax, ay), (bx, by) in zip(xy, xy[1:]):
        length = math.hypot(bx - ax, by - ay)
        if length == 0:
            continue
        pieces = max(1, math.ceil(length / step))
        for i in range(pieces):
            t = (i + 0.5) / pieces
            if grid.within(ax + t * (bx - ax), ay + t * (by - ay), tolerance):
                shared += length / pieces
        total += length
    if total == 0:
        return 1.0 if grid.within(xy[0][0], xy[0][1], tolerance) else 0.0
    return shared / total


def _distance(a, b):
    """Metres between two (lat, lon) points (local equirectangular)."""
    k = math.radians(1) * EARTH_RADIUS_M
    return math.hypot((a[0] - b[0]) * k, (a[1] - b[1]) * k * math.cos(math.radians((a[0] + b[0]) / 2)))


def percentile(values, p):
    """Nearest-rank percentile (as adasis-bench's Samples), 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = math.ceil(p / 100 * len(ordered)) - 1
    return ordered[min(max(rank, 0), len(ordered) - 1)]


# ---------------------------------------------------------------------------------------------
# Valhalla

def _file_digest(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def build_tiles(pbf, directory):
    """Valhalla tiles of `pbf` in `directory`/tiles and the configuration `directory`/valhalla.json;
    rebuilt only when the extract or the Valhalla version changed (a stamp file records both)."""
    import subprocess

    import valhalla

    stamp = {"pbf_sha256": _file_digest(pbf), "valhalla": valhalla.__version__}
    tiles = os.path.join(directory, "tiles")
    config_path = os.path.join(directory, "valhalla.json")
    stamp_path = os.path.join(directory, "stamp.json")
    try:
        with open(stamp_path) as f:
            if json.load(f) == stamp and os.path.isdir(tiles) and os.path.isfile(config_path):
                return config_path, False
    except (OSError, ValueError):
        pass
    shutil.rmtree(tiles, ignore_errors=True)
    os.makedirs(tiles)
    config = valhalla.get_config(tile_extract="", tile_dir=tiles, verbose=False)
    # No admin, time-zone, traffic or elevation data here: Valhalla's defaults apply (right-hand
    # traffic, no country access overrides, no time-dependent speeds, flat).
    with open(config_path, "w") as f:
        json.dump(config, f, indent=1)
    log_path = os.path.join(directory, "build.log")
    started = time.perf_counter()
    with open(log_path, "w") as log:
        # Run in `directory`: the builder writes duplicateways.txt into its working directory.
        result = subprocess.run([sys.executable, "-m", "valhalla", "valhalla_build_tiles", "-c",
                                 os.path.abspath(config_path), os.path.abspath(pbf)],
                                stdout=log, stderr=subprocess.STDOUT, cwd=directory)
    if result.returncode != 0:
        sys.exit(f"route_compare: valhalla_build_tiles failed ({result.returncode}); see {log_path}")
    with open(stamp_path, "w") as f:
        json.dump(stamp, f)
    print(f"built Valhalla tiles in {time.perf_counter() - started:.1f} s: {tiles} (log {log_path})", file=sys.stderr)
    return config_path, True


def valhalla_routes(config_path, pairs, repetitions):
    """Valhalla's route for each pair ({"ok", "error", "length_m", "duration_s", "shape", "query_ms"}),
    timed like adasis-bench route."""
    import valhalla
    from valhalla.utils.decode_polyline import decode_polyline

    actor = valhalla.Actor(config_path)
    requests = [json.dumps({
        "locations": [{"lat": p["from"][0], "lon": p["from"][1]}, {"lat": p["to"][0], "lon": p["to"][1]}],
        "costing": "auto", "units": "kilometers", "directions_type": "none",
    }) for p in pairs]
    results = []
    for request in requests:  # the untimed pass
        try:
            trip = json.loads(actor.route(request))["trip"]
            shape = []
            for leg in trip["legs"]:
                for point in decode_polyline(leg["shape"], precision=6, order="latlng"):
                    if not shape or shape[-1] != point:
                        shape.append(point)
            results.append({"ok": True, "length_m": trip["summary"]["length"] * 1000,
                            "duration_s": trip["summary"]["time"], "shape": shape, "query_ms": []})
        except RuntimeError as error:
            results.append({"ok": False, "error": str(error), "query_ms": []})
    for _ in range(repetitions):
        for request, result in zip(requests, results):
            if not result["ok"]:
                continue
            started = time.perf_counter()
            actor.route(request)
            result["query_ms"].append((time.perf_counter() - started) * 1000)
    return results


# ---------------------------------------------------------------------------------------------
# Comparison

def compare(ours, theirs):
    """Per-pair rows for the pairs both routed."""
    rows = []
    for pair, other in zip(ours, theirs):
        if not (pair["ok"] and other["ok"]):
            continue
        rows.append({
            "index": pair["index"],
            "from_lat": pair["from"][0], "from_lon": pair["from"][1], "to_lat": pair["to"][0], "to_lon": pair["to"][1],
            "ours_length_m": pair["length_m"], "valhalla_length_m": other["length_m"],
            "ours_duration_s": pair["duration_s"], "valhalla_duration_s": other["duration_s"],
            "eta_difference": (pair["duration_s"] - other["duration_s"]) / other["duration_s"] if other["duration_s"] > 0 else 0.0,
            # Metres from the pair's points to the ends of Valhalla's route: Valhalla moves a point
            # to another road when the nearest one reaches too little of the network (loki's
            # minimum_reachability), where we route from the nearest road or report no route.
            "valhalla_start_offset_m": _distance(pair["from"], other["shape"][0]),
            "valhalla_end_offset_m": _distance(pair["to"], other["shape"][-1]),
            "ours_shared": shared_share(pair["shape"], other["shape"]),
            "valhalla_shared": shared_share(other["shape"], pair["shape"]),
        })
    return rows


def table(document, theirs, rows, source):
    ours = document["pairs"]
    our_times = [t for p in ours for t in p["query_ms"]]
    their_times = [t for r in theirs for t in r["query_ms"]]
    ours_ok = sum(p["ok"] for p in ours)
    moved = [r for r in rows if max(r["valhalla_start_offset_m"], r["valhalla_end_offset_m"]) > TOLERANCE_M]
    moved_where_we_failed = 0
    for pair, other in zip(ours, theirs):
        if other["ok"] and not pair["ok"] and max(_distance(pair["from"], other["shape"][0]),
                                                  _distance(pair["to"], other["shape"][-1])) > TOLERANCE_M:
            moved_where_we_failed += 1
    theirs_ok = sum(r["ok"] for r in theirs)
    absolute = [abs(r["eta_difference"]) for r in rows]
    signed = [r["eta_difference"] for r in rows]

    def ms(values):
        return f"{percentile(values, 50):7.2f} {percentile(values, 99):7.2f} {max(values, default=0):7.2f}"

    def pct(value, signed=False):
        return f"{value * 100:+.1f} %" if signed else f"{value * 100:.1f} %"

    lines = [
        f"Route benchmark: {len(ours)} pairs ({source}), {document['repetitions']} timed queries per pair after one untimed pass",
        f"  routed: adasis {ours_ok}, Valhalla {theirs_ok}, both {len(rows)} (the comparison below is over these)",
        f"  Valhalla's route starts or ends over {TOLERANCE_M:.0f} m from a pair's point (it moved the point to a better",
        f"  connected road): {len(moved)} of the {len(rows)}; {moved_where_we_failed} of the {theirs_ok - len(rows)} pairs only Valhalla routed",
        "",
        "                                   adasis        Valhalla (auto)",
        "  query time p50/p99/max, ms   " + ms(our_times) + "   " + ms(their_times),
        f"  route length p50, m          {percentile([r['ours_length_m'] for r in rows], 50):9.0f}   {percentile([r['valhalla_length_m'] for r in rows], 50):13.0f}",
        f"  ETA p50, s                   {percentile([r['ours_duration_s'] for r in rows], 50):9.0f}   {percentile([r['valhalla_duration_s'] for r in rows], 50):13.0f}",
        f"  mean speed (sum length / sum ETA), km/h {3.6 * sum(r['ours_length_m'] for r in rows) / max(sum(r['ours_duration_s'] for r in rows), 1e-9):6.1f}   {3.6 * sum(r['valhalla_length_m'] for r in rows) / max(sum(r['valhalla_duration_s'] for r in rows), 1e-9):6.1f}",
        "",
        "  ETA difference (ours - Valhalla's) / Valhalla's, per pair:",
        f"    |difference| median {pct(percentile(absolute, 50))}, p90 {pct(percentile(absolute, 90))}; signed median {pct(percentile(signed, 50), signed=True)}",
        f"  shared length (within {TOLERANCE_M:.0f} m), per pair:                       median     p10",
        f"    share of our route's length near Valhalla's shape       {percentile([r['ours_shared'] for r in rows], 50) * 100:6.1f} % {percentile([r['ours_shared'] for r in rows], 10) * 100:6.1f} %",
        f"    share of Valhalla's route's length near our shape        {percentile([r['valhalla_shared'] for r in rows], 50) * 100:6.1f} % {percentile([r['valhalla_shared'] for r in rows], 10) * 100:6.1f} %",
        f"    pairs with both shares >= 90 %: {sum(r['ours_shared'] >= 0.9 and r['valhalla_shared'] >= 0.9 for r in rows)} of {len(rows)}",
        "",
        f"  Shared length: each route is cut into pieces of at most {STEP_M:.0f} m; a piece is shared when its",
        f"  midpoint lies within {TOLERANCE_M:.0f} m of the other route's shape (nearest point on any of its",
        "  segments, direction of travel ignored); the share is the shared pieces' length over the route's",
        "  length. p10: nine pairs in ten share at least this much. Percentiles are nearest-rank.",
    ]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pbf", required=True, help="the OSM extract the adasis map was imported from")
    parser.add_argument("--tiles", required=True, help="directory for Valhalla's tiles (cached there)")
    parser.add_argument("--routes", required=True, help="JSON from adasis-bench route --output")
    parser.add_argument("--csv", help="write one row per pair both routed (lengths, ETAs, shares) here")
    args = parser.parse_args(argv)

    with open(args.routes) as f:
        document = json.load(f)
    config_path, _ = build_tiles(args.pbf, args.tiles)
    theirs = valhalla_routes(config_path, document["pairs"], document["repetitions"])
    rows = compare(document["pairs"], theirs)
    for pair, other in zip(document["pairs"], theirs):
        if pair["ok"] and not other["ok"]:
            print(f"pair {pair['index']}: Valhalla found no route: {other['error']}", file=sys.stderr)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["index"])
            writer.writeheader()
            writer.writerows(rows)
    if document.get("seed") is not None:
        source = f"seed {document['seed']}, at least {document['min_distance_m']:.0f} m apart"
    else:
        source = f"from {document.get('pairs_file')}"
    print(table(document, theirs, rows, source + f", map {args.pbf}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
