"""A small synthetic OSM extract with the roads the Helsinki sample lacks: a motorway with two diamond
interchanges (ramps on and off both carriageways), a suburb of six roundabouts, and a service road
running 15 m beside a primary road. Used by Tools/make-drives.py for the drives `motorway`, `roundabouts`
and `service-road` (Data/drives/README.md).

The sample clip of central Helsinki has no motorway, trunk road or roundabout (checked with
`osmium tags-filter Data/helsinki.osm.pbf w/highway=motorway,trunk w/junction=roundabout`), so these
roads are laid out here, on a fictional site north of Helsinki (origin 60.30 N, 24.70 E). Geometry is
exact and deterministic: positions in metres east/north of the origin, converted on a sphere.

Layout (x east, y north, metres):
  - motorway "Testiväylä" (ref 51, 100 km/h, 2 lanes per direction): eastbound carriageway on y = 0 and
    westbound on y = 25, x = 0…5000, each a oneway way split at its ramp nodes;
  - primary "Kehätie" (50 km/h) north-south on x = 2500 from y = -800 to the roundabout at y = 1600,
    bridged over the motorway; secondary "Tikkurilantie" (60 km/h) on x = 4500 from y = -400 to y = 400,
    bridged too; diamond ramps (motorway_link, 60 km/h) where they cross the motorway;
  - suburb: roundabouts (radius 14 m, 12 nodes, counter-clockwise) at x = 1900, 2500, 3100 on
    y = 500 and y = 1000, joined by tertiary "Lehtotie" (y = 500), residential "Koivukuja" (y = 1000) and
    residential "Pihlajatie"/"Vaahteratie" (x = 1900 / x = 3100), one more at (2500, 1600) ending Kehätie;
  - highway=service "Kehätien huoltotie" on x = 2515 from y = 1080 to y = 1520 beside Kehätie, joined to it
    at both ends and in the middle (y = 1300).
Every road between two junctions is a way of its own, so SUMO edge ids are the way ids.
"""
import math

ORIGIN_LAT = 60.30
ORIGIN_LON = 24.70
EARTH_RADIUS_M = 6371008.8
ROUNDABOUT_RADIUS_M = 14.0
ROUNDABOUT_NODES = 12


class Extract:
    """Nodes and ways being laid out; node ids and way ids count up from 1 in the order added."""

    def __init__(self):
        self.nodes = []  # (id, lat, lon)
        self.ways = []  # (id, [node ids], {tags})
        self.named = {}  # (x, y) -> node id, so roads meeting at a point share its node

    def node(self, x, y):
        """The node at (x, y) metres, made once."""
        key = (round(x, 3), round(y, 3))
        if key not in self.named:
            lat = ORIGIN_LAT + math.degrees(y / EARTH_RADIUS_M)
            lon = ORIGIN_LON + math.degrees(x / (EARTH_RADIUS_M * math.cos(math.radians(ORIGIN_LAT))))
            self.nodes.append((len(self.nodes) + 1, lat, lon))
            self.named[key] = len(self.nodes)
        return self.named[key]

    def way(self, points, **tags):
        """A way through the points (x, y), with nodes every 50 m at most on straight stretches; its id."""
        refs = [self.node(*points[0])]
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            steps = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / 50))
            for k in range(1, steps + 1):
                refs.append(self.node(x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps))
        self.ways.append((len(self.ways) + 1, refs, {key: str(v) for key, v in tags.items()}))
        return len(self.ways)

    def roundabout(self, cx, cy, **tags):
        """A closed counter-clockwise roundabout way; returns the points of its E, N, W and S nodes."""
        points = [(cx + ROUNDABOUT_RADIUS_M * math.cos(2 * math.pi * k / ROUNDABOUT_NODES),
                   cy + ROUNDABOUT_RADIUS_M * math.sin(2 * math.pi * k / ROUNDABOUT_NODES))
                  for k in range(ROUNDABOUT_NODES)]
        refs = [self.node(x, y) for x, y in points] + [self.node(*points[0])]
        self.ways.append((len(self.ways) + 1, refs, dict(highway=tags.get("highway", "tertiary"),
                                                          junction="roundabout", maxspeed="30")))
        quarter = ROUNDABOUT_NODES // 4
        return dict(E=points[0], N=points[quarter], W=points[2 * quarter], S=points[3 * quarter])

    def xml(self):
        """The extract as OSM XML text."""
        lines = ["<?xml version='1.0' encoding='UTF-8'?>", '<osm version="0.6" generator="Tools/suburb_extract.py">']
        for node_id, lat, lon in self.nodes:
            lines.append(f'  <node id="{node_id}" version="1" lat="{lat:.7f}" lon="{lon:.7f}"/>')
        for way_id, refs, tags in self.ways:
            lines.append(f'  <way id="{way_id}" version="1">')
            lines += [f'    <nd ref="{ref}"/>' for ref in refs]
            lines += [f'    <tag k="{k}" v="{v}"/>' for k, v in sorted(tags.items())]
            lines.append("  </way>")
        lines.append("</osm>")
        return "\n".join(lines) + "\n"


