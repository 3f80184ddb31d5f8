// Recordings: the lanes of running apps, as they arrive. Each subscription is a bar from when it
// began to how it ended; values are marbles on it, demand ticks under it. The view follows the
// newest events until paused, zooms and pans, and shows any value clicked.
import { changeLine, changes } from './diff.js';
import { api, docsLink, el, socketURL, status } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const LABEL = 150; // the lane names' column, in pixels
const ROW = 30; // one subscription's row
const LANE_GAP = 14;
// The most events a page holds: a recording longer than this is drawn from its latest events.
const MOST_EVENTS = 200_000;

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null) continue;
    if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * `text` with the characters that reorder what follows (bidi overrides, embeddings and
 * isolates) written out as `\u{…}`, so that a lane named to look like another cannot.
 */
function visible(text) {
  return String(text).replace(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g,
    (character) => `\\u{${character.codePointAt(0).toString(16).toUpperCase()}}`);
}

/** A recorded value as the page shows it: an empty one as `""`, so that it reads as a value. */
function valueText(value) {
  return value === '' ? '""' : visible(value);
}

// The width a label of `text` takes in the chart's 10-pixel type, about; labels are placed
// only where this much room is free, so that none is drawn on another.
const labelWidth = (text) => 6.2 * [...text].length;
const shortened = (text, most = 24) => ([...text].length > most ? `${[...text].slice(0, most - 1).join('')}…` : text);

function failure(body, fallback) {
  // Recordings are the lab's owner's: a visitor is told where the way in is, in the page's words.
  if (body?.error?.code === 'unauthorized') return 'Recordings need the lab’s token: open the link that tributary lab printed.';
  return body?.error?.message ?? fallback;
}

/**
 * `seconds` as people read a span: 850 ms, 2.4 s, 3 min 5 s; with as many decimals as `step`
 * (the distance to the next label) needs, so that neighbouring labels never read the same.
 */
export function span(seconds, step = 1) {
  const decimals = Math.min(3, Math.max(0, -Math.floor(Math.log10(step))));
  if (seconds < 1 && step < 1) return `${(seconds * 1000).toFixed(Math.max(0, decimals - 3))} ms`;
  if (seconds < 60) return `${seconds.toFixed(Math.max(decimals, seconds < 10 && step >= 1 ? 0 : decimals))} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${(seconds - minutes * 60).toFixed(decimals)} s`;
}

export function renderRecordings(main, navigate) {
  const id = decodeURIComponent(location.pathname.split('/')[2] ?? '');
  return id ? renderRecording(main, navigate, id) : renderList(main, navigate);
}

function renderList(main, navigate) {
  const list = el('div', {}, status('loading', 'Loading recordings…'));
  // A recording's file — a bug report, another lab's export — dropped here or chosen becomes a
  // recording of this lab; a wrong one is refused with the line that is wrong, and nothing kept.
  const importStatus = el('div', { id: 'import-status', 'aria-live': 'polite' });
  const chooser = el('input', { type: 'file', accept: '.ndjson,application/x-ndjson', id: 'import-file', class: 'visually-hidden' });
  const drop = el('label', { class: 'drop', for: 'import-file' },
    el('strong', {}, 'Import a recording’s file'), ' — drop it here, or choose one (',
    el('code', {}, '.tributary.ndjson'), ', as “Download file” saves it).', chooser);
  async function importFile(file) {
    if (!file) return;
    importStatus.replaceChildren(status('loading', `Importing “${file.name}”…`));
    const answer = await api('/api/recordings/import', { method: 'POST', body: file, headers: { 'Content-Type': 'application/x-ndjson' } })
      .catch(() => null);
    if (gone) return;
    if (answer?.status === 201) {
      navigate(`/recordings/${encodeURIComponent(answer.body.id)}`);
      return;
    }
    importStatus.replaceChildren(status('failed', `“${file.name}” was not imported: ${failure(answer?.body, 'the lab could not be reached.')}`));
  }
  chooser.addEventListener('change', () => importFile(chooser.files[0]));
  for (const name of ['dragenter', 'dragover']) {
    drop.addEventListener(name, (event) => { event.preventDefault(); drop.classList.add('over'); });
  }
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    importFile(event.dataTransfer.files[0]);
  });
  main.append(
    el('h1', {}, 'Recordings'),
    el(
      'p',
      { class: 'hint' },
      'Pipelines of running apps, recorded with the lane operator. Run ',
      el('code', {}, 'tributary lab --record'),
      ' to record this lab’s own news reader, or send an app’s lanes with ',
      el('code', {}, 'LabLaneRecorder'),
      '.'
    ),
    drop,
    importStatus,
    list
  );
  let gone = false;
  (async () => {
    const answer = await api('/api/recordings').catch(() => null);
    if (gone) return;
    if (!answer?.ok) {
      // Without the token nothing can be imported either.
      if (answer?.status === 401) drop.remove();
      list.replaceChildren(status('failed', failure(answer?.body, 'The recordings could not be read.')));
      return;
    }
    const recordings = answer.body.recordings ?? [];
    if (recordings.length === 0) {
      list.replaceChildren(status('empty', 'Nothing has been recorded yet.'));
      return;
    }
    list.replaceChildren(
      el(
        'ul',
        { class: 'docs recordings' },
        recordings.map((recording) =>
          el(
            'li',
            {},
            el('a', { href: `/recordings/${encodeURIComponent(recording.id)}`, 'data-internal': true }, visible(recording.name)),
            el(
              'span',
              { class: 'meta' },
              `${recording.events} event${recording.events === 1 ? '' : 's'}`,
              recording.dropped ? ` · ${recording.dropped} dropped` : '',
              recording.updatedAt ? ` · ${new Date(recording.updatedAt).toLocaleString()}` : ''
            )
          )
        )
      )
    );
  })();
  return () => { gone = true; };
}

