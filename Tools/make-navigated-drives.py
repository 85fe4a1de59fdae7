#!/usr/bin/env python3
"""Makes navigated drives in Data/drives/navigated/: SUMO drives that follow the route adasis plans.

The drives of Tools/make-drives.py follow SUMO's own fastest paths through chosen via edges, which are
not the routes a navigation user of adasis would get. These drives are: for each origin-destination pair
below, `adasis route` plans the route on the sample map, each directed link of the route becomes the SUMO
edge of the same OSM way, in the same direction, nearest to the link's middle, and the car is simulated
through those edges (SUMO's `<trip via=...>` with every edge listed, so it drives exactly the route) with
the same network, seed, FCD handling, true ways and 5 m noise model as Tools/make-drives.py (its functions
are reused; its drives are not touched).

A drive with `deviate` leaves the route: from about that share of the route's links on, at the first
junction with another link to take (by link id: at least 30 m long, drivable that way, neither the route's
next link nor a U-turn, and with at least 800 m of route replanned from 80 % along it, through 95 % along
it so that it leaves the link the way the car drives it), the car takes that
link and then follows the route adasis plans from there to the same destination: what a driver who
ignores one instruction and then follows the replanned route drives.

Writes <name>.csv, <name>-noisy.csv and drives.json (per drive: origin, destination, the planned route,
the SUMO edges, where and when (`deviation.time_s`, the first fix on the way turned onto) it deviates,
and how much of the simulated drive lies on the planned ways).

Usage: Tools/make-navigated-drives.py [--adasis .build/release/adasis] [--map Data/helsinki.osm.pbf]
                                      [--out Data/drives/navigated] [--work DIR]
Needs: osmium-tool, netconvert and sumo (eclipse-sumo 1.28.0 from PyPI, which ships sumolib), pyproj 3.7.1
(sumolib's geo-projection) and a built adasis.
"""
import argparse
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("make_drives", os.path.join(HERE, "make-drives.py"))
make_drives = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_drives)
DriveError = make_drives.DriveError

# Noise seeds apart from make-drives.py's (NOISE_SEED + 0..5).
NOISE_SEED = make_drives.NOISE_SEED + 100

# Origin and destination as (lat, lon); `deviate`: share of the route after which the car leaves it.
DRIVES = [
    dict(name="nav-kaisaniemi-bulevardi", about="north-east to south-west, Kaisaniemi to Bulevardi",
         origin=(60.1765, 24.9530), destination=(60.1660, 24.9400)),
    dict(name="nav-eira-kruununhaka", about="south to north, the south side to Kruununhaka",
         origin=(60.1650, 24.9460), destination=(60.1760, 24.9500)),
    dict(name="nav-kamppi-kluuvi", about="west to east, Kamppi to Kluuvi",
         origin=(60.1690, 24.9370), destination=(60.1700, 24.9520)),
    dict(name="nav-market-mannerheimintie", about="east to west, the Market Square side to Mannerheimintie",
         origin=(60.1680, 24.9525), destination=(60.1715, 24.9360)),
    dict(name="nav-diagonal", about="south-west to north-east across the map",
         origin=(60.1650, 24.9380), destination=(60.1770, 24.9510)),
    dict(name="nav-mannerheimintie-hakaniemi", about="Mannerheimintie to the north-east corner",
         origin=(60.17137, 24.93575), destination=(60.1790, 24.9507)),
    dict(name="nav-kaisaniemi-bulevardi-deviation", about="as nav-kaisaniemi-bulevardi, but the driver turns "
         "off the route a third of the way and then follows the replanned route",
         origin=(60.1765, 24.9530), destination=(60.1660, 24.9400), deviate=0.3),
    dict(name="nav-eira-kruununhaka-deviation", about="as nav-eira-kruununhaka, but the driver turns off the "
         "route half way and then follows the replanned route",
         origin=(60.1650, 24.9460), destination=(60.1760, 24.9500), deviate=0.45),
]


def sumolib_module():
    """sumolib as eclipse-sumo ships it (site-packages/sumo/tools)."""
    try:
        import sumo
    except ImportError:
        raise DriveError("eclipse-sumo is not installed: pip install eclipse-sumo==1.28.0") from None
    sys.path.insert(0, os.path.join(os.path.dirname(sumo.__file__), "tools"))
    warnings.filterwarnings("ignore", message="Module 'rtree' not available")
    import sumolib
    return sumolib


def plan(adasis, map_file, origin, destination, via=None):
    """The directed links of `adasis route` from origin (through via) to destination, as
    [(link id, '+' or '-')], and its summary line."""
    command = [adasis, "route", "--map", map_file, "--from", f"{origin[0]},{origin[1]}",
               "--to", f"{destination[0]},{destination[1]}"]
    if via:
        command += ["--via", f"{via[0]},{via[1]}"]
    result = make_drives.run(command)
    links = []
    for line in result.stdout.splitlines():
        if line.startswith("L"):
            links.append((int(line[1:-1]), line[-1]))
    if not links:
        raise DriveError(f"adasis route from {origin} to {destination} printed no links:\n{result.stdout}")
    return links, result.stdout.splitlines()[0]


