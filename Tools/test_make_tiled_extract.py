"""Tests of Tools/make-tiled-extract (run: python3 -m pytest Tools/test_make_tiled_extract.py).

The tool copies PBF blocks and re-encodes only identifiers, references and coordinates; these tests
read its output with libosmium (pyosmium), an independent PBF reader, and check every object of
every copy against the sample extract.
"""
import os
import subprocess
import sys

import pytest

osmium = pytest.importorskip("osmium")

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "make-tiled-extract")
SAMPLE = os.path.join(HERE, "..", "Data", "helsinki.osm.pbf")


def objects(path):
    """Every object of a PBF file: kind and id → (coordinates in 1e-7°, tags, references), and the file order."""
    found, order = {}, []

    class Reader(osmium.SimpleHandler):
        def node(self, n):
            order.append("n")
            found[("n", n.id)] = (n.location.y, n.location.x, dict(n.tags))

        def way(self, w):
            order.append("w")
            found[("w", w.id)] = (dict(w.tags), [r.ref for r in w.nodes])

        def relation(self, r):
            order.append("r")
            found[("r", r.id)] = (dict(r.tags), [(m.type, m.ref, m.role) for m in r.members])

    Reader().apply_file(path)
    return found, order


def run(*args):
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)


@pytest.fixture(scope="module")
def sample():
    return objects(SAMPLE)[0]


@pytest.fixture(scope="module")
def tiled(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("tiled") / "tiled2.osm.pbf")
    result = run(SAMPLE, "2", path)
    assert result.returncode == 0, result.stderr
    return objects(path)


def test_every_copy_holds_every_object_renumbered_and_moved(sample, tiled):
    found, _ = tiled
    stride = 10 ** len(str(max(id for _, id in sample)))
    lats = [value[0] for (kind, _), value in sample.items() if kind == "n"]
    lons = [value[1] for (kind, _), value in sample.items() if kind == "n"]
    d_lat = (max(lats) - min(lats)) / 1e7 * 1.1
    d_lon = (max(lons) - min(lons)) / 1e7 * 1.1
    assert len(found) == 4 * len(sample)
    for k in range(4):
        row, column = divmod(k, 2)
        offset = k * stride
        for (kind, id), value in sample.items():
            copy = found[(kind, id + offset)]
            if kind == "n":
                assert abs(copy[0] - value[0] - row * d_lat * 1e7) <= 1, (k, id)
                assert abs(copy[1] - value[1] - column * d_lon * 1e7) <= 1, (k, id)
                assert copy[2] == value[2]
            elif kind == "w":
                assert copy == (value[0], [ref + offset for ref in value[1]])
            else:
                assert copy == (value[0], [(t, ref + offset, role) for t, ref, role in value[1]])


def test_nodes_then_ways_then_relations(tiled):
    _, order = tiled
    assert "".join(sorted(order, key="nwr".index)) == "".join(order)


def test_a_file_that_is_not_pbf_is_refused_without_output(tmp_path):
    bad = tmp_path / "bad.osm.pbf"
    bad.write_bytes(b"\x00\x00\x00\x05hello, not a PBF file")
    target = tmp_path / "out.osm.pbf"
    result = run(str(bad), "2", str(target))
    assert result.returncode != 0
    assert "is not a PBF file this tool can copy" in result.stderr
    assert not target.exists() and not (tmp_path / "out.osm.pbf.partial.osm.pbf").exists()


def test_n_out_of_range_is_refused(tmp_path):
    result = run(SAMPLE, "0", str(tmp_path / "out.osm.pbf"))
    assert result.returncode != 0 and "N must be a whole number from 1 to 100" in result.stderr
