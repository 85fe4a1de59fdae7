// adasis view: the horizon of a replayed drive, or live from a CAN bus, on MapLibre GL JS.
// Plain script, no build step (live mode: live.js).
// The page exposes its state for tests and tools: window.viewState (ready, time, playing,
// horizonTime, loads, vehicle), window.viewReady, window.map, and the functions viewSeek(t),
// viewPlay(speed), viewPause(), viewFitHorizon(), viewSetLayerSet(name, visible).
'use strict';

const state = {
  ready: false, time: 0, playing: false, speed: 1, follow: 'edge',
  horizonTime: null, frameIndex: -1, loads: 0, failures: 0, vehicle: null, fps: 0,
};
window.viewState = state;
window.viewReady = false;

const $ = (id) => document.getElementById(id);
let timeline = null;
let map = null;
let marker = null;
let pending = Promise.resolve();
let requestNumber = 0;

function showError(message) {
  $('error').textContent = message;
  state.failures += 1;
}

async function fetchJSON(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

// MapLibre needs absolute URLs for tiles and GeoJSON data; the style gives paths on this server.
function absolutise(style) {
  for (const source of Object.values(style.sources || {})) {
    if (Array.isArray(source.tiles)) {
      source.tiles = source.tiles.map((url) => (url.startsWith('/') ? location.origin + url : url));
    }
    if (typeof source.data === 'string' && source.data.startsWith('/')) source.data = location.origin + source.data;
    if (typeof source.url === 'string' && source.url.startsWith('/')) source.url = location.origin + source.url;
  }
  return style;
}

// The layer sets of the style: its metadata's list, else those its layers name.
function layerSets(style) {
  const named = (style.metadata && style.metadata['adasis:layer-sets']) || [];
  const used = style.layers.map((l) => l.metadata && l.metadata['adasis:layer-set']).filter(Boolean);
  return [...new Set([...named, ...used])].filter((set) => used.includes(set));
}

function setLayerSet(name, visible) {
  for (const layer of map.getStyle().layers) {
    if (layer.metadata && layer.metadata['adasis:layer-set'] === name) {
      map.setLayoutProperty(layer.id, 'visibility', visible ? 'visible' : 'none');
    }
  }
  const box = document.querySelector(`#layer-sets input[data-set="${name}"]`);
  if (box) box.checked = visible;
}
window.viewSetLayerSet = setLayerSet;

// Shades the traffic flow by one of the four display modes (a property of each flow feature).
function setFlowMode(mode) {
  if (!map.getLayer('traffic-flow')) return;
  const color = map.getPaintProperty('traffic-flow', 'line-color');
  if (Array.isArray(color) && color[0] === 'match') {
    map.setPaintProperty('traffic-flow', 'line-color', ['match', ['get', mode], ...color.slice(2)]);
  }
  map.setFilter('traffic-flow', ['all', ['==', ['get', 'kind'], 'flow'], ['!=', ['get', mode], 'hidden']]);
  $('flow-mode').value = mode;
}
window.viewSetFlowMode = setFlowMode;

function buildLayerToggles(style) {
  const container = $('layer-sets');
  for (const set of layerSets(style)) {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = true;
    box.dataset.set = set;
    box.addEventListener('change', () => setLayerSet(set, box.checked));
    label.append(box, ' ', set);
    container.append(label);
  }
  const followLabel = document.createElement('label');
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.checked = true;
  box.addEventListener('change', () => { state.follow = box.checked ? 'edge' : 'off'; });
  followLabel.append(box, ' follow vehicle');
  container.append(followLabel);
}

// Index of the last fix at or before t (0 before the first).
function frameIndex(t) {
  const times = timeline.times;
  let low = 0;
  let high = times.length - 1;
  if (t <= times[0]) return 0;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (times[middle] <= t + 1e-6) low = middle; else high = middle - 1;
  }
  return low;
}

// The vehicle between two fixes, linearly.
function vehicleAt(t) {
  const i = frameIndex(t);
  const j = Math.min(i + 1, timeline.times.length - 1);
  const [t0, t1] = [timeline.times[i], timeline.times[j]];
  const f = j > i && t1 > t0 ? Math.min(1, Math.max(0, (t - t0) / (t1 - t0))) : 0;
  const [a, b] = [timeline.fixes[i], timeline.fixes[j]];
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
}

function row(list, name, value) {
  const dt = document.createElement('dt');
  dt.textContent = name;
  const dd = document.createElement('dd');
  dd.textContent = value;
  list.append(dt, dd);
}

