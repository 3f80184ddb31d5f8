// The editor's modules that hold no page: the values' text, the drafts kept in the browser and
// the live connection, run by Node's own test runner:
//     node --test Tests/Web/editor-modules.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const folder = mkdtempSync(join(tmpdir(), 'tributary-web-'));
cpSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'Sources', 'TributaryLab', 'Web'), folder, { recursive: true });
writeFileSync(join(folder, 'package.json'), '{"type": "module"}');
const load = (name) => import(pathToFileURL(join(folder, name)).href);
const { errorText, valueText, valuesTable } = await load('values.js');
const { Draft, displayName, keepDisplayName } = await load('drafts.js');
const { LiveDocument } = await load('live-document.js');

test('a value is written as plain text only where it reads back as the same string', () => {
  assert.equal(valueText('swift'), 'swift');
  assert.equal(valueText('a, b'), '"a, b"');
  assert.equal(valueText('42'), '"42"');
  assert.equal(valueText(' padded'), '" padded"');
  assert.equal(valueText(42), '42');
  assert.equal(valueText({ a: [1] }), '{"a":[1]}');
  for (const value of ['swift', 'a, b', '42', ' padded', 'x=y', 'true', 'null', '[1]']) {
    assert.deepEqual(valuesTable(`v=${valueText(value)}`), { v: value }, value);
  }
});

test('the Values field reads as a table, JSON where it reads as JSON', () => {
  assert.deepEqual(valuesTable('a=swift, b=rust'), { a: 'swift', b: 'rust' });
  assert.deepEqual(valuesTable('n=1, o={"k": [1, 2]}, s="x, y"'), { n: 1, o: { k: [1, 2] }, s: 'x, y' });
  // Keys are a marble's one character; an entry without one is left out.
  assert.deepEqual(valuesTable('=lost, k=1'), { k: 1 });
  assert.deepEqual(valuesTable(''), {});
});

test('an error names its place when it has one', () => {
  assert.equal(errorText({ message: 'Not an integer.', path: '$.nodes[0].count' }), 'Not an integer. (at $.nodes[0].count)');
  assert.equal(errorText({ message: 'No.' }), 'No.');
  assert.equal(errorText(undefined), '');
});

/** A browser's storage, or one that refuses everything, as a private window may. */
class Storage {
  constructor(refusing = false) { this.items = new Map(); this.refusing = refusing; }
  getItem(key) { if (this.refusing) throw new Error('denied'); return this.items.get(key) ?? null; }
  setItem(key, value) { if (this.refusing) throw new Error('denied'); this.items.set(key, String(value)); }
  removeItem(key) { if (this.refusing) throw new Error('denied'); this.items.delete(key); }
}

test('a draft is kept per document until it is forgotten, and one that does not read is none', () => {
  const storage = new Storage();
  const one = new Draft('one', storage, () => 1_000);
  const other = new Draft('other', storage, () => 2_000);
  assert.equal(one.kept(), null);
  one.keep(3, '{"name":"x"}');
  assert.deepEqual(one.kept(), { base: 3, text: '{"name":"x"}', at: 1_000 });
  assert.equal(other.kept(), null);
  one.forget();
  assert.equal(one.kept(), null);
  for (const broken of ['{', '"text"', '{"base":1,"text":5,"at":1}', '{"base":1,"text":"t"}']) {
    storage.setItem('tributary.draft.one', broken);
    assert.equal(one.kept(), null, broken);
  }
});

test('a browser that keeps nothing loses the draft and the name, and nothing fails', () => {
  const refusing = new Storage(true);
  const draft = new Draft('one', refusing);
  draft.keep(1, 'text');
  assert.equal(draft.kept(), null);
  draft.forget();
  keepDisplayName('Ada', refusing);
  assert.equal(displayName(refusing), '');
  const storage = new Storage();
  keepDisplayName('Ada', storage);
  assert.equal(displayName(storage), 'Ada');
});

