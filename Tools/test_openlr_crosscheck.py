"""Cross-checks our OpenLR code against two independent Python implementations (issue 13):

- `openlr` (TomTom's binary format package): reads every reference `adasis traffic encode`
  writes for random sample-map paths, writes it back byte for byte, and finds its first and last
  points where the path starts and ends;
- `openlr-dereferencer` (a decoder onto any map): decodes the same references onto the sample
  map, read here from `adasis map export-geojson` through a map reader written for this test;
  its links are compared with the path and with what `adasis traffic show` decodes.

Needs the built `adasis` (Tools/test builds it first). Prints the measured shares.
"""
import base64
import json
import math
import os
import random
import subprocess
import tempfile
from collections import defaultdict

import openlr
import pytest
from openlr_dereferencer import decode
from openlr_dereferencer.decoding import Config, LRDecodeError
from openlr_dereferencer.maps import Line, MapReader, Node
from shapely.geometry import LineString, Point

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATHS = 200
SEED = 13

# Our map's OpenLR codes (Sources/OpenLR/LocationReference.swift), from the exported attributes.
FRC = {"motorway": 0, "motorwayLink": 0, "trunk": 1, "trunkLink": 1, "primary": 2, "primaryLink": 2,
       "secondary": 3, "secondaryLink": 3, "tertiary": 4, "tertiaryLink": 4, "unclassified": 5,
       "residential": 5, "livingStreet": 6, "service": 6}
FOW = {"unknown": 0, "freeway": 1, "multipleCarriageway": 2, "singleCarriageway": 3, "roundabout": 4,
       "trafficSquare": 5, "freewayRamp": 6, "ramp": 6}


def metres(a, b):
    """Haversine distance between (lon, lat) pairs."""
    lon1, lat1, lon2, lat2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1, math.sqrt(h)))


class GeoJSONNode(Node):
    def __init__(self, reader, key):
        self.reader, self.key = reader, key

    @property
    def node_id(self):
        return self.key

    @property
    def coordinates(self):
        return openlr.Coordinates(*self.key)

    @property
    def geometry(self):
        return Point(*self.key)

    def outgoing_lines(self):
        return [self.reader.lines[i] for i in self.reader.outgoing[self.key]]

    def incoming_lines(self):
        return [self.reader.lines[i] for i in self.reader.incoming[self.key]]

    def connected_lines(self):
        return self.outgoing_lines() + self.incoming_lines()


class GeoJSONLine(Line):
    """One driving direction of a link of the export: id `123+` forward, `123-` backward."""

    def __init__(self, reader, line_id, points, frc, fow, length):
        self.reader, self.id, self.points = reader, line_id, points
        self._frc, self._fow, self._length = openlr.FRC(frc), openlr.FOW(fow), length

    @property
    def line_id(self):
        return self.id

    @property
    def start_node(self):
        return self.reader.get_node(self.points[0])

    @property
    def end_node(self):
        return self.reader.get_node(self.points[-1])

    @property
    def frc(self):
        return self._frc

    @property
    def fow(self):
        return self._fow

    @property
    def geometry(self):
        return LineString(self.points)

    @property
    def length(self):
        return self._length

    def distance_to(self, coord):
        # Nearest point on a local plane around `coord` (metres).
        k = math.cos(math.radians(coord.lat))
        xy = [((lon - coord.lon) * k * 111_195, (lat - coord.lat) * 111_195) for lon, lat in self.points]
        return LineString(xy).distance(Point(0, 0))


class GeoJSONMapReader(MapReader):
    def __init__(self, features):
        self.lines, self.outgoing, self.incoming = {}, defaultdict(list), defaultdict(list)
        self.grid = defaultdict(set)
        for feature in features:
            p = feature["properties"]
            if "highway" not in p:
                continue  # a point feature (camera, signals)
            points = [tuple(c) for c in feature["geometry"]["coordinates"]]
            frc, fow = FRC[p["highway"]], FOW.get(p["form_of_way"], 7)
            for sign, shape in (("+", points), ("-", points[::-1])):
                if (sign == "+" and p["oneway"] == "backward") or (sign == "-" and p["oneway"] == "forward"):
                    continue
                line = GeoJSONLine(self, f"L{p['link_id']}{sign}", shape, frc, fow, p["length_m"])
                self.lines[line.id] = line
                self.outgoing[shape[0]].append(line.id)
                self.incoming[shape[-1]].append(line.id)
                for lon, lat in shape:
                    self.grid[(int(lon / 0.002), int(lat / 0.002))].add(line.id)

    def get_line(self, line_id):
        return self.lines[line_id]

    def get_lines(self):
        return self.lines.values()

    def get_linecount(self):
        return len(self.lines)

    def get_node(self, node_id):
        return GeoJSONNode(self, node_id)

    def get_nodes(self):
        return [GeoJSONNode(self, key) for key in set(self.outgoing) | set(self.incoming)]

    def get_nodecount(self):
        return len(set(self.outgoing) | set(self.incoming))

    def find_nodes_close_to(self, coord, dist):
        return [n for n in self.get_nodes() if metres(n.key, (coord.lon, coord.lat)) <= dist]

    def find_lines_close_to(self, coord, dist):
        cx, cy = int(coord.lon / 0.002), int(coord.lat / 0.002)
        reach = 1 + int(dist / 100)
        seen = set()
        for x in range(cx - reach, cx + reach + 1):
            for y in range(cy - reach, cy + reach + 1):
                seen |= self.grid.get((x, y), set())
        return [self.lines[i] for i in sorted(seen) if self.lines[i].distance_to(coord) <= dist]