function renderPanel(doc) {
  const s = doc.snapshot;
  const fix = $('fix');
  fix.replaceChildren();
  row(fix, 'time', `${doc.time_s.toFixed(1)} s`);
  row(fix, 'position', `${doc.fix[1].toFixed(6)}, ${doc.fix[0].toFixed(6)}`);
  if (doc.speed_mps != null) row(fix, 'speed', `${(doc.speed_mps * 3.6).toFixed(0)} km/h`);
  if (doc.heading_deg != null) row(fix, 'heading', `${doc.heading_deg.toFixed(0)}°`);
  const st = $('state');
  st.replaceChildren();
  row(st, 'state', s.state);
  if (s.link_id) row(st, 'link', `${s.link_id} (way ${s.way_id})`);
  if (s.confidence != null) row(st, 'confidence', s.confidence.toFixed(3));
  row(st, 'main path', `${s.main_path.length} ways, ${s.main_path.reduce((a, w) => a + w.length_m, 0).toFixed(0)} m`);
  row(st, 'side paths', `${s.side_paths.length}`);
  const routes = doc.routes || {};
  row(st, 'route', routes.active != null ? `route ${routes.active}${s.following_route ? ', followed' : ''}` : 'none');
  if (routes.proposal != null) {
    row(st, 'proposal', `route ${routes.proposal} (${routes.proposal_reason}, saves ${routes.time_saved_s.toFixed(0)} s)`);
  }
  const ahead = $('ahead');
  ahead.replaceChildren();
  const names = { speed_limit_change: 'speed limit', curve: 'curve', camera: 'camera',
    traffic_signals: 'signals', tunnel: 'tunnel', intersection: 'intersection' };
  for (const [key, label] of Object.entries(names)) {
    const item = s.ahead && s.ahead[key];
    row(ahead, label, item ? `${item.distance_m.toFixed(0)} m: ${item.detail}` : '—');
  }
  const objects = $('objects');
  objects.replaceChildren();
  for (const object of s.objects.slice(0, 8)) {
    const li = document.createElement('li');
    li.textContent = `${object.type} in ${object.distance_m.toFixed(0)} m`;
    objects.append(li);
  }
  const filtered = doc.features.features.filter((f) => f.properties.kind === 'filtered_object').length;
  if (filtered > 0) {
    const li = document.createElement('li');
    li.textContent = `${filtered} safety locations filtered by the legal rules (grey)`;
    objects.append(li);
  }
  renderBus(doc.bus);
  renderCounters();
}

// What the provider sent up to this fix: load, counts and the last frames, decoded.
function renderBus(bus) {
  const list = $('bus');
  list.replaceChildren();
  const frames = $('frames');
  frames.replaceChildren();
  if (!bus) return;
  row(list, 'bus load', `${bus.load_percent.toFixed(1)} % of 500 kbit/s (${bus.frames_last_second} frames in 1 s)`);
  const sent = Object.entries(bus.sent).map(([type, count]) => `${type} ${count}`).join(', ');
  row(list, 'sent', sent || '—');
  row(list, 'dropped', `${bus.dropped}`);
  row(list, 'updates', `${bus.updates}, ${bus.new_main_paths} new main paths`);
  for (const frame of bus.frames.slice().reverse()) {
    const li = document.createElement('li');
    li.textContent = `${frame.time_s.toFixed(1)} ${frame.id} ${frame.text}`;
    li.title = li.textContent;
    frames.append(li);
  }
}

function renderCounters() {
  const counters = $('counters');
  counters.replaceChildren();
  row(counters, 'fix', `${state.frameIndex + 1} of ${timeline.times.length}`);
  row(counters, 'horizons loaded', `${state.loads}`);
  row(counters, 'failures', `${state.failures}`);
  row(counters, 'frames/s', `${state.fps.toFixed(0)}`);
}

// Shows the route active at this fix and the pending proposal (ids in /route.geojson): the
// style's layers with metadata adasis:route-role "active" or "proposal".
function showRoutes(routes) {
  const ids = { active: routes ? routes.active : undefined, proposal: routes ? routes.proposal : undefined };
  state.routes = routes || null;
  for (const layer of map.getStyle().layers) {
    const role = layer.metadata && layer.metadata['adasis:route-role'];
    if (!role) continue;
    const kind = role === 'active' ? 'route' : 'proposal';
    map.setFilter(layer.id, ['all', ['==', ['get', 'kind'], kind], ['==', ['get', 'route_id'], ids[role] ?? -1]]);
  }
}

// Loads the horizon of fix `index` (latest request wins).
function loadHorizon(index) {
  const number = ++requestNumber;
  const t = timeline.times[index];
  pending = fetchJSON(`/horizon.json?t=${t}`).then((doc) => {
    if (number !== requestNumber) return;
    map.getSource('horizon').setData(doc.features);
    state.horizonTime = doc.time_s;
    state.horizon = doc;
    state.loads += 1;
    showRoutes(doc.routes);
    renderPanel(doc);
  }).catch((error) => showError(String(error)));
  return pending;
}