def motorway(extract):
    """The motorway, its two crossing roads and the diamond ramps; returns the ramp end points on the
    crossing roads by interchange x."""
    mw = dict(highway="motorway", oneway="yes", maxspeed=100, lanes=2, name="Testiväylä", ref=51)
    ramp = dict(highway="motorway_link", oneway="yes", maxspeed=60, lanes=1)
    ends = {}
    eastbound = [0.0]
    westbound = [5000.0]
    for x in (2500.0, 4500.0):
        # Eastbound: off-ramp leaves at x - 400, on-ramp joins at x + 400; westbound mirrored.
        south, north = (x, -70.0), (x, 95.0)
        extract.way([(x - 400, 0), (x - 150, -40), south], **ramp)
        extract.way([south, (x + 150, -40), (x + 400, 0)], **ramp)
        extract.way([(x + 400, 25), (x + 150, 65), north], **ramp)
        extract.way([north, (x - 150, 65), (x - 400, 25)], **ramp)
        eastbound += [x - 400, x + 400]
        westbound += [x + 400, x - 400]
        ends[x] = (south, north)
    eastbound = sorted(eastbound + [5000.0])
    westbound = sorted(westbound + [0.0], reverse=True)
    for a, b in zip(eastbound, eastbound[1:]):
        extract.way([(a, 0), (b, 0)], **mw)
    for a, b in zip(westbound, westbound[1:]):
        extract.way([(a, 25), (b, 25)], **mw)
    return ends


def build():
    """The whole extract."""
    extract = Extract()
    ends = motorway(extract)
    primary = dict(highway="primary", maxspeed=50, name="Kehätie")
    (south, north) = ends[2500.0]
    extract.way([(2500, -800), south], **primary)
    extract.way([south, (2500, 12.5), north], bridge="yes", layer=1, **primary)
    secondary = dict(highway="secondary", maxspeed=60, name="Tikkurilantie")
    (south2, north2) = ends[4500.0]
    extract.way([(4500, -400), south2], **secondary)
    extract.way([south2, (4500, 12.5), north2], bridge="yes", layer=1, **secondary)
    extract.way([north2, (4500, 400)], **secondary)
    # The suburb's roundabouts and the roads between them.
    rb = {(x, y): extract.roundabout(x, y, highway="primary" if x == 2500 else "tertiary")
          for x in (1900, 2500, 3100) for y in (500, 1000)}
    top = extract.roundabout(2500, 1600, highway="primary")
    extract.way([north, rb[2500, 500]["S"]], **primary)
    extract.way([rb[2500, 500]["N"], rb[2500, 1000]["S"]], **primary)
    # Kehätie north of y = 1000 with its service road: junction nodes at y = 1080, 1300, 1520.
    extract.way([rb[2500, 1000]["N"], (2500, 1080)], **primary)
    extract.way([(2500, 1080), (2500, 1300)], **primary)
    extract.way([(2500, 1300), (2500, 1520)], **primary)
    extract.way([(2500, 1520), top["S"]], **primary)
    service = dict(highway="service", maxspeed=20, name="Kehätien huoltotie", motor_vehicle="yes")
    extract.way([(2500, 1080), (2515, 1095)], **service)
    extract.way([(2515, 1095), (2515, 1300)], **service)
    extract.way([(2515, 1300), (2515, 1505)], **service)
    extract.way([(2515, 1505), (2500, 1520)], **service)
    extract.way([(2500, 1300), (2515, 1300)], **service)
    tertiary = dict(highway="tertiary", maxspeed=40, name="Lehtotie")
    extract.way([(1500, 500), rb[1900, 500]["W"]], **tertiary)
    extract.way([rb[1900, 500]["E"], rb[2500, 500]["W"]], **tertiary)
    extract.way([rb[2500, 500]["E"], rb[3100, 500]["W"]], **tertiary)
    extract.way([rb[3100, 500]["E"], (3500, 500)], **tertiary)
    residential = dict(highway="residential", maxspeed=30)
    extract.way([rb[1900, 1000]["E"], rb[2500, 1000]["W"]], name="Koivukuja", **residential)
    extract.way([rb[2500, 1000]["E"], rb[3100, 1000]["W"]], name="Koivukuja", **residential)
    extract.way([rb[1900, 500]["N"], rb[1900, 1000]["S"]], name="Pihlajatie", **residential)
    extract.way([rb[3100, 500]["N"], rb[3100, 1000]["S"]], name="Vaahteratie", **residential)
    extract.way([rb[1900, 500]["S"], (1900, 300)], name="Pihlajatie", **residential)
    extract.way([rb[3100, 1000]["N"], (3100, 1200)], name="Vaahteratie", **residential)
    return extract
