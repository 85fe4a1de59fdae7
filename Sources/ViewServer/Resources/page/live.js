// adasis view, live mode: the horizon a receiving ECU rebuilds from the bus (adasis view --can
// IFACE, or --candump LOG played back), polled from /live.json every LIVE_POLL_MS. Uses view.js's
// map, state and panel helpers (loaded after this file; called only once both are loaded).
// Exposes for tests: viewState.live (the last document), viewState.liveLoads, and
// viewLiveNext(), which resolves with the next document once it is drawn.
'use strict';

const LIVE_POLL_MS = 250;
let liveWaiters = [];
let markerShown = false;

// "12:03:04" for a time in seconds since the epoch.
function clockText(seconds) {
  return new Date(seconds * 1000).toISOString().slice(11, 19);
}

function renderLiveSource(doc) {
  const list = $('source');
  list.replaceChildren();
  row(list, 'source', doc.source);
  let status;
  if (doc.last_frame_s == null) {
    status = doc.problem ? `no frames yet: ${doc.problem.reason}` : 'no frames yet';
  } else if (doc.problem || doc.silent_s > 2) {
    status = `no frames since ${clockText(doc.last_frame_s)} (${doc.silent_s.toFixed(0)} s)`;
    if (doc.problem) status += `: ${doc.problem.reason}`;
  } else {
    status = `receiving (last frame ${clockText(doc.last_frame_s)} UTC)`;
  }
  row(list, 'status', status);
  if (doc.recoveries > 0) row(list, 'recovered', `${doc.recoveries} times`);
  $('source').dataset.silent = String(doc.problem != null || doc.last_frame_s == null || doc.silent_s > 2);
}

function renderLivePanel(doc) {
  renderLiveSource(doc);
  const tree = doc.tree;
  const fix = $('fix');
  fix.replaceChildren();
  row(fix, 'position', tree.position_path != null
    ? `path ${tree.position_path}, ${tree.position_offset_m ?? '?'} m` : '—');
  if (tree.speed_kmh != null) row(fix, 'speed', `${tree.speed_kmh.toFixed(0)} km/h`);
  row(fix, 'meta-data', tree.meta_data || 'none received');
  const st = $('state');
  st.replaceChildren();
  row(st, 'main path', tree.main_path != null ? `path ${tree.main_path}` : '—');
  row(st, 'paths', `${tree.paths.length}, ${tree.re_roots} re-roots`);
  row(st, 'on the map', tree.placement);
  const ahead = $('ahead');
  ahead.replaceChildren();
  row(ahead, 'speed limit', tree.speed_limit_kmh != null ? `${tree.speed_limit_kmh} km/h` : '—');
  const item = (a) => (a ? `${a.distance_m} m: ${a.detail}` : '—');
  row(ahead, 'next limit', item(tree.next_speed_limit));
  row(ahead, 'camera', item(tree.next_camera));
  const objects = $('objects');
  objects.replaceChildren();
  for (const object of tree.objects_ahead) {
    const li = document.createElement('li');
    li.textContent = `${object.detail} in ${object.distance_m} m`;
    objects.append(li);
  }
  for (const path of tree.paths.slice(0, 12)) {
    const li = document.createElement('li');
    const where = path.parent != null ? ` from ${path.parent} at ${path.branch_offset_m} m` : '';
    const profiles = Object.entries(path.profiles).map(([name, n]) => `${name} ${n}`).join(', ');
    li.textContent = `path ${path.index}${where}: ${path.segments} segments, ${path.stubs} stubs${profiles ? ', ' + profiles : ''}`;
    li.className = 'live-path';
    objects.append(li);
  }
  const bus = doc.bus;
  const list = $('bus');
  list.replaceChildren();
  row(list, 'bus load', `${bus.load_percent.toFixed(1)} % of 500 kbit/s (${bus.frames_last_second} frames in 1 s)`);
  row(list, 'received', Object.entries(bus.sent).map(([type, count]) => `${type} ${count}`).join(', ') || '—');
  row(list, 'other', `${bus.not_adasis} not ADASIS, ${bus.undecodable} undecodable, ${bus.counter_gaps} counter gaps`);
  if (bus.dropped > 0) row(list, 'dropped', `${bus.dropped} frames lost in the kernel (this view read slower than the bus)`);
  const frames = $('frames');
  frames.replaceChildren();
  for (const frame of bus.frames.slice().reverse()) {
    const li = document.createElement('li');
    li.textContent = `${clockText(frame.time_s)} ${frame.id} ${frame.text}`;
    li.title = li.textContent;
    frames.append(li);
  }
  const counters = $('counters');
  counters.replaceChildren();
  row(counters, 'documents loaded', `${state.liveLoads}`);
  row(counters, 'failures', `${state.failures}`);
  row(counters, 'frames/s', `${state.fps.toFixed(0)}`);
}

function applyLive(doc) {
  map.getSource('horizon').setData(doc.features);
  state.live = doc;
  state.horizon = doc;
  state.liveLoads += 1;
  const position = doc.features.features.find((f) => f.properties.kind === 'matched');
  if (position) {
    const first = state.vehicle === null;
    state.vehicle = position.geometry.coordinates;
    marker.setLngLat(state.vehicle);
    if (!markerShown) { marker.addTo(map); markerShown = true; }
    if (first) map.jumpTo({ center: state.vehicle, zoom: 16 }); else follow(state.vehicle);
  }
  renderLivePanel(doc);
}

async function pollLive() {
  try {
    const doc = await fetchJSON('/live.json');
    applyLive(doc);
    const waiters = liveWaiters;
    liveWaiters = [];
    if (waiters.length) {
      await map.once('idle');
      for (const resolve of waiters) resolve(doc);
    }
  } catch (error) {
    showError(String(error));
  }
  setTimeout(pollLive, LIVE_POLL_MS);
}

// Resolves with the next live document, once it is drawn.
window.viewLiveNext = () => new Promise((resolve) => { liveWaiters.push(resolve); });

async function mainLive(style, mode) {
  state.liveLoads = 0;
  state.live = null;
  $('controls').hidden = true;
  $('live').hidden = false;
  document.title = `adasis view: live from ${mode.source}`;
  map = new maplibregl.Map({
    container: 'map', style: absolutise(style), center: [0, 0], zoom: 1,
    attributionControl: false, fadeDuration: 0,
  });
  window.map = map;
  map.on('error', (event) => showError(String(event.error && event.error.message || event.error)));
  const element = document.createElement('div');
  element.className = 'vehicle';
  marker = new maplibregl.Marker({ element }).setLngLat([0, 0]);
  await map.once('load');
  buildLayerToggles(style);
  $('flow-mode').addEventListener('change', () => setFlowMode($('flow-mode').value));
  applyLive(await fetchJSON('/live.json'));
  await map.once('idle');
  state.ready = true;
  window.viewReady = true;
  setTimeout(pollLive, LIVE_POLL_MS);
  requestAnimationFrame(liveTick);
}

let liveFrames = [];
function liveTick(now) {
  liveFrames.push(now);
  while (liveFrames.length && now - liveFrames[0] > 1000) liveFrames.shift();
  state.fps = liveFrames.length;
  requestAnimationFrame(liveTick);
}
