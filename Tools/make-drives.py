#!/usr/bin/env python3
"""Makes the ground-truth drives in Data/drives/ from the sample map with the SUMO traffic simulator.

What it does, in order (all deterministic: fixed SUMO seed, fixed noise seeds, fixed routes):
  1. Data/helsinki.osm.pbf -> OSM XML with `osmium cat`.
  2. OSM XML -> SUMO network with `netconvert`: passenger-car roads only, geometry kept as in OSM
     (`--geometry.remove false`, no junction joining), OSM way ids kept per lane (`--output.original-names`,
     lane param `origId`). netconvert projects to UTM; SUMO converts back with `--fcd-output.geo`.
  3. For each drive in DRIVES: one passenger car routed by SUMO through the listed edges
     (`<trip from= via= to=>`, fastest path), simulated with `--step-length 1 --step-method.ballistic
     --seed 42`. Ballistic stepping moves the car each second by the mean of its start and end speeds
     (x += (v0 + v1) / 2 * dt); SUMO's default Euler update moves it by the end speed, so while the car
     accelerates its position ran up to 5 m ahead of what its own reported speeds give, and a matcher that
     dead-reckons from the speeds was scored against that. Its floating car data (FCD) once per second
     becomes Data/drives/<name>.csv:
         time_s,lat,lon,speed_mps,heading_deg,true_way_id
     The true way of a fix is the nearest (OSM geometry) of the way of the SUMO edge it is on, the ways
     driven just before and after, and the short OSM ways connecting those (netconvert folds very short
     ways into junctions or neighbouring edges, so SUMO never names them); on a junction's internal lane,
     of the ways before and after and their connectors.
     heading_deg is SUMO's navigational angle (clockwise from grid north of the UTM projection) turned to
     true north by the UTM meridian convergence at the point.
  4. Data/drives/<name>-noisy.csv: the same rows with independent Gaussian noise of sigma 5 m added to the
     east and north position (Box-Muller on random.Random(NOISE_SEED + drive index)); speed, heading and
     way id unchanged.
  5. Data/drives/<first drive>.nmea: the clean first drive as NMEA 0183, RMC + GGA per second, valid
     checksums, starting at NMEA_START (a 2026 date so gpsd does not shift it by 1024 weeks).
  6. Data/drives/drives.json: per drive its duration, length, streets and the distance of the clean points
     to the OSM way they claim (median, 95th percentile, max) - the consistency check quoted in the README.

Usage: Tools/make-drives.py [--map Data/helsinki.osm.pbf] [--out Data/drives] [--work DIR]
Needs: osmium-tool, netconvert and sumo (eclipse-sumo from PyPI) on PATH.
"""
import argparse
import datetime
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SUMO_SEED = 42
NOISE_SEED = 20260301
NOISE_SIGMA_M = 5.0
NMEA_START = datetime.datetime(2026, 3, 2, 10, 0, 0, tzinfo=datetime.timezone.utc)
EARTH_RADIUS_M = 6371008.8

