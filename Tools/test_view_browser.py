"""adasis view in a real browser (issue 14): Debian's Chromium, driven by Playwright for Python,
with WebGL on SwiftShader (no GPU here), against `adasis view` on the sample map and a drive.

Checks that the page loads with no console error (and shows every layer set); that the vehicle marker moves as replay time
advances (seeking and playing); that MapLibre's queryRenderedFeatures on the main-path layer
returns the ways `adasis horizon --at` prints for the same moment; that a screenshot is not blank
and shows the main path's colour where the main path lies; that the panel's CAN bus section
counts the frames `adasis replay` sends; that the traffic layer shows the feed's flow and
incidents; that a port in use and a bad style file end the command with the reason. Live mode
(a candump log through the reconstructor): the marker moves, the bus panel fills, and at the log's
end the main and side paths equal what `adasis reconstruct` rebuilds. The route and its
proposals: drawn by the fix's route ids, toggled with their layer set. Waits on the page's own state
(window.viewReady, viewSeek(t) resolving once the horizon is drawn), never on sleeps.

Also measures playback frames/s from requestAnimationFrame timestamps (printed; the README keeps
the number). ADASIS_VIEW_SCREENSHOT=PATH writes the screenshot there (the README's picture).

Needs the built `adasis` (Tools/test builds it first), `chromium` and `playwright`
(Tools/install-dependencies).
"""
import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import tempfile

import pytest

playwright = pytest.importorskip("playwright.sync_api")
from PIL import Image  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "Sources", "ViewServer", "Resources", "page")
DRIVE = os.path.join(ROOT, "Data", "drives", "esplanadi.csv")
FEED = os.path.join(ROOT, "Data", "traffic", "sample-feed.json")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"]
MAIN_PATH_COLOUR = (0x1F, 0x5F, 0xD4)  # horizon-main-path in style.json
MOMENTS = [60.0, 150.0]


def adasis():
    return os.path.join(ROOT, ".build", "debug", "adasis")


@pytest.fixture(scope="module")
def map_path():
    with tempfile.TemporaryDirectory(prefix="adasis-view-test-") as folder:
        path = os.path.join(folder, "helsinki.map")
        subprocess.run([adasis(), "map", "import", os.path.join(ROOT, "Data/helsinki.osm.pbf"), "-o", path,
                        "--country", "FI"], check=True, capture_output=True)
        yield path