function showTime(t) {
  state.time = Math.min(Math.max(t, timeline.start_s), timeline.end_s);
  $('time').value = String(state.time);
  $('clock').textContent = `${state.time.toFixed(1)} s`;
  state.vehicle = vehicleAt(state.time);
  marker.setLngLat(state.vehicle);
  follow(state.vehicle);
  const index = frameIndex(state.time);
  if (index !== state.frameIndex) {
    state.frameIndex = index;
    loadHorizon(index);
  }
}

// Keeps the vehicle in view. 'edge' (the default) recentres only when the vehicle leaves the
// middle 60 % of the map, so the map is redrawn now and then rather than at every frame;
// 'centre' keeps it centred (a redraw per frame); 'off' leaves the camera alone.
function follow(position) {
  if (state.follow === 'centre') { map.setCenter(position); return; }
  if (state.follow !== 'edge') return;
  const point = map.project(position);
  const { clientWidth: width, clientHeight: height } = map.getContainer();
  if (point.x < 0.2 * width || point.x > 0.8 * width || point.y < 0.2 * height || point.y > 0.8 * height) {
    map.setCenter(position);
  }
}
window.viewFollow = (mode) => { state.follow = mode; };

let lastFrame = null;
let fpsWindow = [];
function tick(now) {
  if (state.playing && lastFrame !== null) {
    showTime(state.time + ((now - lastFrame) / 1000) * state.speed);
    if (state.time >= timeline.end_s) pause();
  }
  lastFrame = now;
  fpsWindow.push(now);
  while (fpsWindow.length && now - fpsWindow[0] > 1000) fpsWindow.shift();
  state.fps = fpsWindow.length;
  requestAnimationFrame(tick);
}

function play(speed) {
  if (speed) { state.speed = Number(speed); $('speed').value = String(speed); }
  if (state.time >= timeline.end_s) showTime(timeline.start_s);
  state.playing = true;
  $('play').textContent = 'Pause';
}
function pause() {
  state.playing = false;
  $('play').textContent = 'Play';
}
window.viewPlay = play;
window.viewPause = pause;

// Shows replay time t and resolves once its horizon is drawn: the fix time shown.
window.viewSeek = async function viewSeek(t) {
  pause();
  showTime(Number(t));
  await pending;
  await map.once('idle');
  return state.horizonTime;
};

// Fits the map to the main path ahead and resolves once drawn.
window.viewFitHorizon = async function viewFitHorizon() {
  state.follow = 'off';
  const points = state.horizon.features.features
    .filter((f) => f.properties.kind === 'main_path').flatMap((f) => f.geometry.coordinates);
  if (points.length === 0) return false;
  const bounds = points.reduce((b, p) => b.extend(p), new maplibregl.LngLatBounds(points[0], points[0]));
  map.fitBounds(bounds, { padding: 60, duration: 0, maxZoom: 18 });
  await map.once('idle');
  return true;
};

async function main() {
  const [style, mode] = await Promise.all([fetchJSON('/style.json'), fetchJSON('/view.json')]);
  state.mode = mode.mode;
  if (mode.mode === 'live') return mainLive(style, mode);
  const summary = await fetchJSON('/timeline.json');
  timeline = summary;
  map = new maplibregl.Map({
    container: 'map', style: absolutise(style), center: timeline.fixes[0], zoom: 16,
    attributionControl: false, fadeDuration: 0,
  });
  window.map = map;
  map.on('error', (event) => showError(String(event.error && event.error.message || event.error)));
  const element = document.createElement('div');
  element.className = 'vehicle';
  marker = new maplibregl.Marker({ element }).setLngLat(timeline.fixes[0]).addTo(map);
  await map.once('load');
  buildLayerToggles(style);
  const slider = $('time');
  slider.min = String(timeline.start_s);
  slider.max = String(timeline.end_s);
  $('end').textContent = `${timeline.end_s.toFixed(1)} s`;
  slider.addEventListener('input', () => { pause(); showTime(Number(slider.value)); });
  $('play').addEventListener('click', () => (state.playing ? pause() : play()));
  $('speed').addEventListener('change', () => { state.speed = Number($('speed').value); });
  $('flow-mode').addEventListener('change', () => setFlowMode($('flow-mode').value));
  showTime(timeline.start_s);
  await pending;
  await map.once('idle');
  state.ready = true;
  window.viewReady = true;
  requestAnimationFrame(tick);
}

main().catch((error) => {
  showError(String(error));
  console.error(error);
});