# Each drive: a name, what it covers, and the SUMO edges (OSM way id, '-' = against the way's direction,
# '#n' = n-th piece between junctions) that the route must pass in order; SUMO routes between them.
DRIVES = [
    dict(name="mannerheimintie",
         about="Mannerheimintie (primary, divided, 2-4 lanes) south from Töölönlahti to Erottaja and back north",
         edges=["28408148#0", "30529424", "33971192"]),
    dict(name="esplanadi",
         about="Esplanadi westbound, Bulevardi, Lönnrotinkatu and back through the centre",
         edges=["75507125", "-42919367", "-332402667"]),
    dict(name="kaisaniemi",
         about="the 40 km/h shore roads Siltavuorenranta and Kaisaniemenranta west, back east, north to Hakaniemi",
         edges=["-81149134#1", "43513700", "123177417#3", "374102056", "26448756#1"]),
    dict(name="kruununhaka",
         about="Kruununhaka grid: Unioninkatu, Liisankatu, Snellmaninkatu, Kaisaniemenkatu",
         edges=["122869893#1", "-15466776#1", "75509309#0", "35435008#3"]),
    dict(name="ullanlinna",
         about="south side: Fabianinkatu, Eteläinen Makasiinikatu, Eteläranta, Korkeavuorenkatu",
         edges=["189654327#1", "-134994764#1", "28321658#0", "-77893334#1"]),
    dict(name="kamppi",
         about="Kamppi to Kluuvi: Yrjönkatu, Kalevankatu, Annankatu, Simonkatu, Kaivokatu, Mikonkatu, Kaisaniemenkatu",
         edges=["-62213052#0", "-29186154#3", "51707741#2", "30471502#6", "655097818", "35435008#3"]),
    # Drives the first six lack (issue 15). The U-turn is on the sample map; the sample has no motorway,
    # roundabout or service road beside a main road, so those run on the synthetic extract of
    # Tools/suburb_extract.py (map "suburb", written to Data/drives/suburb.osm.pbf; way ids are its own).
    dict(name="uturn",
         about="Kalevankatu west, a U-turn at low speed at its western end, back east and on to Kaisaniemenkatu",
         edges=["-29186154#3", "-29186154#0", "29186154#0", "35435008#3"]),
    dict(name="motorway", map="suburb",
         about="synthetic: Kehätie north, on-ramp onto the motorway east, off at the next interchange, over the "
               "bridge, on-ramp west, motorway west past the first off-ramp, off at it, Kehätie north to a roundabout",
         edges=["19", "2", "11", "5", "22", "8", "16", "3", "31", "32"]),
    dict(name="roundabouts", map="suburb",
         about="synthetic: a suburb of roundabouts (straight on, left, right) on Lehtotie, Kehätie, Koivukuja, "
               "Vaahteratie and Pihlajatie",
         edges=["42", "43", "32", "47", "-49", "-44", "-43", "48", "46", "-32", "-31"]),
    dict(name="service-road", map="suburb",
         about="synthetic: Kehätie north beside its service road (15 m east), round the end roundabout, back "
               "south on the service road, then Kehätie south",
         edges=["31", "32", "33", "34", "35", "36", "-36", "-40", "-39", "-38", "-37", "-33", "-32", "-31"]),
]
# The synthetic extract's file, and SUMO's road types with highway=service open to cars (SUMO's default
# typemap closes service roads to passenger cars; the adasis importer keeps them as car roads).
SUBURB_PBF = "suburb.osm.pbf"
SERVICE_TYPE = ('<types>\n  <type id="highway.service" numLanes="1" speed="5.56" priority="1" oneway="false" '
                'allow="passenger delivery pedestrian bicycle"/>\n</types>\n')


class DriveError(Exception):
    """A step of the drive generation failed; the message says which and what to do."""


def run(cmd, cwd=None):
    """Runs a command; raises DriveError with its output when it fails or is missing."""
    if shutil.which(cmd[0]) is None:
        raise DriveError(f"{cmd[0]} not found on PATH: install osmium-tool (apt) and eclipse-sumo (pip)")
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise DriveError(f"{' '.join(cmd)} failed ({result.returncode}):\n{result.stderr[-3000:]}")
    return result


def build_network(pbf, work, name="map", type_files=None):
    """PBF -> OSM XML -> SUMO net; returns (osm_xml_path, net_path)."""
    osm = os.path.join(work, f"{name}.osm")
    net = os.path.join(work, f"{name}.net.xml")
    run(["osmium", "cat", pbf, "-o", osm, "--overwrite"])
    types = ["--type-files", ",".join(type_files)] if type_files else []
    run(["netconvert", *types, "--osm-files", osm, "--output-file", net,
         "--keep-edges.by-vclass", "passenger", "--geometry.remove", "false",
         "--junctions.join", "false", "--tls.guess-signals", "false",
         "--output.original-names", "true", "--output.street-names", "true",
         "--no-warnings", "true"])
    return osm, net