def map_links(adasis, map_file, work):
    """link id -> (OSM way id, [(lon, lat), ...], oneway, length m) from `adasis map export-geojson`."""
    path = os.path.join(work, "map.geojson")
    make_drives.run([adasis, "map", "export-geojson", map_file, "-o", path])
    with open(path) as handle:
        features = json.load(handle)["features"]
    return {f["properties"]["link_id"]: (f["properties"]["way_id"], f["geometry"]["coordinates"],
                                         f["properties"]["oneway"], f["properties"]["length_m"])
            for f in features if f["geometry"]["type"] == "LineString" and "link_id" in f["properties"]}


def heading_xy(a, b):
    """Angle of the vector a -> b in degrees."""
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))


def nearest_segment(point, shape):
    """(distance, heading in degrees) of the segment of shape nearest to point."""
    best = (math.inf, 0.0)
    for a, b in zip(shape, shape[1:]):
        dx, dy = b[0] - a[0], b[1] - a[1]
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((point[0] - a[0]) * dx + (point[1] - a[1]) * dy) / length2))
        distance = math.hypot(a[0] + t * dx - point[0], a[1] + t * dy - point[1])
        if distance < best[0]:
            best = (distance, heading_xy(a, b))
    return best


def middle(shape):
    """(point, heading) halfway along a polyline in the plane."""
    lengths = [math.dist(a, b) for a, b in zip(shape, shape[1:])]
    target, along = sum(lengths) / 2, 0.0
    for (a, b), length in zip(zip(shape, shape[1:]), lengths):
        if along + length >= target and length > 0:
            t = (target - along) / length
            return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])), heading_xy(a, b)
        along += length
    return shape[0], heading_xy(shape[0], shape[-1])


def sumo_edges(links, geometry, net, edge_way):
    """The SUMO edges of a route: per directed link, the edge of the same OSM way nearest to the link's
    middle whose direction there is within 60 degrees of the link's; links without one (netconvert folded
    them into a junction) are left to SUMO's routing between the neighbouring edges."""
    edges = []
    for link, sign in links:
        way, coordinates = geometry[link][:2]
        shape = [net.convertLonLat2XY(lon, lat) for lon, lat in coordinates]
        if sign == "-":
            shape.reverse()
        point, heading = middle(shape)
        best = None
        for edge, _ in net.getNeighboringEdges(point[0], point[1], 30):
            if way not in edge_way.get(edge.getID(), []):
                continue
            distance, edge_heading = nearest_segment(point, edge.getShape())
            if abs((edge_heading - heading + 180) % 360 - 180) > 60:
                continue
            if best is None or (distance, edge.getID()) < best:
                best = (distance, edge.getID())
        if best and (not edges or edges[-1] != best[1]):
            edges.append(best[1])
    return edges


def deviation(links, share, geometry):
    """(index in links after which the car leaves, the directed link it takes, the points 80 % and 95 %
    along that link as (lat, lon)) for each junction from `share` of the route on with another link to
    take: at least 30 m long, drivable in that direction (and in SUMO's network), neither the route's next link nor a U-turn."""
    starts, ends = {}, {}
    for link, (_, coordinates, _, _) in geometry.items():
        starts.setdefault(tuple(coordinates[0]), []).append(link)
        ends.setdefault(tuple(coordinates[-1]), []).append(link)
    for index in range(max(1, int(len(links) * share)), len(links) - 2):
        link, sign = links[index]
        coordinates = geometry[link][1]
        junction = tuple(coordinates[-1] if sign == "+" else coordinates[0])
        options = [(other, "+") for other in starts.get(junction, [])]
        options += [(other, "-") for other in ends.get(junction, [])]
        for other, direction in sorted(options):
            _, shape, oneway, length = geometry[other]
            if other == link or (other, direction) == links[index + 1] or length < 30:
                continue
            if oneway not in ("no", "forward" if direction == "+" else "backward"):
                continue
            shape = shape if direction == "+" else shape[::-1]
            lengths = [make_drives.distance_m(a[1], a[0], b[1], b[0]) for a, b in zip(shape, shape[1:])]
            yield index, (other, direction), along_shape(shape, lengths, 0.8), along_shape(shape, lengths, 0.95)


def along_shape(shape, lengths, share):
    """The point (lat, lon) `share` of the way along a [(lon, lat)] polyline with these piece lengths."""
    target, along = share * sum(lengths), 0.0
    for a, b, piece in zip(shape, shape[1:], lengths):
        if along + piece >= target and piece > 0:
            t = (target - along) / piece
            return round(a[1] + t * (b[1] - a[1]), 7), round(a[0] + t * (b[0] - a[0]), 7)
        along += piece
    return shape[-1][1], shape[-1][0]