def adasis():
    binary = os.path.join(ROOT, ".build", "debug", "adasis")
    assert os.path.exists(binary), "build first (swift build; Tools/test does)"
    return binary


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    directory = tmp_path_factory.mktemp("openlr")
    map_path = str(directory / "helsinki.map")
    subprocess.run([adasis(), "map", "import", os.path.join(ROOT, "Data/helsinki.osm.pbf"), "-o", map_path,
                    "--country", "FI"], check=True, capture_output=True)
    export = subprocess.run([adasis(), "map", "export-geojson", map_path], check=True, capture_output=True,
                            text=True).stdout
    reader = GeoJSONMapReader(json.loads(export)["features"])
    generator = random.Random(SEED)
    ids = sorted(reader.lines)
    paths, references = [], []
    while len(paths) < PATHS:
        path = [ids[generator.randrange(len(ids))]]
        length = generator.randint(2, 16)
        while len(path) < length:
            end = reader.lines[path[-1]].points[-1]
            used = {p[:-1] for p in path}
            nexts = [i for i in reader.outgoing[end] if i[:-1] not in used]
            if not nexts:
                break
            path.append(nexts[generator.randrange(len(nexts))])
        if len(path) < 2:
            continue
        run = subprocess.run([adasis(), "traffic", "encode", "--map", map_path, *path], capture_output=True,
                             text=True)
        if run.returncode != 0:
            assert "does not follow" in run.stderr, run.stderr  # a turn restriction the export omits
            continue
        paths.append(path)
        references.append(run.stdout.strip())
    feed = {"trafficModelId": "1", "generatedAt": "2026-01-01T00:00:00Z", "validUntil": "2026-01-01T01:00:00Z",
            "flowSegments": [{"openlr": r, "currentSpeed": 10, "freeFlowSpeed": 50} for r in references]}
    feed_path = directory / "feed.json"
    feed_path.write_text(json.dumps(feed))
    shown = subprocess.run([adasis(), "traffic", "show", "--map", map_path, str(feed_path), "--at",
                            "2026-01-01T00:00:10Z"], check=True, capture_output=True, text=True).stdout
    ours = {}
    for line in shown.splitlines():
        if line.startswith("  flowSegments[") and "(" in line:
            position, rest = line.strip().split(": ", 1)
            ours[int(position[len("flowSegments["):-1])] = rest.split(" (")[0].split()
    return reader, paths, references, ours


def test_openlr_reads_and_rewrites_our_references(sample):
    reader, paths, references, _ = sample
    for path, reference in zip(paths, references):
        location = openlr.binary_decode(reference)
        assert openlr.binary_encode(location) == reference
        first, last = reader.lines[path[0]].points[0], reader.lines[path[-1]].points[-1]
        assert metres((location.points[0].lon, location.points[0].lat), first) < 3
        assert metres((location.points[-1].lon, location.points[-1].lat), last) < 3
        total = sum(reader.lines[i].length for i in path)
        assert abs(sum(p.dnp for p in location.points) - total) <= 30 * (len(location.points) - 1) + 1


def trimmed(location):
    """The dereferencer's lines without those its offsets cover whole (as our decoder trims)."""
    lines = list(location.lines)
    p_off, n_off = location.p_off, location.n_off
    while len(lines) > 1 and p_off >= lines[0].length - 0.5:
        p_off -= lines[0].length
        lines.pop(0)
    while len(lines) > 1 and n_off >= lines[-1].length - 0.5:
        n_off -= lines[-1].length
        lines.pop()
    return [line.line_id for line in lines]


def disagreement_kind(path, ours, theirs):
    """Why the dereferencer's answer differs from ours, in a few words."""
    if isinstance(theirs, str):
        return "dereferencer found no candidates or route" if "candidates" in theirs or "route" in theirs.lower() \
            else "dereferencer error"
    if any(a[:-1] == b[:-1] for a, b in zip(theirs, theirs[1:])):
        return "dereferencer turns back on a link (U-turn)"
    if ours != path:
        return "ours differs from the path"
    if set(theirs) < set(path) or (theirs and theirs[0] != path[0]) or (theirs and theirs[-1] != path[-1]):
        return "different first or last link"
    return "another path between the same ends"


# The dereferencer as it comes, and with its node snapping (`candidate_threshold`, 20 m) at our
# decoder's 5 m: the sample map has many links shorter than 20 m, and the default snaps a point to
# the junction at the far end of such a link.
@pytest.mark.parametrize("config, least", [(Config(), 0.6), (Config(candidate_threshold=5), 0.85)],
                         ids=["default", "snap-5m"])
def test_our_decoder_and_the_dereferencer_agree(sample, config, least):
    reader, paths, references, ours = sample
    ours_same = sum(ours.get(i) == path for i, path in enumerate(paths))
    theirs_same = agree = 0
    disagreements = []
    for i, (path, reference) in enumerate(zip(paths, references)):
        try:
            theirs = trimmed(decode(openlr.binary_decode(reference), reader, config=config))
        except LRDecodeError as error:
            theirs = f"error: {error}"
        theirs_same += theirs == path
        agree += theirs == ours.get(i)
        if theirs != ours.get(i):
            disagreements.append((path, ours.get(i), theirs))
    n = len(paths)
    print(f"\nours = path: {ours_same}/{n}; dereferencer = path: {theirs_same}/{n}; agree: {agree}/{n}")
    kinds = defaultdict(int)
    for path, mine, theirs in disagreements:
        kinds[disagreement_kind(path, mine, theirs)] += 1
    print("disagreements: " + ", ".join(f"{kind}: {count}" for kind, count in sorted(kinds.items())))
    assert ours_same >= 0.99 * n
    assert agree >= least * n
