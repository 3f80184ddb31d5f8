// Three-way merge of stream documents: what two people changed from the version both started
// from. A document's parts are its streams and nodes (by id) and its other top-level fields;
// a part changed on one side only takes that side, and only parts both changed differently are
// conflicts, for a person to choose.
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

/**
 * Merges `mine` and `theirs`, both edits of `base`. Returns `{ merged, conflicts, fromThem,
 * fromMe }`: the document with every part that only one side changed, and for each part both
 * changed differently, `{ key, mine, theirs }` (undefined where a side deleted it); `merged`
 * holds their version of those parts until `resolve` picks.
 */
export function mergeDocuments(base, mine, theirs) {
  const b = parts(base);
  const m = parts(mine);
  const t = parts(theirs);
  const keys = [...new Set([...t.keys(), ...m.keys()])];
  const chosen = new Map();
  const conflicts = [];
  const fromThem = [];
  const fromMe = [];
  for (const key of keys) {
    const [inBase, inMine, inTheirs] = [b.get(key), m.get(key), t.get(key)];
    const same = (x, y) => (x === undefined && y === undefined) || (x !== undefined && y !== undefined && sameJSON(x.value, y.value));
    if (same(inMine, inTheirs)) {
      if (inMine) chosen.set(key, inMine);
    } else if (same(inMine, inBase)) {
      if (inTheirs) chosen.set(key, inTheirs);
      fromThem.push(key);
    } else if (same(inTheirs, inBase)) {
      if (inMine) chosen.set(key, inMine);
      fromMe.push(key);
    } else {
      conflicts.push({ key, mine: inMine?.value, theirs: inTheirs?.value, kind: (inMine ?? inTheirs).kind });
      if (inTheirs) chosen.set(key, inTheirs);
    }
  }
  return { merged: assemble(keys, chosen, theirs, mine), conflicts, fromThem, fromMe, keys, chosen };
}

/** The merge with each conflict settled: `choices` maps a part's key to 'mine' or 'theirs'. */
export function resolve(result, choices, theirs, mine) {
  const chosen = new Map(result.chosen);
  for (const conflict of result.conflicts) {
    const value = choices.get(conflict.key) === 'mine' ? conflict.mine : conflict.theirs;
    if (value === undefined) chosen.delete(conflict.key);
    else chosen.set(conflict.key, { kind: conflict.kind, value });
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