/** The lanes and their subscriptions, built up from events as they arrive. */
class Lanes {
  constructor() {
    this.events = []; // every event as it came, to be drawn again from the first
    this.rowsCache = new Map();
    this.lanes = new Map(); // name → Map(subscription → {start, end, kind, error, values, demands, source})
    this.last = 0;
    this.count = 0;
    // Every event's time, lane, subscription and what happened, sorted by time when stepped through.
    this.timeline = [];
    this.sorted = true;
  }

  clear() {
    this.events = [];
    this.rowsCache = new Map();
    this.lanes.clear();
    this.count = 0;
    this.last = 0;
    this.timeline = [];
    this.sorted = true;
  }

  add(event) {
    this.events.push(event);
    this.count += 1;
    const previous = this.timeline[this.timeline.length - 1];
    if (previous && previous.t > event.t) this.sorted = false;
    const entry = { t: event.t, lane: event.lane, subscription: event.subscription, kind: event.kind, value: event.value, error: event.error };
    this.timeline.push(entry);
    this.last = Math.max(this.last, event.t);
    let lane = this.lanes.get(event.lane);
    if (!lane) this.lanes.set(event.lane, (lane = new Map()));
    let bar = lane.get(event.subscription);
    if (!bar) {
      bar = { start: event.t, end: null, kind: null, error: null, values: [], demands: [], source: event.source };
      lane.set(event.subscription, bar);
    }
    bar.start = Math.min(bar.start, event.t);
    switch (event.kind) {
      case 'value': {
        // A structured lane's value keeps its JSON (or that it was cut), and where it stands
        // among its subscription's values, to be compared with the one before it.
        const item = { t: event.t, value: event.value ?? '', structure: event.structure, cut: event.cut === true, index: bar.values.length, bar };
        bar.values.push(item);
        entry.item = item;
        break;
      }
      case 'requested': bar.demands.push({ t: event.t, demand: event.demand }); break;
      case 'finished': case 'failed': case 'cancelled':
        bar.end = event.t; bar.kind = event.kind; bar.error = event.error ?? null; break;
      default: break;
    }
  }

  names() { return [...this.lanes.keys()]; }

  /** The events in time order. */
  ordered() {
    if (!this.sorted) {
      this.timeline.sort((a, b) => a.t - b.t);
      this.sorted = true;
    }
    return this.timeline;
  }

  /** The index of the last event at or before `t`; -1 when none is. */
  indexAt(t) {
    const events = this.ordered();
    let [low, high] = [0, events.length - 1];
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (events[middle].t <= t) { found = middle; low = middle + 1; } else high = middle - 1;
    }
    return found;
  }

  /**
   * Each lane at time `t`: its latest value by then (and when), and its subscriptions alive —
   * begun and not yet ended.
   */
  stateAt(t) {
    return this.names().map((name) => {
      let latest = null;
      const alive = [];
      for (const [subscription, bar] of this.lanes.get(name)) {
        if (bar.start <= t && (bar.end === null || bar.end > t)) alive.push(subscription);
        // Values are in arrival order, which is time order within a subscription.
        let [low, high, found] = [0, bar.values.length - 1, -1];
        while (low <= high) {
          const middle = (low + high) >> 1;
          if (bar.values[middle].t <= t) { found = middle; low = middle + 1; } else high = middle - 1;
        }
        if (found >= 0 && (latest === null || bar.values[found].t >= latest.t)) latest = { ...bar.values[found], subscription };
      }
      return { name, latest, alive };
    });
  }

  /** A lane's bars, each given a row so bars that overlap in time never share one. */
  rows(name) {
    // Kept until the next event: a cursor's frames and a pan's draw the same rows.
    const kept = this.rowsCache.get(name);
    if (kept && kept.count === this.count) return kept.rows;
    const rows = this.placeRows(name);
    this.rowsCache.set(name, { count: this.count, rows });
    return rows;
  }

  placeRows(name) {
    const bars = [...this.lanes.get(name).entries()].map(([subscription, bar]) => ({ subscription, ...bar }));
    bars.sort((a, b) => a.start - b.start);
    const ends = [];
    for (const bar of bars) {
      const end = bar.end ?? Infinity;
      let row = ends.findIndex((free) => free < bar.start);
      if (row < 0) { row = ends.length; ends.push(end); } else { ends[row] = end; }
      bar.row = row;
    }
    return { bars, height: Math.max(ends.length, 1) };
  }
}