def start_view(arguments, serving=r"serving (http://127\.0\.0\.1:\d+/)"):
    """`adasis view ARGUMENTS --port 0` started, with the address its first line says it serves
    (`serving` matches that line, the address as its group); the test fails when it does not start."""
    process = subprocess.Popen([adasis(), "view", *arguments, "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    match = re.search(serving, line)
    if not match:
        process.kill()
        pytest.fail(f"adasis view {' '.join(arguments)} did not start: {line!r} {process.stderr.read()}")
    return process, match.group(1)


@pytest.fixture(scope="module")
def server(map_path):
    process, address = start_view(["--map", map_path, "--replay", DRIVE, "--traffic", FEED])
    yield address
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail("chromium is not installed (Tools/install-dependencies installs it)")
    with playwright.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield instance
        instance.close()


@contextlib.contextmanager
def opened_view(browser, url):
    """The view at `url`, loaded and ready, with the console's errors collected in page.errors."""
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    page.errors = []
    page.on("console", lambda message: message.type == "error" and page.errors.append(message.text))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("requestfailed", lambda request: page.errors.append(f"request failed: {request.url}"))
    page.goto(url)
    page.wait_for_function("window.viewReady === true", timeout=120_000)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def page(browser, server):
    """The replay view, loaded and ready (see opened_view)."""
    with opened_view(browser, server) as page:
        yield page


def horizon_at(map_path, time):
    run = subprocess.run([adasis(), "horizon", "--map", map_path, DRIVE, "--at", str(time)], check=True,
                         capture_output=True, text=True)
    return json.loads(run.stdout)


def test_vendored_maplibre_is_the_pinned_release():
    sums = {"maplibre-gl.js": "e380deae560bc5d182be4124a1b9cdd5086304b0cb82c92a5af23d018aa81015",
            "maplibre-gl.css": "792ac997dcf6ae6f643eb4e2dee4630c85e7056526bd8fb85ffe83c67d6c41b4"}
    for name, expected in sums.items():
        with open(os.path.join(PAGE, name), "rb") as file:
            assert hashlib.sha256(file.read()).hexdigest() == expected, name
    with open(os.path.join(PAGE, "maplibre-gl-LICENSE.txt")) as file:
        assert "3-Clause BSD" in file.read()


def test_page_loads_without_console_errors(page):
    assert page.evaluate("viewSeek(100)") == 100
    assert page.errors == []
    assert page.evaluate("viewState.failures") == 0
    sets = page.eval_on_selector_all("#layer-sets input[data-set]", "boxes => boxes.map(b => b.dataset.set)")
    assert sets == ["roads", "speed-limits", "traffic", "route", "horizon", "objects"]


def test_vehicle_marker_moves_when_time_advances(page):
    marker = "[viewState.vehicle, document.querySelector('.vehicle').style.transform]"
    page.evaluate("viewFollow('off')")
    page.evaluate("viewSeek(30)")
    before = page.evaluate(marker)
    page.evaluate("viewSeek(40)")
    after = page.evaluate(marker)
    assert before[0] != after[0] and before[1] != after[1]
    # Playing moves it too: wait until replay time has advanced by two seconds.
    page.evaluate("viewPlay(4)")
    page.wait_for_function("viewState.time >= 42 && viewState.horizonTime >= 41", timeout=60_000)
    page.evaluate("viewPause()")
    assert page.evaluate("viewState.vehicle") != after[0]
    assert page.errors == []


@pytest.mark.parametrize("time", MOMENTS)
def test_main_path_layer_has_the_ways_of_horizon_at(page, map_path, time):
    expected = horizon_at(map_path, time)
    assert page.evaluate(f"viewSeek({time})") == expected["time_s"]
    assert page.evaluate("viewFitHorizon()")
    rendered = page.evaluate(
        "map.queryRenderedFeatures({layers: ['horizon-main-path']}).map(f => f.properties.way_id)")
    assert set(rendered) == {way["way_id"] for way in expected["main_path"]}
    matched = page.evaluate("viewState.horizon.features.features.find(f => f.properties.kind === 'matched')")
    assert matched["properties"]["state"] == expected["state"]
    assert page.errors == []


def test_bus_panel_counts_the_frames_adasis_replay_sends(page, map_path, tmp_path):
    log = tmp_path / "replay.log"
    subprocess.run([adasis(), "replay", "--map", map_path, DRIVE, "--candump", str(log)], check=True,
                   capture_output=True)
    times = [float(line.split()[0].strip("()")) for line in log.read_text().splitlines()]
    page.evaluate(f"viewSeek({MOMENTS[0]})")
    bus = page.evaluate("viewState.horizon.bus")
    # The panel shows what was sent before the fix (the tick at the fix's own time comes after it).
    assert sum(bus["sent"].values()) == sum(1 for t in times if t < MOMENTS[0] - 1e-6)
    assert bus["frames_last_second"] == sum(1 for t in times if MOMENTS[0] - 1 < t < MOMENTS[0] - 1e-6)
    assert bus["load_percent"] > 0 and len(bus["frames"]) == 12
    shown = page.eval_on_selector_all("#frames li", "items => items.map(i => i.textContent)")
    assert len(shown) == 12 and any(" POSITION " in line.upper() or "position" in line for line in shown)


def relative_band(current, free):
    """Docs/traffic-feed.md's relative bands: 15, 40, 65 and 85 % of free flow."""
    ratio = current / free
    return next(name for limit, name in [(0.15, "stationary"), (0.40, "queuing"), (0.65, "slow"), (0.85, "light"),
                                         (float("inf"), "free")] if ratio < limit)


def test_traffic_layer_shows_the_feeds_flow_and_incidents(page):
    served = page.evaluate("fetch('/traffic.geojson').then(r => r.json())")["features"]
    flows = [f for f in served if f["properties"]["kind"] == "flow"]
    incidents = [f for f in served if f["properties"]["kind"] == "incident"]
    assert flows and [f["properties"]["id"] for f in incidents] == ["roadworks-1"]  # jam-1 ended at 11:55
    for flow in flows:
        p = flow["properties"]
        assert p["relative"] == ("closed" if p["closed"] else relative_band(p["current_speed_kmh"], p["free_flow_kmh"]))
    page.evaluate("viewFollow('off')")
    page.evaluate("""() => fetch('/traffic.geojson').then(r => r.json()).then(c => {
            const all = c.features.flatMap(f => f.geometry.coordinates);
            const b = all.reduce((b, p) => b.extend(p), new maplibregl.LngLatBounds(all[0], all[0]));
            map.fitBounds(b, {padding: 80, duration: 0});
            return map.once('idle'); })""")
    rendered = page.evaluate("map.queryRenderedFeatures({layers: ['traffic-flow']}).map(f => f.properties.link)")
    assert set(rendered) == {f["properties"]["link"] for f in flows}
    assert page.evaluate("map.queryRenderedFeatures({layers: ['traffic-incidents']}).length") > 0
    page.evaluate("viewSetFlowMode('absolute')")
    assert page.evaluate("map.getPaintProperty('traffic-flow', 'line-color')[1]") == ["get", "absolute"]
    assert page.errors == []


def test_screenshot_shows_the_main_path_in_its_colour(page):
    page.evaluate(f"viewSeek({MOMENTS[0]})")
    page.evaluate("viewFitHorizon()")
    png = page.screenshot()
    if os.environ.get("ADASIS_VIEW_SCREENSHOT"):
        with open(os.environ["ADASIS_VIEW_SCREENSHOT"], "wb") as file:
            file.write(png)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    map_box = page.eval_on_selector("#map", "e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; }")
    colours = image.crop((0, 0, int(map_box[0]), int(map_box[1]))).getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50, "the map area is blank"
    # Midpoints of the main path's segments, projected to the screen, are drawn in its colour.
    points = page.evaluate("""() => viewState.horizon.features.features
        .filter(f => f.properties.kind === 'main_path')
        .flatMap(f => f.geometry.coordinates.slice(1).map((p, i) => {
            const q = f.geometry.coordinates[i];
            const s = map.project([(p[0] + q[0]) / 2, (p[1] + q[1]) / 2]);
            return [s.x, s.y];
        }))""")
    inside = [(x, y) for x, y in points if 2 <= x < map_box[0] - 2 and 2 <= y < map_box[1] - 2]
    assert len(inside) >= 10

    def near_colour(x, y):
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                r, g, b = image.getpixel((int(x) + dx, int(y) + dy))
                if abs(r - MAIN_PATH_COLOUR[0]) + abs(g - MAIN_PATH_COLOUR[1]) + abs(b - MAIN_PATH_COLOUR[2]) < 40:
                    return True
        return False

    hits = sum(near_colour(x, y) for x, y in inside)
    # Objects (signals, cameras) drawn on top may cover a few points.
    assert hits >= 0.8 * len(inside), f"{hits} of {len(inside)} main-path points in its colour"


def measure_playback(page, follow, seconds=5):
    """Frames/s and frame-interval p50/p99 (ms) from requestAnimationFrame timestamps while the
    replay plays at 1x for `seconds`, the camera following as `follow` says."""
    page.evaluate("viewSeek(20)")
    page.evaluate(f"viewFollow('{follow}')")
    page.evaluate("viewPlay(1)")
    stamps = page.evaluate("""seconds => new Promise(resolve => {
        const stamps = [];
        function frame(now) {
            stamps.push(now);
            if (now - stamps[0] < seconds * 1000) requestAnimationFrame(frame); else resolve(stamps);
        }
        requestAnimationFrame(frame);
    })""", seconds)
    page.evaluate("viewPause()")
    intervals = sorted(b - a for a, b in zip(stamps, stamps[1:]))
    fps = (len(stamps) - 1) / ((stamps[-1] - stamps[0]) / 1000)
    return fps, intervals[len(intervals) // 2], intervals[min(len(intervals) - 1, int(len(intervals) * 0.99))]


def test_playback_frame_rate(page):
    """Measures frames/s while playing (printed, with the machine's load; the README keeps them)."""
    load = os.getloadavg()[0]
    for follow in ("edge", "centre"):
        fps, p50, p99 = measure_playback(page, follow)
        print(f"\nadasis view playback, headless Chromium + SwiftShader, follow={follow}: {fps:.1f} frames/s, "
              f"frame interval p50 {p50:.1f} ms p99 {p99:.1f} ms (load average {load:.1f})")
    assert page.evaluate("viewState.time") > 24
    assert page.evaluate("viewState.loads") > 3
    assert page.errors == []


def test_a_port_in_use_and_a_bad_style_end_the_command_with_the_reason(map_path):
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run([adasis(), "view", "--map", map_path, "--replay", DRIVE, "--port", str(port)],
                             capture_output=True, text=True, timeout=300)
    assert run.returncode != 0 and run.stdout == ""
    assert f"cannot listen on 127.0.0.1 port {port}: the port is in use" in run.stderr
    run = subprocess.run([adasis(), "view", "--map", map_path, "--replay", DRIVE, "--style", FEED],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode != 0
    assert "is not a MapLibre style: it needs \"version\": 8" in run.stderr


# Live mode (issue 14): the frames of a candump log played through the reconstructor, as
# `adasis view --can IFACE` reads a bus (the vcan0 path itself: adasisTests/ViewLiveKernelTests).

LIVE_PACE = 10


@pytest.fixture(scope="module")
def live_log(map_path):
    with tempfile.TemporaryDirectory(prefix="adasis-view-live-") as folder:
        path = os.path.join(folder, "esplanadi.log")
        subprocess.run([adasis(), "replay", "--map", map_path, DRIVE, "--preset", "all", "--candump", path],
                       check=True, capture_output=True)
        yield path


@pytest.fixture(scope="module")
def live_server(map_path, live_log):
    process, address = start_view(["--map", map_path, "--candump", live_log, "--speed", str(LIVE_PACE)],
                                  serving=r"serving (http://127\.0\.0\.1:\d+/) \(live from esplanadi\.log\)")
    yield address
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture
def live_page(browser, live_server):
    """The live view, loaded and ready (see opened_view)."""
    with opened_view(browser, live_server) as page:
        yield page


def coordinates_of(features, kinds):
    """The line coordinates of the features of `kinds`, joined in order without repeated joints."""
    points = []
    for feature in features:
        if feature["properties"]["kind"] in kinds and feature["geometry"]["type"] == "LineString":
            for point in feature["geometry"]["coordinates"]:
                if not points or max(abs(point[0] - points[-1][0]), abs(point[1] - points[-1][1])) > 2e-7:
                    points.append(point)
    return points


def test_live_page_moves_the_marker_and_ends_with_what_the_reconstructor_rebuilt(live_page, live_log):
    page = live_page
    assert page.evaluate("viewState.mode") == "live" and page.errors == []
    assert page.is_hidden("#controls") and page.is_visible("#live")
    # The vehicle moves as POSITIONs arrive.
    page.wait_for_function("viewState.vehicle !== null", timeout=60_000)
    first = page.evaluate("viewState.vehicle")
    page.wait_for_function(f"JSON.stringify(viewState.vehicle) !== '{json.dumps(first, separators=(',', ':'))}'",
                           timeout=60_000)
    assert page.evaluate("document.querySelector('.vehicle') !== null")
    # The last frames decoded and the bus load are in the panel while frames arrive.
    page.wait_for_function("viewState.live.bus.frames.length === 12 && viewState.live.bus.load_percent > 0",
                           timeout=60_000)
    assert len(page.eval_on_selector_all("#frames li", "items => items.map(i => i.textContent)")) == 12
    # When the log has been played, the page says no frames come, and shows the horizon the
    # reconstructor rebuilt from the whole log (adasis reconstruct).
    seconds = 221 / LIVE_PACE * 4 + 60
    page.wait_for_function("viewState.live.problem != null && viewState.live.problem.reason.includes('ended')",
                           timeout=seconds * 1000)
    doc = page.evaluate("viewLiveNext()")
    assert "no frames since" in page.inner_text("#source")
    rebuilt = json.loads(subprocess.run([adasis(), "reconstruct", live_log, "--geojson"], check=True,
                                        capture_output=True, text=True).stdout)["features"]
    main = next(f for f in rebuilt if f["properties"]["main"])
    shown = coordinates_of(doc["features"]["features"], {"trailing", "main_path"})
    expected = main["geometry"]["coordinates"]
    # The same line: every shape point the reconstructor holds, in order, and nothing else but
    # the cut at the vehicle (where the trailing part meets the path ahead).
    assert len(shown) in (len(expected), len(expected) + 1)
    near = lambda p, q: max(abs(p[0] - q[0]), abs(p[1] - q[1])) <= 2e-7  # noqa: E731
    remaining = list(expected)
    for point in shown:
        if remaining and near(point, remaining[0]):
            remaining.pop(0)
    assert remaining == []
    side = {f["properties"]["path_index"] for f in rebuilt if not f["properties"]["main"] and
            f["properties"]["parent"] is not None}
    drawn = {f["properties"]["path_id"] for f in doc["features"]["features"] if f["properties"]["kind"] == "side_path"}
    assert drawn == side
    # The main path on the map is the ways its link identifiers name (OSM way ids), as drawn.
    ways = {f["properties"]["way_id"] for f in doc["features"]["features"] if f["properties"]["kind"] == "main_path"}
    assert ways and page.evaluate("viewFitHorizon()")
    rendered = page.evaluate("map.queryRenderedFeatures({layers: ['horizon-main-path']}).map(f => f.properties.way_id)")
    assert set(rendered) == ways
    assert page.errors == [] and page.evaluate("viewState.failures") == 0


# The route and its proposals (issue 14): a drive to a destination with a road closed on the way
# until 60 s. The route goes round the closure; when the feed expires, replanning finds the way
# through (manual acceptance: a proposal), and the driver takes it by steering onto it.

NAVIGATED = os.path.join(ROOT, "Data", "drives", "navigated", "nav-diagonal.csv")
ORIGIN, DESTINATION = "60.165,24.938", "60.177,24.951"


@pytest.fixture(scope="module")
def proposal_server(map_path):
    with tempfile.TemporaryDirectory(prefix="adasis-view-routes-") as folder:
        planned = subprocess.run([adasis(), "route", "--map", map_path, "--from", ORIGIN, "--to", DESTINATION],
                                 check=True, capture_output=True, text=True).stdout
        closed = [line for line in planned.splitlines() if line.startswith("L")][54]
        feed = os.path.join(folder, "closure.json")
        with open(feed, "w") as file:
            json.dump({"trafficModelId": "7", "generatedAt": "2026-11-25T12:00:00Z",
                       "validUntil": "2026-11-25T12:01:00Z",
                       "flowSegments": [], "incidents": [{"id": "closure-1", "iconCategory": 8, "roadClosed": True,
                                                          "links": [closed], "startTime": "2026-11-25T11:00:00Z",
                                                          "endTime": "2026-11-25T13:00:00Z"}]}, file)
        process, address = start_view(["--map", map_path, "--replay", NAVIGATED, "--destination", DESTINATION,
                                       "--traffic", feed, "--acceptance", "manual", "--min-time-difference", "60"])
        yield address, closed
        process.terminate()
        process.wait(timeout=10)


def test_route_and_its_proposal_are_drawn_and_toggle(browser, proposal_server):
    url, closed = proposal_server
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_function("window.viewReady === true", timeout=120_000)
    served = page.evaluate("fetch('/route.geojson').then(r => r.json())")["features"]
    links = lambda kind, rid: {f["properties"]["link"] for f in served  # noqa: E731
                               if f["properties"]["kind"] == kind and f["properties"]["route_id"] == rid}
    page.evaluate("viewFollow('off')")
    page.evaluate("""() => fetch('/route.geojson').then(r => r.json()).then(c => {
            const all = c.features.flatMap(f => f.geometry.coordinates);
            const b = all.reduce((b, p) => b.extend(p), new maplibregl.LngLatBounds(all[0], all[0]));
            map.fitBounds(b, {padding: 40, duration: 0});
            return map.once('idle'); })""")
    rendered = lambda layer: page.evaluate(  # noqa: E731
        f"map.queryRenderedFeatures({{layers: ['{layer}']}}).map(f => [f.properties.route_id, f.properties.link])")

    # Before the feed expires: route 1 goes round the closed road, nothing proposed.
    page.evaluate("viewSeek(30)")
    assert page.evaluate("viewState.routes") == {"active": 1}
    assert {r for r, _ in rendered("route")} == {1} and rendered("route-proposals") == []
    assert closed not in links("route", 1)
    # After it: the way through the reopened road is proposed, drawn beside the route.
    page.evaluate("viewSeek(100)")
    routes = page.evaluate("viewState.routes")
    assert routes["active"] == 1 and routes["proposal"] == 2 and routes["proposal_reason"] == "better_route"
    assert routes["time_saved_s"] >= 60
    proposal = rendered("route-proposals")
    assert {r for r, _ in proposal} == {2} and {link for _, link in proposal} <= links("proposal", 2)
    assert closed in links("proposal", 2)
    assert "route 2 (better_route, saves" in page.inner_text("#state")
    # The layer set switches both off, and on again.
    page.evaluate("viewSetLayerSet('route', false)")
    page.evaluate("map.once('idle')")
    assert rendered("route") == [] and rendered("route-proposals") == []
    page.evaluate("viewSetLayerSet('route', true)")
    page.evaluate("map.once('idle')")
    assert rendered("route-proposals") != []
    # The driver steers onto it: it is the route, and no proposal is left.
    page.evaluate("viewSeek(250)")
    assert page.evaluate("viewState.routes") == {"active": 2}
    assert {r for r, _ in rendered("route")} == {2} and rendered("route-proposals") == []
    assert errors == []
    context.close()


def test_live_document_latency(live_server):
    """Measures how long /live.json takes (the page polls it every 250 ms) while the log plays:
    p50/p99 over 200 requests, printed with the machine's load (the README keeps them)."""
    import time
    import urllib.request
    times, sizes = [], []
    for _ in range(200):
        start = time.perf_counter()
        with urllib.request.urlopen(live_server + "live.json") as response:
            body = response.read()
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(body))
        assert json.loads(body)["mode"] == "live"
    times.sort()
    print(f"\nadasis view live: /live.json p50 {times[100]:.1f} ms, p99 {times[197]:.1f} ms, "
          f"body p50 {sorted(sizes)[100] / 1024:.0f} KiB (load average {os.getloadavg()[0]:.1f})")
