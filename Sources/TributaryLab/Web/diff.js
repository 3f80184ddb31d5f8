// What changed between two values of a structured lane, path by path, as `recordings show --diff`
// prints it: an object's keys in sorted order, an array's items by index, depth first.

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Keys in the order of their Unicode scalar values, as the terminal orders them. */
function byScalars(a, b) {
  const [left, right] = [[...a], [...b]];
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const difference = left[index].codePointAt(0) - right[index].codePointAt(0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/** A member's part of a path: `.name` for a plain name (`name` first), else `["…"]`. */
function member(key, first) {
  if (/^[\p{L}_][\p{L}\p{N}_]*$/u.test(key)) return first ? key : `.${key}`;
  return `[${JSON.stringify(key)}]`;
}

/** `value` as compact JSON with sorted keys, as the terminal shows it. */
export function jsonText(value) {
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value).sort(byScalars).map((key) => `${JSON.stringify(key)}:${jsonText(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The changes from `before` to `after` (parsed JSON values): `{ path, kind, old, new }` with
 * `kind` one of `added`, `removed`, `changed` and `old` / `new` as JSON text. A list of places
 * still to compare is walked, not recursion, so a value's depth costs no stack.
 */
export function changes(before, after) {
  const found = [];
  const pending = [{ compare: true, path: '', old: before, new: after }];
  while (pending.length > 0) {
    const step = pending.pop();
    if (!step.compare) { found.push(step.change); continue; }
    const { path, old, new: now } = step;
    const steps = [];
    if (isObject(old) && isObject(now)) {
      for (const key of [...new Set([...Object.keys(old), ...Object.keys(now)])].sort(byScalars)) {
        const place = path + member(key, path === '');
        const [had, has] = [Object.hasOwn(old, key), Object.hasOwn(now, key)];
        if (had && has) steps.push({ compare: true, path: place, old: old[key], new: now[key] });
        else if (had) steps.push({ change: { path: place, kind: 'removed', old: jsonText(old[key]) } });
        else steps.push({ change: { path: place, kind: 'added', new: jsonText(now[key]) } });
      }
    } else if (Array.isArray(old) && Array.isArray(now)) {
      for (let index = 0; index < Math.max(old.length, now.length); index += 1) {
        const place = `${path}[${index}]`;
        if (index < old.length && index < now.length) steps.push({ compare: true, path: place, old: old[index], new: now[index] });
        else if (index < old.length) steps.push({ change: { path: place, kind: 'removed', old: jsonText(old[index]) } });
        else steps.push({ change: { path: place, kind: 'added', new: jsonText(now[index]) } });
      }
    } else {
      const [was, is] = [jsonText(old), jsonText(now)];
      if (was !== is) found.push({ path, kind: 'changed', old: was, new: is });
    }
    // Last pushed, first taken: the steps run in reading order.
    for (let index = steps.length - 1; index >= 0; index -= 1) pending.push(steps[index]);
  }
  return found;
}

/** A change as one line: `~ query: "s" → "sw"`, `+ results[0]: 1`, `- error: "timeout"`. */
export function changeLine(change, most = 120) {
  const short = (text) => ([...text].length > most ? `${[...text].slice(0, most - 1).join('')}…` : text);
  const place = change.path === '' ? '(the value)' : short(change.path);
  if (change.kind === 'added') return `+ ${place}: ${short(change.new)}`;
  if (change.kind === 'removed') return `- ${place}: ${short(change.old)}`;
  return `~ ${place}: ${short(change.old)} → ${short(change.new)}`;
}