/** The index of the first of `items` (in time order) at or after `t`. */
function firstAt(items, t) {
  let [low, high] = [0, items.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (items[middle].t < t) low = middle + 1; else high = middle;
  }
  return low;
}

/**
 * The values (in time order) between `from` and `to`, found by halving: each one when they are
 * few enough to draw, else one a 4-pixel column — its last, with how many more it stands for —
 * so that a dense lane costs a paint its width, not its values. The list says which (`dense`).
 */
function inView(values, from, to, x, plot) {
  const [first, end] = [firstAt(values, from), firstAt(values, to + Number.EPSILON)];
  let last = end;
  while (last < values.length && values[last].t <= to) last += 1;
  if (last - first <= plot / 4) {
    const shown = values.slice(first, last);
    shown.dense = false;
    return shown;
  }
  const shown = [];
  let column = null;
  for (let index = first; index < last; index += 1) {
    const at = Math.floor(x(values[index].t) / 4);
    if (at === column) {
      const kept = shown[shown.length - 1];
      shown[shown.length - 1] = { ...values[index], more: kept.more + 1 };
    } else {
      shown.push({ ...values[index], more: 0 });
      column = at;
    }
  }
  shown.dense = true;
  return shown;
}

/** A structured value's JSON, or `null` when it has none or it does not read. */
function parsed(item) {
  if (typeof item?.structure !== 'string') return null;
  // Read once: a cursor stepping through many lanes shows their values again and again.
  if (item.read === undefined) {
    try { item.read = { value: JSON.parse(item.structure) }; } catch { item.read = null; }
  }
  return item.read;
}

/**
 * What a value of a structured lane changed, as elements: each path added, removed or changed
 * from the subscription's value before it; the whole value for its first; nothing for a value
 * of a lane that keeps no structure.
 */
function structureOf(item) {
  if (!item || (!item.cut && typeof item.structure !== 'string')) return [];
  if (item.cut) return [el('p', { class: 'diff-note' }, 'Its JSON was over the lane\'s limits: only its description was kept.')];
  const now = parsed(item);
  if (!now) return [el('p', { class: 'diff-note' }, 'Its structure is not JSON that can be compared.')];
  const before = item.index > 0 ? item.bar.values[item.index - 1] : null;
  const then = parsed(before);
  if (!then) {
    const why = !before ? 'The first value of its subscription' : before.cut ? 'The value before was cut, so this one whole' : 'The value before kept no structure, so this one whole';
    return [el('p', { class: 'diff-note' }, `${why}:`), el('pre', { class: 'diff-whole' }, visible(JSON.stringify(now.value, null, 2)))];
  }
  const found = changes(then.value, now.value);
  if (found.length === 0) return [el('p', { class: 'diff-note' }, 'Unchanged from the value before.')];
  const shown = found.slice(0, 200);
  return [
    el('p', { class: 'diff-note' }, `${found.length === 1 ? 'One change' : `${found.length} changes`} from the value before:`),
    el('ul', { class: 'diff', 'aria-label': 'Changes from the value before' },
      shown.map((change) => el('li', { class: `diff-${change.kind}` }, el('code', {}, visible(changeLine(change)))))),
    ...(found.length > shown.length ? [el('p', { class: 'diff-note' }, `and ${found.length - shown.length} more.`)] : []),
  ];
}

/**
 * A structured value whole, folded under its description and written out only when unfolded;
 * `unfolded` keeps which lanes' are, as the cursor's table is drawn again at each step.
 */
function wholeOf(item, lane, unfolded) {
  const read = parsed(item);
  if (!read) return [];
  const fill = (details) => {
    if (details.open && !details.querySelector('pre')) details.append(el('pre', { class: 'diff-whole' }, visible(JSON.stringify(read.value, null, 2))));
  };
  const details = el('details', { class: 'whole' }, el('summary', {}, 'as JSON'));
  details.addEventListener('toggle', () => {
    if (details.open) unfolded.add(lane); else unfolded.delete(lane);
    fill(details);
  });
  if (unfolded.has(lane)) { details.open = true; fill(details); }
  return [details];
}