def on_route_share(ways, planned_ways):
    """Share of the drive's fixes whose true way is one of the planned route's ways."""
    return round(sum(1 for way in ways if way in planned_ways) / len(ways), 4)


def make(drive, args, work, net_tuple, sumo_net, osm_ways, geometry, index):
    """Plans, converts and simulates one drive; returns its drives.json entry."""
    links, summary_line = plan(args.adasis, args.map_file, drive["origin"], drive["destination"])
    entry = dict(name=drive["name"], about=drive["about"], origin=list(drive["origin"]),
                 destination=list(drive["destination"]), planned=summary_line, planned_links=len(links))
    planned_ways = {geometry[link][0] for link, _ in links}
    if "deviate" in drive:
        for at, taken, point, ahead in deviation(links, drive["deviate"], geometry):
            try:
                # Through a point further along the taken link, so the route leaves it the way the car
                # drives it (as the route session plans from a vehicle, in its direction).
                replanned, replanned_line = plan(args.adasis, args.map_file, point, drive["destination"], ahead)
            except DriveError:
                continue
            rest = sum(geometry[link][3] for link, _ in replanned)
            # SUMO must have the taken link (its passenger network leaves out some service roads).
            if replanned[0] == taken and rest >= 800 and sumo_edges([taken], geometry, sumo_net, net_tuple[1]):
                taken_way = geometry[taken[0]][0]
                entry.update(deviation=dict(after_link=f"L{links[at][0]}{links[at][1]}",
                                            taken_link=f"L{taken[0]}{taken[1]}", replanned_from=list(point),
                                            replanned=replanned_line))
                links = links[:at + 1] + replanned
                planned_ways |= {geometry[link][0] for link, _ in replanned}
                break
        else:
            raise DriveError(f"drive {drive['name']}: no junction to leave the route at; change deviate")
    edges = sumo_edges(links, geometry, sumo_net, net_tuple[1])
    trace, summary = make_drives.make_drive(dict(name=drive["name"], about=drive["about"], edges=edges), work,
                                            net_tuple, osm_ways, args.out, NOISE_SEED + index)
    entry.update(summary)
    if "deviation" in entry:
        # When the car leaves the route: its first fix on the way of the link it turns onto.
        turn = next((row for row in trace if row[5] == taken_way), None)
        if turn is None:
            raise DriveError(f"drive {drive['name']}: the simulated car never drove the link it should turn onto")
        entry["deviation"]["time_s"] = turn[0]
    entry["on_planned_ways"] = on_route_share([row[5] for row in trace], planned_ways)
    return entry


def main():
    root = os.path.dirname(HERE)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adasis", default=os.path.join(root, ".build", "release", "adasis"),
                        help="the adasis executable (swift build -c release --product adasis)")
    parser.add_argument("--map", default=os.path.join(root, "Data", "helsinki.osm.pbf"), help="OSM PBF extract")
    parser.add_argument("--out", default=os.path.join(root, "Data", "drives", "navigated"), help="output directory")
    parser.add_argument("--work", help="keep intermediate files in this directory")
    args = parser.parse_args()
    if not os.access(args.adasis, os.X_OK):
        raise DriveError(f"{args.adasis} is not an executable: build it or pass --adasis PATH")
    if not os.path.isfile(args.map):
        raise DriveError(f"map {args.map} not found: pass --map PATH to an OSM PBF file")
    sumolib = sumolib_module()
    os.makedirs(args.out, exist_ok=True)
    work = args.work or tempfile.mkdtemp(prefix="make-navigated-drives-")
    os.makedirs(work, exist_ok=True)
    try:
        args.map_file = os.path.join(work, "helsinki.map")
        make_drives.run([args.adasis, "map", "import", args.map, "-o", args.map_file, "--country", "FI"])
        geometry = map_links(args.adasis, args.map_file, work)
        osm_path, net_path = make_drives.build_network(args.map, work)
        net_tuple = make_drives.read_network(net_path)
        osm_ways = make_drives.read_osm_ways(osm_path)
        sumo_net = sumolib.net.readNet(net_path)
        entries = []
        for index, drive in enumerate(DRIVES):
            entry = make(drive, args, work, net_tuple, sumo_net, osm_ways, geometry, index)
            entries.append(entry)
            print(f"{entry['name']}: {entry['fixes']} fixes, {entry['route_length_m']:.0f} m, "
                  f"{entry['on_planned_ways']:.1%} of fixes on the planned ways; {' > '.join(entry['streets'])}")
        version = make_drives.run(["sumo", "--version"]).stdout.splitlines()[0]
        with open(os.path.join(args.out, "drives.json"), "w") as out:
            json.dump(dict(generator="Tools/make-navigated-drives.py", sumo=version, sumo_seed=make_drives.SUMO_SEED,
                           noise_sigma_m=make_drives.NOISE_SIGMA_M, drives=entries), out, indent=1,
                      ensure_ascii=False)
            out.write("\n")
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except DriveError as error:
        print(f"make-navigated-drives: {error}", file=sys.stderr)
        sys.exit(1)
