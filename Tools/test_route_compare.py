"""Tests of Tools/route_compare.py's geometry: the shared length of two route shapes."""

import math
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from route_compare import percentile, shared_share  # noqa: E402

LATITUDE = 60.17  # Helsinki
METRES_PER_DEGREE = math.radians(1) * 6_371_008.8


def east(metres, north=0.0):
    """The point `metres` east and `north` metres north of (60.17, 24.94)."""
    return (LATITUDE + north / METRES_PER_DEGREE,
            24.94 + metres / (METRES_PER_DEGREE * math.cos(math.radians(LATITUDE))))


def test_identical_shapes_share_everything():
    route = [east(0), east(300), east(300, 400), east(900, 400)]
    assert shared_share(route, route) == pytest.approx(1.0)
    assert shared_share(route, list(reversed(route))) == pytest.approx(1.0)  # direction is not compared


def test_disjoint_shapes_share_nothing():
    route = [east(0), east(1000)]
    parallel = [east(0, 100), east(1000, 100)]  # 100 m to the north
    assert shared_share(route, parallel) == 0.0
    assert shared_share(parallel, route) == 0.0
    assert shared_share(route, []) == 0.0


def test_within_the_tolerance_counts_as_shared():
    route = [east(0), east(1000)]
    assert shared_share(route, [east(0, 10), east(1000, 10)]) == pytest.approx(1.0)  # 10 m apart
    assert shared_share(route, [east(0, 20), east(1000, 20)]) == 0.0  # 20 m apart


def test_half_overlapping_shapes_share_half():
    # Both 1 km long: together for the first 500 m, then one goes on east, the other turns north.
    straight = [east(0), east(1000)]
    turning = [east(0), east(500), east(500, 500)]
    # Beyond the fork each stays within 15 m of the other's shape for its first 15 m.
    assert shared_share(straight, turning) == pytest.approx(0.515, abs=0.002)
    assert shared_share(turning, straight) == pytest.approx(0.515, abs=0.002)


def test_a_detour_shares_only_the_common_part():
    # Our route: 1 km straight; the other leaves it at 400 m for a 200 m detour 100 m north.
    straight = [east(0), east(1000)]
    detour = [east(0), east(400), east(400, 100), east(600, 100), east(600), east(1000)]
    # Ours is near theirs except between 415 m and 585 m (over 15 m from the detour's legs).
    assert shared_share(straight, detour) == pytest.approx(830 / 1000, abs=0.002)
    # Theirs is 1.2 km: 800 m along ours plus 15 m of each 100 m leg.
    assert shared_share(detour, straight) == pytest.approx(830 / 1200, abs=0.002)


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert percentile(values, 50) == 50
    assert percentile(values, 99) == 99
    assert percentile(values, 10) == 10
    assert percentile([], 50) == 0.0
