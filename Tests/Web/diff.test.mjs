// The recording page's diff of a structured lane's values, run by Node's own test runner:
//     node --test Tests/Web/
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
const { changes, changeLine, jsonText } = await import(pathToFileURL(join(folder, 'diff.js')).href);

const lines = (before, after) => changes(JSON.parse(before), JSON.parse(after)).map((change) => changeLine(change));

test('lists paths added, removed and changed in reading order, as the terminal does', () => {
  const old = '{"query":"s","results":[{"id":1,"title":"A"},{"id":2}],"error":"timeout","a key":1,"n":true}';
  const now = '{"query":"sw","results":[{"id":1,"title":"B"}],"a key":2,"n":1,"page":{"next":3}}';
  assert.deepEqual(lines(old, now), [
    '~ ["a key"]: 1 → 2',
    '- error: "timeout"',
    '~ n: true → 1',
    '+ page: {"next":3}',
    '~ query: "s" → "sw"',
    '~ results[0].title: "A" → "B"',
    '- results[1]: {"id":2}',
  ]);
});

test('an unchanged value has no changes; a value of another shape changes whole', () => {
  assert.deepEqual(lines('{"a":[1,{"b":null}]}', '{"a":[1,{"b":null}]}'), []);
  assert.deepEqual(lines('[1]', '{"a":1}'), ['~ (the value): [1] → {"a":1}']);
  assert.deepEqual(lines('{"a":{"x":1,"y":2}}', '{"a":{"y":2,"x":1}}'), []);
});

test('walks deep values without recursion and shortens long ones', () => {
  let deep = 0;
  let deeper = 1;
  for (let level = 0; level < 100_000; level += 1) { deep = [deep]; deeper = [deeper]; }
  assert.equal(changes(deep, deeper).length, 1);
  const long = 'x'.repeat(500);
  const [line] = lines('{"a":""}', JSON.stringify({ a: long }));
  assert.ok(line.length < 280 && line.endsWith('…'), line);
  assert.equal(jsonText({ b: 1, a: [true, 'é'] }), '{"a":[true,"é"],"b":1}');
});

test('orders keys by their Unicode scalars, as the terminal does', () => {
  assert.deepEqual(lines('{"🙂":1,"count":1,"é":1}', '{"🙂":2,"count":2,"é":2}'),
    ['~ count: 1 → 2', '~ é: 1 → 2', '~ ["🙂"]: 1 → 2']);
  assert.deepEqual(lines('{"a":{"🙂":"é","count":1}}', '{}'), ['- a: {"count":1,"🙂":"é"}']);
});
