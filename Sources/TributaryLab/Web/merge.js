// Three-way merge of stream documents: what two people changed from the version both started
// from. A document's parts are its streams and nodes (by id) and its other top-level fields, and
// a stream's or node's own parts are its fields. A part changed on one side only takes that side;
// only a part both changed differently is a conflict, for a person to choose — a node's field
// when both kept the node, the whole node when one side deleted it.
import { sameJSON } from './json.js';

function parts(documentObject) {
  const map = new Map();
  for (const [key, value] of Object.entries(documentObject ?? {})) {
    if ((key === 'streams' || key === 'nodes') && Array.isArray(value)) {
      const kind = key === 'streams' ? 'stream' : 'node';
      value.forEach((item, index) => {
        const name = typeof item?.id === 'string' ? item.id : `#${index + 1}`;
        map.set(`${kind} ${name}`, { kind: key, value: item });
      });
    } else {
      map.set(key, { kind: 'field', value });
    }
  }
  return map;
}

const isRecord = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const same = (x, y) => (x === undefined && y === undefined) || (x !== undefined && y !== undefined && sameJSON(x, y));

/**
 * The three-way choice for one part: `{ take: 'both' | 'theirs' | 'mine' }` when one answer
 * follows, `{ take: 'conflict' }` when both changed it differently.
 */
function choose(inBase, inMine, inTheirs) {
  if (same(inMine, inTheirs)) return 'both';
  if (same(inMine, inBase)) return 'theirs';
  if (same(inTheirs, inBase)) return 'mine';
  return 'conflict';
}

/**
 * A stream or node both sides kept and changed differently, merged field by field: the fields in
 * their order with mine added after, and a conflict for each field both changed differently
 * (their value kept until one is chosen).
 */
function mergeFields(part, kind, base, mine, theirs, result) {
  const merged = {};
  const fields = [...new Set([...Object.keys(theirs), ...Object.keys(mine)])];
  for (const field of fields) {
    const take = choose(base?.[field], mine[field], theirs[field]);
    const value = take === 'mine' ? mine[field] : theirs[field];
    if (value !== undefined) merged[field] = value;
    if (take === 'theirs') result.fromThem.push(`${part} › ${field}`);
    if (take === 'mine') result.fromMe.push(`${part} › ${field}`);
    if (take === 'conflict') {
      result.conflicts.push({ id: `${part} › ${field}`, part, field, kind, mine: mine[field], theirs: theirs[field] });
    }
  }
  return merged;
}

/** What one side changed of a part: its fields that differ, when it kept the part, else the part. */
function changes(part, before, after) {
  if (!isRecord(before) || !isRecord(after)) return [part];
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields.filter((field) => !same(before[field], after[field])).map((field) => `${part} › ${field}`);
}

/**
 * Merges `mine` and `theirs`, both edits of `base`. Returns the document with every part only one
 * side changed (`merged`), the parts taken from each side (`fromThem`, `fromMe`, named as
 * `node doubled › expression`), and a conflict `{ id, part, field, kind, mine, theirs }` for each
 * part both changed differently, `field` null when the conflict is a whole part (undefined where
 * a side deleted it); `merged` holds their side of each conflict until `resolve` picks.
 */
export function mergeDocuments(base, mine, theirs) {
  const b = parts(base);
  const m = parts(mine);
  const t = parts(theirs);
  const keys = [...new Set([...t.keys(), ...m.keys()])];
  const result = { conflicts: [], fromThem: [], fromMe: [], keys, chosen: new Map() };
  for (const key of keys) {
    const [inBase, inMine, inTheirs] = [b.get(key), m.get(key), t.get(key)];
    const kind = (inMine ?? inTheirs).kind;
    switch (choose(inBase?.value, inMine?.value, inTheirs?.value)) {
      case 'both':
        if (inMine) result.chosen.set(key, inMine);
        break;
      case 'theirs':
        if (inTheirs) result.chosen.set(key, inTheirs);
        result.fromThem.push(...changes(key, inBase?.value, inTheirs?.value));
        break;
      case 'mine':
        if (inMine) result.chosen.set(key, inMine);
        result.fromMe.push(...changes(key, inBase?.value, inMine?.value));
        break;
      default:
        if (kind !== 'field' && isRecord(inMine?.value) && isRecord(inTheirs?.value)) {
          const base = isRecord(inBase?.value) ? inBase.value : {};
          result.chosen.set(key, { kind, value: mergeFields(key, kind, base, inMine.value, inTheirs.value, result) });
        } else {
          result.conflicts.push({ id: key, part: key, field: null, kind, mine: inMine?.value, theirs: inTheirs?.value });
          if (inTheirs) result.chosen.set(key, inTheirs);
        }
    }
  }
  result.merged = assemble(keys, result.chosen, theirs, mine);
  return result;
}

/** The merge with each conflict settled: `choices` maps a conflict's id to 'mine' or 'theirs'. */
export function resolve(result, choices, theirs, mine) {
  const chosen = new Map(result.chosen);
  for (const conflict of result.conflicts) {
    const value = choices.get(conflict.id) === 'mine' ? conflict.mine : conflict.theirs;
    if (conflict.field === null) {
      if (value === undefined) chosen.delete(conflict.part);
      else chosen.set(conflict.part, { kind: conflict.kind, value });
      continue;
    }
    // A field of a part both kept: a copy of the merged part, so the merge can be settled again.
    const settled = { ...chosen.get(conflict.part).value };
    if (value === undefined) delete settled[conflict.field];
    else settled[conflict.field] = value;
    chosen.set(conflict.part, { kind: conflict.kind, value: settled });
  }
  return assemble(result.keys, chosen, theirs, mine);
}

// Their order of fields, streams and nodes, with mine added after theirs where only I have them.
function assemble(keys, chosen, theirs, mine) {
  const documentObject = {};
  const order = [...Object.keys(theirs ?? {}), ...Object.keys(mine ?? {})];
  for (const field of order) {
    if (field in documentObject) continue;
    if (field === 'streams' || field === 'nodes') {
      documentObject[field] = keys.filter((key) => chosen.get(key)?.kind === field).map((key) => chosen.get(key).value);
    } else if (chosen.has(field)) {
      documentObject[field] = chosen.get(field).value;
    }
  }
  return documentObject;
}

/**
 * Two texts as `[before, differing, after]` each, with at most `context` characters of what they
 * share on either side of where they differ, so the difference can be marked; `…` stands for
 * what is left out.
 */
export function difference(one, other, context = 24) {
  let start = 0;
  while (start < one.length && start < other.length && one[start] === other[start]) start += 1;
  let end = 0;
  while (end < one.length - start && end < other.length - start
    && one[one.length - 1 - end] === other[other.length - 1 - end]) end += 1;
  const split = (text) => {
    const before = text.slice(0, start);
    const after = text.slice(text.length - end);
    return [
      before.length > context ? `…${before.slice(before.length - context)}` : before,
      text.slice(start, text.length - end),
      after.length > context ? `${after.slice(0, context)}…` : after,
    ];
  };
  return [split(one), split(other)];
}