def read_network(net_path):
    """Returns (lane id -> edge id, edge id -> OSM way id, edge id -> street name, UTM central meridian)."""
    lane_edge, edge_way, edge_name = {}, {}, {}
    central_meridian = None
    for _, element in ET.iterparse(net_path):
        if element.tag == "location":
            proj = element.get("projParameter", "")
            for part in proj.split():
                if part.startswith("+zone="):
                    central_meridian = int(part[6:]) * 6 - 183
        elif element.tag == "edge":
            edge_id = element.get("id")
            if element.get("function") == "internal":
                for lane in element.findall("lane"):
                    lane_edge[lane.get("id")] = edge_id
                continue
            edge_name[edge_id] = element.get("name", "")
            for lane in element.findall("lane"):
                lane_edge[lane.get("id")] = edge_id
                for param in lane.findall("param"):
                    if param.get("key") == "origId":
                        edge_way[edge_id] = list(dict.fromkeys(int(v) for v in param.get("value").split()))
            if edge_id not in edge_way:
                edge_way[edge_id] = [int(edge_id.lstrip("-").split("#")[0])]
            element.clear()
    if central_meridian is None:
        raise DriveError(f"{net_path}: no UTM zone in <location projParameter>; netconvert must project to UTM")
    return lane_edge, edge_way, edge_name, central_meridian


# OSM node ids of every highway way read by read_osm_ways (for finding ways that connect two others).
WAY_NODES = {}
# Ways a car may drive on, as the importer keeps them (RoadSelection.swift): only these can be connectors.
CAR_WAYS = set()
CAR_HIGHWAYS = {"motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential",
                "living_street", "service", "motorway_link", "trunk_link", "primary_link", "secondary_link",
                "tertiary_link"}


def is_car_road(tags):
    """Whether the adasis importer keeps a way with these tags as a car road (same rule as RoadSelection)."""
    if tags.get("highway") not in CAR_HIGHWAYS or tags.get("area") == "yes":
        return False
    for key in ("motorcar", "motor_vehicle", "vehicle", "access"):
        if key in tags:
            return tags[key] not in ("no", "private")
    return True


# Longest OSM way taken as one netconvert may fold into a junction, and most such ways in a row.
FOLDED_WAY_MAX_M = 30.0
FOLDED_CHAIN_MAX = 3
# OSM way id -> length in metres, for every highway way read by read_osm_ways.
WAY_LENGTH = {}


def connectors(candidates):
    """Car-road OSM ways that join two different candidate ways, alone or in a chain of up to
    FOLDED_CHAIN_MAX ways: a way sharing a node with two candidates (any length), or short ways (each at most
    FOLDED_WAY_MAX_M) leading from one candidate to another. netconvert folds such short ways into a junction
    or a neighbouring edge, so SUMO never names them although the car drives on them (Pohjoisesplanadi at
    Mikonkatu: 155367885 > 155367884 > 99988877 > 28903078, the middle two 9 m each). (Footways and cycleways
    are no candidates: a car never drives on them.) A connector leads from one candidate to the other: it
    meets them at two different nodes. A way that meets both only at the node where they meet each other
    (a side street ending at the junction the car drives straight through) joins nothing, and taking it
    labelled a fix on Mannerheimintie at Simonkatu with Simonkatu's last 10 m (`joins`)."""
    key = tuple(candidates)
    if key in CONNECTOR_CACHE:
        return CONNECTOR_CACHE[key]
    known = [c for c in candidates if c in WAY_NODES]
    result = set()
    for way, refs in WAY_NODES.items():
        if way in candidates or way not in CAR_WAYS:
            continue
        touching = [c for c in known if refs & WAY_NODES[c]]
        if any(joins(refs, WAY_NODES[a], WAY_NODES[b]) for a in touching for b in touching if a != b):
            result.add(way)
    # Chains of short ways: breadth-first from each candidate through short car ways that are not candidates.
    short = [w for w in CAR_WAYS if w not in candidates and WAY_LENGTH.get(w, math.inf) <= FOLDED_WAY_MAX_M]
    for origin in known:
        frontier = [(origin, ())]
        for _ in range(FOLDED_CHAIN_MAX):
            next_frontier = []
            for end, chain in frontier:
                for way in short:
                    if way in chain or not (WAY_NODES[way] & WAY_NODES[end]):
                        continue
                    path = chain + (way,)
                    if any(c != origin and WAY_NODES[way] & WAY_NODES[c] and is_passage(path, origin, c)
                           for c in known):
                        result.update(path)
                    next_frontier.append((way, path))
            frontier = next_frontier
    CONNECTOR_CACHE[key] = sorted(result)
    return CONNECTOR_CACHE[key]