/** A WebSocket the test opens, closes and speaks through; `made` lists every one. */
function environment() {
  const made = [];
  const timers = new Map();
  let handles = 0;
  const events = new EventTarget();
  class Socket extends EventTarget {
    constructor(url) { super(); this.url = url; this.readyState = 0; this.sent = []; made.push(this); }
    send(text) { this.sent.push(JSON.parse(text)); }
    close() { this.readyState = 3; }
    open() { this.readyState = 1; this.dispatchEvent(new Event('open')); }
    say(message) { const event = new Event('message'); event.data = typeof message === 'string' ? message : JSON.stringify(message); this.dispatchEvent(event); }
    drop(code = 1006, reason = '') { this.readyState = 3; const event = new Event('close'); event.code = code; event.reason = reason; this.dispatchEvent(event); }
  }
  return {
    made, timers, events,
    WebSocket: Socket,
    setTimeout: (action, delay) => { handles += 1; timers.set(handles, { action, delay }); return handles; },
    clearTimeout: (handle) => { timers.delete(handle); },
    fire() { const due = [...timers.values()]; timers.clear(); for (const timer of due) timer.action(); },
  };
}

test('the live connection says who is viewing, resumes from the version it has and hands on each message', () => {
  const world = environment();
  const heard = [];
  let opened = 0;
  const live = new LiveDocument('ws://lab/api/streams/x/live', {
    name: () => 'Ada', resumeFrom: () => 4, onOpen: () => { opened += 1; }, onMessage: (message) => heard.push(message),
  }, world);
  live.connect();
  assert.equal(live.send({ type: 'save' }), false, 'nothing is sent before the connection opens');
  world.made[0].open();
  assert.equal(opened, 1);
  assert.deepEqual(world.made[0].sent, [{ type: 'hello', name: 'Ada' }, { type: 'resume', version: 4 }]);
  world.made[0].say({ type: 'saved', version: 5 });
  world.made[0].say('not JSON');
  assert.deepEqual(heard, [{ type: 'saved', version: 5 }]);
  assert.equal(live.send({ type: 'hello', name: 'Grace' }), true);
});

test('a connection that drops is made again a second later, or at once when the lab is back', () => {
  const world = environment();
  let lost = 0;
  const heard = [];
  const live = new LiveDocument('ws://lab/x', { resumeFrom: () => null, onLost: () => { lost += 1; }, onMessage: (m) => heard.push(m) }, world);
  live.connect();
  const first = world.made[0];
  first.open();
  assert.deepEqual(first.sent, [], 'no name and no version: nothing to say');
  first.drop();
  assert.equal(lost, 1);
  assert.deepEqual([...world.timers.values()].map((timer) => timer.delay), [1000]);
  world.fire();
  assert.equal(world.made.length, 2);
  // The old socket says nothing more.
  first.say({ type: 'saved' });
  assert.deepEqual(heard, []);
  // Dropped again, and the lab says it is back before the second passes.
  world.made[1].drop();
  world.events.dispatchEvent(new Event('lab:reconnected'));
  assert.equal(world.made.length, 3);
  world.fire();
  assert.equal(world.made.length, 3, 'the pending retry was called off');
  // An open or opening connection is not made again.
  world.events.dispatchEvent(new Event('lab:reconnected'));
  assert.equal(world.made.length, 3);
});

test('a connection the lab ends for good, or the page closes, is not made again', () => {
  const world = environment();
  let ended = null;
  const live = new LiveDocument('ws://lab/x', { onEnded: (reason) => { ended = reason; } }, world);
  live.connect();
  world.made[0].open();
  world.made[0].drop(1008, 'Too many connections from this address.');
  assert.equal(ended, 'Too many connections from this address.');
  assert.equal(world.timers.size, 0);

  const page = environment();
  const closing = new LiveDocument('ws://lab/y', {}, page);
  closing.connect();
  closing.close();
  page.made[0].drop();
  page.events.dispatchEvent(new Event('lab:reconnected'));
  page.fire();
  assert.equal(page.made.length, 1);
});

test('a part is compared as its JSON in the document\'s key order, and a deleted one says so', async () => {
  const { partText } = await load('json.js');
  assert.equal(partText(undefined), 'deleted');
  assert.equal(partText({ operator: 'map', id: 'n1', inputs: ['a'] }), partText({ inputs: ['a'], id: 'n1', operator: 'map' }));
  assert.notEqual(partText({ id: 'n1', inputs: ['a'] }), partText({ id: 'n1', inputs: ['b'] }));
  assert.equal(partText('swift'), '"swift"');
});
