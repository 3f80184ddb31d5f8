// The editor's three-way merge, run by Node's own test runner:
//     node --test Tests/Web/merge.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The page's modules are plain .js files, which Node reads as ES modules from a folder that says so.
const folder = mkdtempSync(join(tmpdir(), 'tributary-web-'));
cpSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'Sources', 'TributaryLab', 'Web'), folder, { recursive: true });
writeFileSync(join(folder, 'package.json'), '{"type": "module"}');
const { difference, mergeDocuments, resolve } = await import(pathToFileURL(join(folder, 'merge.js')).href);

const base = {
  schemaVersion: 1,
  name: 'Map, filter and scan',
  streams: [{ id: 'numbers', items: [{ value: 1 }, { value: 2 }] }],
  nodes: [
    { id: 'doubled', operator: 'map', input: 'numbers', expression: '$0 * 2' },
    { id: 'even', operator: 'filter', input: 'doubled', predicate: '$0 > 1' },
  ],
};
const copy = (value) => structuredClone(value);

test('changes to different fields of one node merge without asking', () => {
  const mine = copy(base);
  mine.nodes[0].expression = '$0 * 3';
  const theirs = copy(base);
  theirs.nodes[0].operator = 'compactMap';
  const result = mergeDocuments(base, mine, theirs);
  assert.deepEqual(result.conflicts, []);
  assert.deepEqual(result.merged.nodes[0], { id: 'doubled', operator: 'compactMap', input: 'numbers', expression: '$0 * 3' });
  assert.deepEqual(result.fromThem, ['node doubled › operator']);
  assert.deepEqual(result.fromMe, ['node doubled › expression']);
});

test('one field both changed is the only conflict, and either side can be chosen', () => {
  const mine = copy(base);
  mine.nodes[0].expression = '$0 * 3';
  mine.nodes[0].input = 'other';
  const theirs = copy(base);
  theirs.nodes[0].expression = '$0 * 4';
  const result = mergeDocuments(base, mine, theirs);
  assert.equal(result.conflicts.length, 1);
  const [conflict] = result.conflicts;
  assert.deepEqual(
    { id: conflict.id, part: conflict.part, field: conflict.field, mine: conflict.mine, theirs: conflict.theirs },
    { id: 'node doubled › expression', part: 'node doubled', field: 'expression', mine: '$0 * 3', theirs: '$0 * 4' },
  );
  // Until chosen, the merge holds theirs; the field only I changed is mine either way.
  assert.equal(result.merged.nodes[0].expression, '$0 * 4');
  assert.equal(result.merged.nodes[0].input, 'other');
  const mineChosen = resolve(result, new Map([[conflict.id, 'mine']]), theirs, mine);
  assert.equal(mineChosen.nodes[0].expression, '$0 * 3');
  assert.equal(mineChosen.nodes[0].input, 'other');
  const theirsChosen = resolve(result, new Map([[conflict.id, 'theirs']]), theirs, mine);
  assert.equal(theirsChosen.nodes[0].expression, '$0 * 4');
  // Settling does not change the merge: it can be settled again the other way.
  assert.equal(resolve(result, new Map([[conflict.id, 'mine']]), theirs, mine).nodes[0].expression, '$0 * 3');
});

test('a field one side added and the other removed is settled per field', () => {
  const mine = copy(base);
  mine.nodes[1].predicate = '$0 > 2';
  const theirs = copy(base);
  delete theirs.nodes[1].predicate;
  theirs.nodes[1].operator = 'removeDuplicates';
  const result = mergeDocuments(base, mine, theirs);
  assert.deepEqual(result.conflicts.map((conflict) => [conflict.id, conflict.theirs, conflict.mine]),
    [['node even › predicate', undefined, '$0 > 2']]);
  assert.equal('predicate' in resolve(result, new Map([['node even › predicate', 'theirs']]), theirs, mine).nodes[1], false);
  assert.equal(resolve(result, new Map([['node even › predicate', 'mine']]), theirs, mine).nodes[1].predicate, '$0 > 2');
});

test('a node one side deleted and the other changed is one whole conflict', () => {
  const mine = copy(base);
  mine.nodes[1].predicate = '$0 > 2';
  const theirs = copy(base);
  theirs.nodes.splice(1, 1);
  const result = mergeDocuments(base, mine, theirs);
  assert.deepEqual(result.conflicts.map((conflict) => [conflict.id, conflict.field, conflict.theirs]), [['node even', null, undefined]]);
  assert.equal(result.merged.nodes.length, 1);
  assert.equal(resolve(result, new Map([['node even', 'mine']]), theirs, mine).nodes[1].predicate, '$0 > 2');
});

test('top-level fields and parts only one side has keep their order', () => {
  const mine = copy(base);
  mine.name = 'Mine';
  mine.nodes.push({ id: 'sum', operator: 'scan', input: 'even', initial: 0, expression: '$0 + $1' });
  const theirs = copy(base);
  theirs.name = 'Theirs';
  theirs.streams.push({ id: 'letters', items: [] });
  const result = mergeDocuments(base, mine, theirs);
  assert.deepEqual(result.conflicts.map((conflict) => [conflict.id, conflict.field]), [['name', null]]);
  assert.deepEqual(Object.keys(result.merged), ['schemaVersion', 'name', 'streams', 'nodes']);
  assert.deepEqual(result.merged.streams.map((stream) => stream.id), ['numbers', 'letters']);
  assert.deepEqual(result.merged.nodes.map((node) => node.id), ['doubled', 'even', 'sum']);
  assert.equal(resolve(result, new Map([['name', 'mine']]), theirs, mine).name, 'Mine');
  assert.deepEqual(result.fromThem, ['stream letters']);
  assert.deepEqual(result.fromMe, ['node sum']);
});

test('a node only one side changed is named by the fields it changed', () => {
  const theirs = copy(base);
  theirs.nodes[1].predicate = '$0 > 3';
  theirs.nodes[1].operator = 'drop';
  const result = mergeDocuments(base, copy(base), theirs);
  assert.deepEqual(result.fromThem, ['node even › operator', 'node even › predicate']);
  assert.deepEqual(result.merged, theirs);
});

test('a node both added with the same id differs field by field', () => {
  const added = (expression) => ({ ...copy(base), nodes: [...copy(base).nodes, { id: 'new', operator: 'map', input: 'even', expression }] });
  const result = mergeDocuments(base, added('$0'), added('$0 + 1'));
  assert.deepEqual(result.conflicts.map((conflict) => conflict.id), ['node new › expression']);
});

test('the difference between two texts is marked with a little of what they share', () => {
  assert.deepEqual(difference('"$0 * 3"', '"$0 * 4"'), [['"$0 * ', '3', '"'], ['"$0 * ', '4', '"']]);
  assert.deepEqual(difference('abc', 'abc'), [['abc', '', ''], ['abc', '', '']]);
  assert.deepEqual(difference('deleted', '"x"'), [['', 'deleted', ''], ['', '"x"', '']]);
  const long = 'x'.repeat(100);
  const [[before, differing, after]] = difference(`${long}A${long}`, `${long}B${long}`, 10);
  assert.deepEqual([before, differing, after], [`…${'x'.repeat(10)}`, 'A', `${'x'.repeat(10)}…`]);
  // A shared run is not counted twice when one text holds the other.
  assert.deepEqual(difference('aa', 'aaa'), [['aa', '', ''], ['aa', 'a', '']]);
});