CONNECTOR_CACHE = {}


def joins(way_nodes, first, second):
    """Whether a way with these node ids leads from one way to another (their node ids `first`, `second`):
    it has a node of each, and they are not one and the same node."""
    return any(a != b for a in way_nodes & first for b in way_nodes & second)


def is_passage(chain, origin, target):
    """Whether a car can drive from way `origin` through the ways of `chain` onto way `target`: each way of
    the chain joins the one before it to the one after it (``joins``). A chain that reaches the target's node
    and then wanders into a side street meeting the target at that same node is none."""
    ways = [origin, *chain, target]
    return all(joins(WAY_NODES[ways[i]], WAY_NODES[ways[i - 1]], WAY_NODES[ways[i + 1]])
               for i in range(1, len(ways) - 1))


def read_osm_ways(osm_path):
    """Returns way id -> list of (lat, lon) for every highway way; nodes outside the clip are skipped."""
    nodes, ways = {}, {}
    WAY_NODES.clear()
    CAR_WAYS.clear()
    WAY_LENGTH.clear()
    CONNECTOR_CACHE.clear()
    for _, element in ET.iterparse(osm_path):
        if element.tag == "node":
            nodes[element.get("id")] = (float(element.get("lat")), float(element.get("lon")))
            element.clear()
        elif element.tag == "way":
            tags = {tag.get("k"): tag.get("v") for tag in element.findall("tag")}
            if "highway" in tags:
                refs = [nd.get("ref") for nd in element.findall("nd") if nd.get("ref") in nodes]
                points = [nodes[ref] for ref in refs]
                if len(points) >= 2:
                    ways[int(element.get("id"))] = points
                    WAY_LENGTH[int(element.get("id"))] = sum(
                        distance_m(a[0], a[1], b[0], b[1]) for a, b in zip(points, points[1:]))
                    WAY_NODES[int(element.get("id"))] = set(refs)
                    if is_car_road(tags):
                        CAR_WAYS.add(int(element.get("id")))
            element.clear()
    return ways


def distance_to_polyline_m(lat, lon, points):
    """Shortest distance in metres from (lat, lon) to a polyline, in a local tangent plane at the point."""
    scale_x = math.radians(1) * EARTH_RADIUS_M * math.cos(math.radians(lat))
    scale_y = math.radians(1) * EARTH_RADIUS_M
    xy = [((p_lon - lon) * scale_x, (p_lat - lat) * scale_y) for p_lat, p_lon in points]
    best = math.inf
    for (x0, y0), (x1, y1) in zip(xy, xy[1:]):
        dx, dy = x1 - x0, y1 - y0
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, -(x0 * dx + y0 * dy) / length2))
        best = min(best, math.hypot(x0 + t * dx, y0 + t * dy))
    return best


def meridian_convergence_deg(lat, lon, central_meridian):
    """Angle from true north to UTM grid north (degrees, clockwise positive) at a point."""
    return math.degrees(math.atan(math.tan(math.radians(lon - central_meridian)) * math.sin(math.radians(lat))))