function renderRecording(main, navigate, id) {
  const lanes = new Lanes();
  let recording = { name: id, dropped: 0 };
  let following = true;
  let pxPerSecond = 200;
  let viewStart = 0;
  let socket = null;
  let gone = false;
  let retry = null;
  let drawPending = false;
  let cursorPending = false;
  let firstDrawn = false;
  // What the last paint drew: its view, and the cursor's line, which a cursor's move alone
  // moves without drawing the rest again.
  let painted = null;
  // The lanes whose latest value is unfolded "as JSON" at the cursor.
  const unfolded = new Set();
  // The time cursor, in the recording's seconds: null when none is set. A link keeps it (?t=).
  const linked = Number(new URLSearchParams(location.search).get('t'));
  // A time past any recording's (the lab takes none after 1e9 s) is no cursor.
  let cursor = location.search.includes('t=') && Number.isFinite(linked) && linked >= 0 && linked <= 1e9 ? linked : null;
  if (cursor !== null) following = false;
  // How far past the cursor an event still counts as at it: half a millisecond for a time read
  // from a link or a pointer (a link keeps milliseconds, and times recorded as 1.4000000000000001
  // are at 1.4), none for a cursor stepped onto an event's own time.
  let slack = 0.0005;
  const reach = () => (cursor ?? 0) + slack;
  // Whether the view has been brought to a cursor the link gave, once there are events.
  let placed = cursor === null;

  const title = el('h1', {}, 'Recording');
  const counts = el('span', { class: 'meta', 'aria-live': 'polite' });
  const state = el('div', {}, status('loading', 'Connecting…'));
  const follow = el('button', { class: 'secondary', type: 'button', 'aria-pressed': String(following), onclick: () => {
    following = !following;
    follow.setAttribute('aria-pressed', String(following));
    follow.textContent = following ? 'Pause' : 'Follow live';
    if (following) draw();
  } }, following ? 'Pause' : 'Follow live');
  const zoomIn = el('button', { class: 'secondary', type: 'button', 'aria-label': 'Zoom in', onclick: () => zoom(2) }, '+');
  const zoomOut = el('button', { class: 'secondary', type: 'button', 'aria-label': 'Zoom out', onclick: () => zoom(0.5) }, '−');
  const inputLane = el('select', { 'aria-label': 'Input lane' });
  const outputLane = el('select', { 'aria-label': 'Output lane' });
  const testLink = el('a', { class: 'button secondary', download: 'RecordedLanesTests.swift' }, 'Download test');
  // The whole recording as one file to keep, send or import, and as a trace for Perfetto.
  const fileLink = el('a', { class: 'button secondary', href: `/api/recordings/${encodeURIComponent(id)}/export`, download: '' }, 'Download file');
  const traceLink = el('a', {
    class: 'button secondary', href: `/api/recordings/${encodeURIComponent(id)}/trace.json`, download: '',
    title: 'The Chrome trace event format: open it at ui.perfetto.dev or chrome://tracing',
  }, 'Trace for Perfetto');
  const asDocument = el('button', { class: 'primary', type: 'button', onclick: openAsDocument }, 'Open as document');
  const chart = el('div', { class: 'lanes-chart', tabindex: '0', 'aria-label': 'Lanes; arrow keys pan, + and − zoom' });
  const detail = el('div', { class: 'lane-detail', 'aria-live': 'polite' }, 'Click a value to read it.');
  const atCursor = el('section', { class: 'at-cursor', id: 'at-cursor', 'aria-live': 'polite', 'aria-label': 'At the time cursor' },
    el('p', { class: 'hint' }, 'Click the time axis to set a time cursor; drag it, or step event by event with the arrow keys (Shift and the arrows pan); Escape removes it.'));
  const problems = el('div', {});

  main.append(
    el('p', {}, el('a', { href: '/recordings', 'data-internal': true }, '← All recordings')),
    title,
    counts,
    state,
    el('div', { class: 'controls' },
      follow, zoomOut, zoomIn,
      el('label', {}, 'Input lane', inputLane),
      el('label', {}, 'Output lane', outputLane),
      testLink, fileLink, traceLink, asDocument, docsLink('tributary/recordinglanes', 'The recordings API')),
    problems,
    chart,
    detail,
    atCursor
  );

  function zoom(factor, anchorX = null) {
    const width = Math.max(chart.clientWidth - LABEL, 100);
    const anchor = anchorX ?? width / 2;
    const atAnchor = viewStart + anchor / pxPerSecond;
    pxPerSecond = Math.min(Math.max(pxPerSecond * factor, 0.5), 200000);
    viewStart = Math.max(0, atAnchor - anchor / pxPerSecond);
    draw();
  }

  function pan(seconds) {
    following = false;
    follow.setAttribute('aria-pressed', 'false');
    follow.textContent = 'Follow live';
    viewStart = Math.max(0, viewStart + seconds);
    draw();
  }

  chart.addEventListener('wheel', (event) => {
    if (event.ctrlKey || event.metaKey) {
      event.preventDefault();
      zoom(event.deltaY < 0 ? 1.25 : 0.8, event.offsetX - LABEL);
    } else if (Math.abs(event.deltaX) > Math.abs(event.deltaY) || event.shiftKey) {
      event.preventDefault();
      pan((event.shiftKey ? event.deltaY : event.deltaX) / pxPerSecond);
    }
  }, { passive: false });
  let dragFrom = null;
  let draggingCursor = false;
  /** The recording's time under a pointer's x on the chart. */
  const timeAt = (clientX) => viewStart + (clientX - chart.getBoundingClientRect().left - LABEL) / pxPerSecond;
  chart.addEventListener('pointerdown', (event) => {
    if (event.target.closest('[data-value]')) return;
    // The time axis, and the cursor's own line, set and drag the cursor; the rest pans.
    const y = event.clientY - chart.getBoundingClientRect().top;
    if (y < 24 || event.target.closest('.cursor')) {
      draggingCursor = true;
      setCursor(Math.max(0, timeAt(event.clientX)));
      return;
    }
    dragFrom = { x: event.clientX, start: viewStart };
  });
  addEventListener('pointerup', () => { dragFrom = null; draggingCursor = false; });
  chart.addEventListener('pointermove', (event) => {
    if (draggingCursor) {
      setCursor(Math.max(0, timeAt(event.clientX)));
      return;
    }
    if (!dragFrom) return;
    const seconds = (dragFrom.x - event.clientX) / pxPerSecond;
    if (Math.abs(event.clientX - dragFrom.x) > 2) pan(dragFrom.start + seconds - viewStart);
  });
  chart.addEventListener('keydown', (event) => {
    const width = Math.max(chart.clientWidth - LABEL, 100);
    if (cursor !== null && !event.shiftKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      step(event.key === 'ArrowRight' ? 1 : -1);
    } else if (event.key === 'Escape' && cursor !== null) setCursor(null);
    else if (event.key === 'ArrowLeft') pan(-width / 4 / pxPerSecond);
    else if (event.key === 'ArrowRight') pan(width / 4 / pxPerSecond);
    else if (event.key === '+' || event.key === '=') zoom(2);
    else if (event.key === '-') zoom(0.5);
    else return;
    event.preventDefault();
  });

  function updateChoices() {
    const names = lanes.names();
    for (const [select, pick] of [[inputLane, 0], [outputLane, names.length - 1]]) {
      const chosen = select.value;
      if (select.options.length === names.length) continue;
      select.replaceChildren(...names.map((name) => el('option', { value: name }, visible(name))));
      select.value = names.includes(chosen) ? chosen : names[Math.max(pick, 0)] ?? '';
    }
    updateTestLink();
  }

  function updateTestLink() {
    // Spaces as %20: the lab reads a query's + as itself, as a lane name may hold one.
    const query = `input=${encodeURIComponent(inputLane.value)}&output=${encodeURIComponent(outputLane.value)}`;
    testLink.href = `/api/recordings/${encodeURIComponent(id)}/test.swift?${query}`;
  }
  inputLane.addEventListener('change', updateTestLink);
  outputLane.addEventListener('change', updateTestLink);

  async function openAsDocument() {
    const chosen = [...new Set([inputLane.value, outputLane.value].filter(Boolean))];
    const answer = await api(`/api/recordings/${encodeURIComponent(id)}/document`, {
      method: 'POST',
      body: JSON.stringify({ lanes: chosen.length ? chosen : lanes.names() }),
    }).catch(() => null);
    if (!answer?.ok) {
      problems.replaceChildren(status('failed', failure(answer?.body, 'The document could not be made.')));
      return;
    }
    navigate(`/streams/${encodeURIComponent(answer.body.id)}`, { fresh: true });
  }

  function show(event, text, item = null) {
    detail.replaceChildren(
      el('p', {}, el('strong', {}, visible(event.lane)), ` #${event.subscription} at ${span(event.t, 0.001)}: `, el('code', {}, valueText(text))),
      ...structureOf(item));
  }

  /**
   * Writes the cursor into the link: at once, then at most every quarter second while it moves,
   * as browsers ignore a page that rewrites its address on every frame.
   */
  let linkTimer = null;
  let linkWritten = 0;
  function keepInLink() {
    if (linkTimer !== null) return;
    const write = () => {
      linkTimer = null;
      linkWritten = performance.now();
      if (gone) return;
      const query = new URLSearchParams(location.search);
      if (cursor === null) query.delete('t'); else query.set('t', String(Math.round(cursor * 1000) / 1000));
      const search = query.toString();
      history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}`);
    };
    const wait = linkWritten + 250 - performance.now();
    if (wait <= 0) write(); else linkTimer = setTimeout(write, wait);
  }

  /**
   * Puts the time cursor at `t` (null removes it), keeps it in the link, and draws; `exact` for
   * an event's own time, which takes no slack.
   */
  function setCursor(t, exact = false) {
    cursor = t;
    slack = exact ? 0 : 0.0005;
    keepInLink();
    if (cursor !== null && following) {
      following = false;
      follow.setAttribute('aria-pressed', 'false');
      follow.textContent = 'Follow live';
    }
    drawCursor();
  }

  /** Moves the cursor to the next event (`by` 1) or the one before (-1), and into view. */
  function step(by) {
    const events = lanes.ordered();
    if (events.length === 0) return;
    let index = lanes.indexAt(reach());
    // Past events at the cursor's own time when stepping on, to the one before it when back.
    if (by > 0) { while (index + 1 < events.length && events[index + 1].t <= reach()) index += 1; index += 1; }
    else if (index >= 0 && events[index].t >= (cursor ?? 0) - slack) index -= 1;
    index = Math.min(Math.max(index, 0), events.length - 1);
    const t = events[index].t;
    const plot = Math.max(chart.clientWidth - LABEL - 10, 100) / pxPerSecond;
    if (t < viewStart || t > viewStart + plot) viewStart = Math.max(0, t - plot / 2);
    setCursor(t, true);
  }

  /** Every lane's latest value and state at the cursor, and the change that led there. */
  function showAtCursor() {
    if (cursor === null) {
      atCursor.querySelector('.cursor-state')?.remove();
      return;
    }
    const index = lanes.indexAt(reach());
    const change = index >= 0 ? lanes.ordered()[index] : null;
    const what = (event) => event.kind === 'value' ? `value ${valueText(event.value ?? '')}`
      : event.kind === 'failed' ? `failed: ${visible(event.error ?? '')}` : event.kind;
    const rows = lanes.stateAt(reach()).map(({ name, latest, alive }) => el('tr', {},
      el('th', { scope: 'row' }, visible(name)),
      el('td', {}, latest ? [el('code', {}, valueText(latest.value)), el('span', { class: 'meta' }, ` #${latest.subscription} at ${span(latest.t, 0.001)}`), ...wholeOf(latest, name, unfolded)] : el('span', { class: 'meta' }, 'no value yet')),
      el('td', {}, alive.length ? `${alive.length} alive: ${alive.slice(0, 8).map((n) => `#${n}`).join(', ')}${alive.length > 8 ? '…' : ''}` : 'none alive')));
    atCursor.querySelector('.cursor-state')?.remove();
    atCursor.append(el('div', { class: 'cursor-state' },
      el('h2', {}, `At ${span(cursor, 0.001)}`),
      el('p', { id: 'cursor-change' }, change
        ? ['The change that led here: ', el('strong', {}, visible(change.lane)), ` #${change.subscription} ${what(change)} at ${span(change.t, 0.001)}.`]
        : recording.truncated ? `Nothing drawn had happened yet: the ${recording.truncated.toLocaleString()} events before the latest are not drawn.` : 'Nothing had happened yet.'),
      ...structureOf(change?.item),
      el('table', { class: 'cursor-lanes' },
        el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Lane'), el('th', { scope: 'col' }, 'Latest value'), el('th', { scope: 'col' }, 'Subscriptions'))),
        el('tbody', {}, rows))));
  }

  function draw() {
    if (drawPending || gone) return;
    drawPending = true;
    requestAnimationFrame(() => { drawPending = false; paint(); });
  }

  /**
   * Draws the cursor where it now is: only its line and what it shows when the view has not
   * moved since the last paint, so that stepping through a long recording stays smooth.
   */
  function drawCursor() {
    if (gone) return;
    const still = painted && painted.viewStart === viewStart && painted.pxPerSecond === pxPerSecond &&
      painted.count === lanes.count && !following && painted.svg.isConnected;
    if (!still) { draw(); return; }
    if (cursorPending || drawPending) return;
    cursorPending = true;
    requestAnimationFrame(() => {
      cursorPending = false;
      if (drawPending || !painted) return;
      painted.line?.remove();
      painted.line = cursorLine(painted);
      if (painted.line) painted.svg.append(painted.line);
      showAtCursor();
    });
  }

  /** The cursor's line in a paint's view; null when there is no cursor or it is out of view. */
  function cursorLine(view) {
    if (cursor === null || cursor < view.viewStart || cursor > view.viewEnd) return null;
    const at = LABEL + (cursor - view.viewStart) * view.pxPerSecond;
    return svg('line', { x1: at, x2: at, y1: 0, y2: view.height, class: 'cursor' },
      svg('title', {}, `time cursor at ${span(cursor, 0.001)}`));
  }

  function paint() {
    const total = lanes.count + (recording.truncated ?? 0);
    counts.textContent = `${total.toLocaleString()} event${total === 1 ? '' : 's'}` +
      (recording.truncated ? ` (the latest ${lanes.count.toLocaleString()} drawn)` : '') +
      (recording.dropped ? ` · ${recording.dropped} dropped by the recorder` : '');
    const width = Math.max(chart.clientWidth, 320);
    const plot = width - LABEL - 10;
    if (following) viewStart = Math.max(0, lanes.last - (plot * 0.9) / pxPerSecond);
    if (!placed && lanes.count > 0) {
      viewStart = Math.max(0, cursor - plot / 2 / pxPerSecond);
      placed = true;
    }
    const viewEnd = viewStart + plot / pxPerSecond;
    const x = (t) => LABEL + (t - viewStart) * pxPerSecond;
    const nodes = [];
    let top = 28;
    // Where each row's labels end, so that a label begins only after the last.
    let rowLabels = [];

    // The time axis: about one label every 100 pixels, on round steps.
    const rough = 100 / pxPerSecond;
    const magnitude = 10 ** Math.floor(Math.log10(rough));
    const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? rough;
    // Counted, not summed: past 2^53 microseconds a sum of steps stops moving.
    const firstTick = Math.ceil(viewStart / step);
    for (let tick = 0; tick < 200 && (firstTick + tick) * step <= viewEnd; tick += 1) {
      const t = (firstTick + tick) * step;
      nodes.push(svg('line', { x1: x(t), x2: x(t), y1: 20, y2: '100%', class: 'grid' }));
      nodes.push(svg('text', { x: x(t) + 3, y: 14, class: 'axis' }, span(Number(t.toFixed(6)), step)));
    }

    for (const name of lanes.names()) {
      const { bars, height } = lanes.rows(name);
      rowLabels = [];
      const laneHeight = height * ROW;
      const shown = visible(name);
      nodes.push(svg('text', { x: 8, y: top + ROW / 2 + 4, class: 'lane-name' }, shown.length > 14 ? `${shown.slice(0, 13)}…` : shown,
        svg('title', {}, `${shown} — ${visible(bars[0]?.source ?? '')}`)));
      for (const bar of bars) {
        const y = top + bar.row * ROW + ROW / 2;
        const end = bar.end ?? lanes.last;
        if (end < viewStart || bar.start > viewEnd) continue;
        const from = Math.max(x(bar.start), LABEL);
        const to = Math.min(x(end), width);
        const ended = bar.kind ? `${bar.kind}${bar.error ? `: ${visible(bar.error)}` : ''}` : 'still subscribed';
        // A row holds the subscriptions through the lane that never overlap in time, each
        // numbered as the recorder numbered it, at its start above its bar: where the last
        // label of the row leaves no room, the bar's own title names it.
        const labels = (rowLabels[bar.row] ??= { until: -Infinity });
        const number = `#${bar.subscription}`;
        if (from >= labels.until + 4 && from + labelWidth(number) <= width) {
          nodes.push(svg('text', { x: from + 1, y: y - 9, class: 'subscription' }, number));
          labels.until = from + 1 + labelWidth(number);
        }
        nodes.push(svg('line', { x1: from, x2: Math.max(to, from + 1), y1: y, y2: y, class: `bar ${bar.kind ?? 'open'}` },
          svg('title', {}, `${name} #${bar.subscription}, ${span(end - bar.start)}, ${ended}`)));
        // Demand ticks in view, found by halving (they are in time order); where they are
        // denser than one every 3 pixels, one a column.
        let lastTick = -Infinity;
        for (let index = firstAt(bar.demands, viewStart); index < bar.demands.length && bar.demands[index].t <= viewEnd; index += 1) {
          const demand = bar.demands[index];
          const at = x(demand.t);
          if (at - lastTick < 3) continue;
          lastTick = at;
          nodes.push(svg('line', { x1: at, x2: at, y1: y + 5, y2: y + 10, class: 'demand' },
            svg('title', {}, `requested ${demand.demand}`)));
        }
        if (bar.kind && bar.end >= viewStart && bar.end <= viewEnd) {
          const at = x(bar.end);
          if (bar.kind === 'finished') nodes.push(svg('line', { x1: at, x2: at, y1: y - 9, y2: y + 9, class: 'end finished' }));
          else if (bar.kind === 'failed') {
            nodes.push(svg('path', { d: `M${at - 6},${y - 6}L${at + 6},${y + 6}M${at + 6},${y - 6}L${at - 6},${y + 6}`, class: 'end failed',
              'data-value': '', onclick: () => show({ lane: name, subscription: bar.subscription, t: bar.end }, `failed: ${bar.error ?? ''}`) },
              svg('title', {}, `failed: ${bar.error ?? ''}`)));
          } else nodes.push(svg('circle', { cx: at, cy: y, r: 4, class: 'end cancelled' }, svg('title', {}, 'cancelled')));
        }
        let lastX = -Infinity;
        const shownValues = inView(bar.values, viewStart, viewEnd, x, plot);
        const dense = shownValues.dense;
        const lifted = [];
        for (const value of shownValues) {
          const at = x(value.t);
          // Values closer than a marble's width are drawn one above the other, never on top;
          // values too many to draw one by one are drawn one a column, smaller.
          const lift = !dense && at - lastX < 9 ? -7 : 0;
          lastX = lift ? lastX : at;
          if (lift) lifted.push(at);
          const said = value.more ? `${(value.more + 1).toLocaleString()} values to ${span(value.t, 0.001)}, the last ${valueText(value.value)}` : `${valueText(value.value)} at ${span(value.t, 0.001)}`;
          nodes.push(svg('circle', {
            cx: at, cy: y + lift, r: dense ? 3 : 6, class: dense ? 'marble dense' : 'marble', tabindex: 0, 'data-value': '',
            onclick: () => show({ lane: name, subscription: bar.subscription, t: value.t }, value.value, value),
            onkeydown: (event) => { if (event.key === 'Enter') show({ lane: name, subscription: bar.subscription, t: value.t }, value.value, value); },
          }, svg('title', {}, said)));
        }
        // Each value's text above its marble where it fits: the latest first, as the last of a
        // burst (a word typed whole) says most, then earlier ones in the room left, never over
        // another label or a lifted marble.
        let limit = width;
        let rightmost = labels.until;
        for (let index = shownValues.length - 1; index >= 0; index -= 1) {
          const at = x(shownValues[index].t);
          const text = shortened(valueText(shownValues[index].value));
          const half = labelWidth(text) / 2;
          const [from, to] = [at - half, at + half];
          if (from < labels.until + 4 || to > limit - 4 || lifted.some((other) => other > from - 6 && other < to + 6)) continue;
          nodes.push(svg('text', { x: at, y: y - 9, class: 'value-label', 'text-anchor': 'middle' }, text));
          limit = from;
          rightmost = Math.max(rightmost, to);
        }
        labels.until = rightmost;
      }
      top += laneHeight + LANE_GAP;
    }
    const view = { viewStart, viewEnd, pxPerSecond, height: Math.max(top, 80), count: lanes.count };
    const line = cursorLine(view);
    if (line) nodes.push(line);
    const drawn = svg('svg', { width, height: view.height, role: 'img', 'aria-label': `Lanes of ${recording.name}` }, nodes);
    chart.replaceChildren(drawn);
    painted = { ...view, svg: drawn, line };
    if (!firstDrawn && lanes.count > 0) {
      firstDrawn = true;
      performance.mark('tributary:recording-drawn');
    }
    showAtCursor();
  }

  function connect() {
    socket = new WebSocket(socketURL(`/api/recordings/${encodeURIComponent(id)}/live`));
    socket.addEventListener('message', (message) => {
      let body;
      try { body = JSON.parse(message.data); } catch { return; }
      switch (body.type) {
        case 'snapshot': {
          const snapshot = body;
          recording = { name: visible(snapshot.name ?? id), dropped: snapshot.dropped ?? 0, truncated: snapshot.truncated ?? 0 };
          title.textContent = recording.name;
          document.title = `${recording.name} — Tributary lab`;
          lanes.clear();
          for (const event of snapshot.events ?? []) lanes.add(event);
          const older = snapshot.truncated ?? 0;
          const readable = older > 0 && older + lanes.count <= MOST_EVENTS;
          state.replaceChildren(
            !older ? ''
              : readable ? status('loading', `Drawing the latest events; reading the ${older.toLocaleString()} before them…`)
                : status('empty', `Drawing the latest events; the ${older.toLocaleString()} before them are read with GET /api/recordings/${id} or tributary recordings show.`)
          );
          updateChoices();
          draw();
          if (readable) readOlder(snapshot.first ?? older);
          break;
        }
        case 'events':
          for (const event of body.events ?? []) lanes.add(event);
          if (typeof body.dropped === 'number') recording.dropped = body.dropped;
          updateChoices();
          draw();
          break;
        case 'deleted':
          state.replaceChildren(status('failed', 'This recording was deleted.'));
          socket.close();
          break;
        case 'notFound':
          state.replaceChildren(status('failed', `There is no recording “${id}”.`, el('a', { href: '/recordings', 'data-internal': true }, 'All recordings')));
          socket.close();
          break;
        default: break;
      }
    });
    socket.addEventListener('close', (event) => {
      if (gone || state.querySelector('.failed')) return;
      if (event.code === 1008 || event.code === 4004) {
        state.replaceChildren(status('failed', event.reason || `There is no recording “${id}”.`));
        return;
      }
      state.replaceChildren(status('loading', 'Connection lost; reconnecting…'));
      retry = setTimeout(connect, 1000);
    });
  }

  /**
   * Reads the `count` events before the snapshot's, page by page, and draws the whole recording
   * from its first event: the older ones, then those the page holds (the snapshot's and any
   * that came live meanwhile).
   */
  async function readOlder(count) {
    const older = [];
    let after = null;
    while (older.length < count) {
      const answer = await api(`/api/recordings/${encodeURIComponent(id)}?limit=10000${after === null ? '' : `&after=${after}`}`).catch(() => null);
      if (gone) return;
      if (!answer?.ok) {
        state.replaceChildren(status('failed', `The ${count.toLocaleString()} events before the latest could not be read; the latest are drawn.`));
        return;
      }
      older.push(...(answer.body.events ?? []).slice(0, count - older.length));
      if (answer.body.next === null || answer.body.next === undefined) break;
      after = answer.body.next;
    }
    const held = lanes.events;
    lanes.clear();
    for (const event of older) lanes.add(event);
    for (const event of held) lanes.add(event);
    recording.truncated = 0;
    state.replaceChildren('');
    updateChoices();
    draw();
  }

  const resize = () => draw();
  addEventListener('resize', resize);
  // The live socket cannot say why it was refused, so the recording is looked up first.
  api(`/api/recordings/${encodeURIComponent(id)}?limit=1`).then((answer) => {
    if (gone) return;
    if (answer.status === 404 || answer.status === 400) {
      main.replaceChildren(
        el('h1', {}, 'No such recording'),
        el('p', { role: 'alert' }, `There is no recording “${id}”: it may have been deleted, or the link is not whole.`),
        el('p', {}, el('a', { href: '/recordings', 'data-internal': true }, 'All recordings'))
      );
      return;
    }
    if (!answer.ok) {
      // Nothing on the page works without the token: only the sentence that says so is shown.
      if (answer.status === 401) main.replaceChildren(el('h1', {}, 'Recording'), state);
      state.replaceChildren(status('failed', failure(answer.body, 'The recording could not be read.')));
      return;
    }
    title.textContent = visible(answer.body.name);
    connect();
  }).catch(() => state.replaceChildren(status('failed', 'The lab could not be reached.')));
  return () => {
    gone = true;
    clearTimeout(retry);
    clearTimeout(linkTimer);
    removeEventListener('resize', resize);
    socket?.close();
  };
}