def suburb_network(out_dir, work):
    """Writes the synthetic extract to out_dir/SUBURB_PBF and builds its SUMO net with service roads open."""
    import suburb_extract
    xml = os.path.join(work, "suburb-source.osm")
    with open(xml, "w") as out:
        out.write(suburb_extract.build().xml())
    pbf = os.path.join(out_dir, SUBURB_PBF)
    run(["osmium", "cat", xml, "-o", pbf, "--overwrite", "--no-progress",
         "--output-header=generator=Tools/suburb_extract.py"])
    sumo_home = os.environ.get("SUMO_HOME") or os.path.dirname(os.path.dirname(os.path.realpath(
        shutil.which("netconvert") or "")))
    default_types = os.path.join(sumo_home, "data", "typemap", "osmNetconvert.typ.xml")
    if not os.path.isfile(default_types):
        try:
            import sumo
            default_types = os.path.join(os.path.dirname(sumo.__file__), "data", "typemap", "osmNetconvert.typ.xml")
        except ImportError:
            pass
    if not os.path.isfile(default_types):
        raise DriveError(f"SUMO's typemap {default_types} not found: set SUMO_HOME to the SUMO installation")
    service = os.path.join(work, "service.typ.xml")
    with open(service, "w") as out:
        out.write(SERVICE_TYPE)
    return build_network(pbf, work, "suburb", [default_types, service])


def simulate(drive, work):
    """Routes and simulates one car; returns the FCD rows [(time, lat, lon, speed, angle, lane)] and tripinfo."""
    name = drive["name"]
    routes = os.path.join(work, f"{name}.rou.xml")
    fcd = os.path.join(work, f"{name}.fcd.xml")
    tripinfo = os.path.join(work, f"{name}.tripinfo.xml")
    edges = drive["edges"]
    via = f' via="{" ".join(edges[1:-1])}"' if len(edges) > 2 else ""
    with open(routes, "w") as out:
        out.write('<routes>\n  <vType id="car" vClass="passenger" sigma="0.5" speedFactor="1.0" speedDev="0.05"/>\n'
                  f'  <trip id="{name}" type="car" depart="0" departLane="best" departSpeed="0" '
                  f'from="{edges[0]}" to="{edges[-1]}"{via}/>\n</routes>\n')
    net_file = os.path.join(work, f"{drive.get('map', 'map')}.net.xml")
    result = run(["sumo", "--net-file", net_file, "--route-files", routes,
                  "--step-length", "1", "--step-method.ballistic", "--seed", str(SUMO_SEED), "--fcd-output", fcd, "--fcd-output.geo",
                  "--precision.geo", "7", "--tripinfo-output", tripinfo, "--no-step-log", "--duration-log.disable",
                  "--end", "3600"])
    if "Teleporting" in result.stderr or "Error" in result.stderr:
        raise DriveError(f"drive {name}: SUMO reported problems:\n{result.stderr[-2000:]}")
    rows = []
    for _, element in ET.iterparse(fcd):
        if element.tag == "timestep":
            for vehicle in element.findall("vehicle"):
                rows.append((float(element.get("time")), float(vehicle.get("y")), float(vehicle.get("x")),
                             float(vehicle.get("speed")), float(vehicle.get("angle")), vehicle.get("lane")))
            element.clear()
    info = ET.parse(tripinfo).getroot().find("tripinfo")
    if info is None or not rows:
        raise DriveError(f"drive {name}: the car never arrived; check that the edges {edges} are connected")
    return rows, dict(duration_s=float(info.get("duration")), route_length_m=float(info.get("routeLength")))


def true_ways(rows, lane_edge, edge_way, osm_ways):
    """The OSM way id of each FCD row: the nearest (OSM geometry) of the ways of the row's SUMO edge (all the
    OSM ways netconvert merged into it) and the ways driven just before and just after it; on a junction's internal lane only the latter two. Ties keep the edge's
    way. (SUMO's lane and position can disagree with OSM by a few metres at a way's end.)"""
    edges = [lane_edge.get(lane) for lane in (row[5] for row in rows)]
    if any(edge is None for edge in edges):
        raise DriveError("FCD names a lane that is not in the network: the net and the simulation differ")
    own = [edge_way.get(edge) or [] for edge in edges]
    ways = []
    for index, here in enumerate(own):
        before = next((w for w in reversed(own[:index]) if w and w != here), [])
        after = next((w for w in own[index + 1:] if w and w != here), [])
        # Every OSM way SUMO merged into the edge (origId lists them all), then the neighbours'.
        candidates = list(dict.fromkeys(here + before + after))
        candidates += connectors(candidates)
        lat, lon = rows[index][1], rows[index][2]
        ways.append(min(candidates, key=lambda w: distance_to_polyline_m(lat, lon, osm_ways[w])
                        if w in osm_ways else math.inf))
    return without_blips(ways, rows, osm_ways)


def without_blips(ways, rows, osm_ways):
    """The labels with each one-fix blip replaced: a single fix on a way X between fixes on two other ways
    that meet each other at a node, where X does not lead from one to the other (it meets both only at that
    node, ``joins``). No car drives onto such a way and back off it at the same node within a second; the
    fix lies in the junction and took the way whose end is nearest (mannerheimintie 96 s, at Erottaja: a
    slip road of Bulevardi where the two slip roads the car drove meet). It becomes the nearer of the two
    ways. Longer runs are kept: there a car can turn on X (kruununhaka 131-138 s)."""
    result = list(ways)
    for index in range(1, len(ways) - 1):
        before, after = ways[index - 1], ways[index + 1]
        if is_blip(before, ways[index], after, WAY_NODES):
            lat, lon = rows[index][1], rows[index][2]
            result[index] = min((before, after), key=lambda w: distance_to_polyline_m(lat, lon, osm_ways[w]))
    return result


def is_blip(before, here, after, way_nodes):
    """Whether a single fix labelled `here` between fixes labelled `before` and `after` is a blip
    (``without_blips``): three different ways, the outer two meeting at a node, `here` not leading from one to
    the other. `way_nodes`: way id -> node ids (a way it lacks is never part of a blip)."""
    if len({before, here, after}) < 3 or not all(w in way_nodes for w in (before, here, after)):
        return False
    return bool(way_nodes[before] & way_nodes[after]) and not joins(way_nodes[here], way_nodes[before],
                                                                    way_nodes[after])


def box_muller(rng):
    """Two independent standard normal numbers from two uniforms (Box-Muller)."""
    u1 = 1.0 - rng.random()  # in (0, 1], so log(u1) is finite
    u2 = rng.random()
    radius = math.sqrt(-2.0 * math.log(u1))
    return radius * math.cos(2 * math.pi * u2), radius * math.sin(2 * math.pi * u2)


def add_noise(lat, lon, rng):
    """The position moved by Gaussian noise of NOISE_SIGMA_M metres east and north."""
    east, north = (NOISE_SIGMA_M * value for value in box_muller(rng))
    dlat = math.degrees(north / EARTH_RADIUS_M)
    dlon = math.degrees(east / (EARTH_RADIUS_M * math.cos(math.radians(lat))))
    return lat + dlat, lon + dlon


def write_csv(path, trace):
    """Writes trace rows (time, lat, lon, speed, heading, way) as the drive CSV."""
    with open(path, "w") as out:
        out.write("time_s,lat,lon,speed_mps,heading_deg,true_way_id\n")
        for time_s, lat, lon, speed, heading, way in trace:
            out.write(f"{time_s:.1f},{lat:.7f},{lon:.7f},{speed:.2f},{heading:.1f},{way}\n")


def nmea_sentence(body):
    """A full NMEA sentence: $body*checksum (XOR of the body's bytes)."""
    checksum = 0
    for byte in body.encode("ascii"):
        checksum ^= byte
    return f"${body}*{checksum:02X}"


def nmea_coordinate(value, degree_digits, positive, negative):
    """(ddmm.mmmmm or dddmm.mmmmm, hemisphere) of a coordinate in degrees."""
    hemisphere = positive if value >= 0 else negative
    value = abs(value)
    degrees = int(value)
    minutes = (value - degrees) * 60
    if round(minutes, 5) >= 60:
        degrees, minutes = degrees + 1, 0.0
    return f"{degrees:0{degree_digits}d}{minutes:08.5f}", hemisphere


def write_nmea(path, trace):
    """Writes the trace as RMC + GGA sentences, one pair per fix, from NMEA_START."""
    with open(path, "w", newline="\r\n") as out:
        for time_s, lat, lon, speed, heading, _ in trace:
            stamp = NMEA_START + datetime.timedelta(seconds=time_s)
            hms = stamp.strftime("%H%M%S") + f".{stamp.microsecond // 10000:02d}"
            lat_text, ns = nmea_coordinate(lat, 2, "N", "S")
            lon_text, ew = nmea_coordinate(lon, 3, "E", "W")
            knots = speed / 0.514444
            out.write(nmea_sentence(f"GPRMC,{hms},A,{lat_text},{ns},{lon_text},{ew},{knots:.2f},{heading:.1f},"
                                    f"{stamp.strftime('%d%m%y')},,,A") + "\n")
            out.write(nmea_sentence(f"GPGGA,{hms},{lat_text},{ns},{lon_text},{ew},1,08,1.0,12.0,M,18.5,M,,")
                      + "\n")


def bearing_deg(lat0, lon0, lat1, lon1):
    """Initial great-circle bearing from point 0 to point 1, degrees clockwise from true north."""
    phi0, phi1 = math.radians(lat0), math.radians(lat1)
    dlon = math.radians(lon1 - lon0)
    y = math.sin(dlon) * math.cos(phi1)
    x = math.cos(phi0) * math.sin(phi1) - math.sin(phi0) * math.cos(phi1) * math.cos(dlon)
    return math.degrees(math.atan2(y, x)) % 360


def angle_difference(a, b):
    """Signed smallest difference a - b in degrees, in (-180, 180]."""
    return (a - b + 180) % 360 - 180


def make_drive(drive, work, net, osm_ways, out_dir, noise_seed):
    """Simulates one drive, writes its clean and noisy CSV, and returns (clean trace, summary)."""
    lane_edge, edge_way, edge_name, central_meridian = net
    for edge in drive["edges"]:
        if edge not in edge_way:
            raise DriveError(f"drive {drive['name']}: edge {edge} is not in the SUMO network; "
                             "pick another edge (the network depends on the map and the SUMO version)")
    rows, info = simulate(drive, work)
    ways = true_ways(rows, lane_edge, edge_way, osm_ways)
    start = rows[0][0]
    trace = []
    for (time_s, lat, lon, speed, angle, _), way in zip(rows, ways):
        heading = (angle + meridian_convergence_deg(lat, lon, central_meridian)) % 360
        trace.append((time_s - start, lat, lon, speed, heading, way))
    # Headings agree with the direction of travel: compare with the bearing between fixes 1 s apart.
    heading_errors = [abs(angle_difference(b[4], bearing_deg(a[1], a[2], b[1], b[2])))
                      for a, b in zip(trace, trace[1:]) if a[3] > 5 and b[3] > 5]
    distances = [distance_to_polyline_m(lat, lon, osm_ways[way]) for _, lat, lon, _, _, way in trace
                 if way in osm_ways]
    missing = sum(1 for row in trace if row[5] not in osm_ways)
    if missing:
        raise DriveError(f"drive {drive['name']}: {missing} fixes claim ways that have no OSM geometry")
    write_csv(os.path.join(out_dir, f"{drive['name']}.csv"), trace)
    rng = random.Random(noise_seed)
    noisy = [(t, *add_noise(lat, lon, rng), speed, heading, way) for t, lat, lon, speed, heading, way in trace]
    write_csv(os.path.join(out_dir, f"{drive['name']}-noisy.csv"), noisy)
    noise = [distance_m(a[1], a[2], b[1], b[2]) for a, b in zip(trace, noisy)]
    streets = []
    for row in rows:
        street = edge_name.get(lane_edge[row[5]], "")
        if street and (not streets or streets[-1] != street):
            streets.append(street)
    distances.sort()
    summary = dict(
        name=drive["name"], about=drive["about"], route_edges=drive["edges"], fixes=len(trace),
        duration_s=trace[-1][0], route_length_m=info["route_length_m"],
        max_speed_mps=max(row[3] for row in trace), stopped_fixes=sum(1 for row in trace if row[3] < 0.1),
        distinct_ways=len(set(ways)), streets=streets, noise_seed=noise_seed,
        way_distance_m=dict(median=round(statistics.median(distances), 2),
                            p95=round(distances[int(0.95 * (len(distances) - 1))], 2),
                            max=round(distances[-1], 2)),
        heading_vs_track_deg=dict(median=round(statistics.median(heading_errors), 2) if heading_errors else None),
        noise_m=dict(mean=round(statistics.fmean(noise), 2), rms=round(math.sqrt(statistics.fmean(
            [d * d for d in noise])), 2)))
    return trace, summary


def distance_m(lat0, lon0, lat1, lon1):
    """Distance in metres between two close points (local tangent plane)."""
    dx = math.radians(lon1 - lon0) * EARTH_RADIUS_M * math.cos(math.radians((lat0 + lat1) / 2))
    dy = math.radians(lat1 - lat0) * EARTH_RADIUS_M
    return math.hypot(dx, dy)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", default=os.path.join(root, "Data", "helsinki.osm.pbf"), help="OSM PBF extract")
    parser.add_argument("--out", default=os.path.join(root, "Data", "drives"), help="output directory")
    parser.add_argument("--work", help="keep intermediate files (OSM XML, SUMO net, FCD) in this directory")
    parser.add_argument("--only", help="make only the drive with this name (no NMEA unless it is the first)")
    args = parser.parse_args()
    if not os.path.isfile(args.map):
        raise DriveError(f"map {args.map} not found: pass --map PATH to an OSM PBF file")
    os.makedirs(args.out, exist_ok=True)
    work = args.work or tempfile.mkdtemp(prefix="make-drives-")
    os.makedirs(work, exist_ok=True)
    try:
        maps = {"map": build_network(args.map, work), "suburb": suburb_network(args.out, work)}
        summaries = []
        loaded = None
        for index, drive in enumerate(DRIVES):
            if args.only and drive["name"] != args.only:
                continue
            map_name = drive.get("map", "map")
            if loaded != map_name:
                osm_path, net_path = maps[map_name]
                net = read_network(net_path)
                osm_ways = read_osm_ways(osm_path)
                loaded = map_name
            trace, summary = make_drive(drive, work, net, osm_ways, args.out, NOISE_SEED + index)
            summary["map"] = os.path.join("Data", "drives", SUBURB_PBF) if map_name == "suburb" \
                else "Data/helsinki.osm.pbf"
            if index == 0:
                write_nmea(os.path.join(args.out, f"{drive['name']}.nmea"), trace)
            summaries.append(summary)
            print(f"{summary['name']}: {summary['fixes']} fixes, {summary['duration_s']:.0f} s, "
                  f"{summary['route_length_m']:.0f} m, way distance median {summary['way_distance_m']['median']} m "
                  f"p95 {summary['way_distance_m']['p95']} m max {summary['way_distance_m']['max']} m, heading "
                  f"vs track {summary['heading_vs_track_deg']['median']} deg; {' > '.join(summary['streets'])}")
        if not args.only:
            version = run(["sumo", "--version"]).stdout.splitlines()[0]
            with open(os.path.join(args.out, "drives.json"), "w") as out:
                json.dump(dict(generator="Tools/make-drives.py", sumo=version, sumo_seed=SUMO_SEED,
                               noise_sigma_m=NOISE_SIGMA_M, nmea_start=NMEA_START.isoformat(),
                               drives=summaries), out, indent=1, ensure_ascii=False)
                out.write("\n")
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except DriveError as error:
        print(f"make-drives: {error}", file=sys.stderr)
        sys.exit(1)
