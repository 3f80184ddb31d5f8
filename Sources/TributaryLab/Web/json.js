// Where JSON text stops being JSON: browsers' own parse errors do not all say where.

/** The offset of the first error in `text`, and what was expected there; null for valid JSON. */
export function jsonError(text) {
  let at = 0;
  const fail = (expected) => { throw { at, expected }; };
  const space = () => { while (at < text.length && ' \t\n\r'.includes(text[at])) at += 1; };
  const literal = (word) => {
    if (text.startsWith(word, at)) at += word.length;
    else fail(`a value`);
  };
  const string = () => {
    at += 1;
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\\') {
        at += 1;
        if (text[at] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail('four hexadecimal digits');
          at += 4;
        } else if (!'"\\/bfnrt'.includes(text[at] ?? '')) fail('an escape');
      } else if (text.charCodeAt(at) < 0x20) fail('a closing quote before the line ends');
      at += 1;
    }
    if (at >= text.length) fail('a closing quote');
    at += 1;
  };
  const number = () => {
    const found = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (!found) fail('a value');
    at += found[0].length;
  };
  const value = () => {
    space();
    const character = text[at];
    if (character === '{') object();
    else if (character === '[') array();
    else if (character === '"') string();
    else if (character === 't') literal('true');
    else if (character === 'f') literal('false');
    else if (character === 'n') literal('null');
    else if (character === '-' || (character >= '0' && character <= '9')) number();
    else fail('a value');
    space();
  };
  const object = () => {
    at += 1;
    space();
    if (text[at] === '}') { at += 1; return; }
    for (;;) {
      space();
      if (text[at] !== '"') fail('a name in double quotes');
      string();
      space();
      if (text[at] !== ':') fail('a colon');
      at += 1;
      value();
      if (text[at] === ',') { at += 1; continue; }
      if (text[at] === '}') { at += 1; return; }
      fail('a comma or }');
    }
  };
  const array = () => {
    at += 1;
    space();
    if (text[at] === ']') { at += 1; return; }
    for (;;) {
      value();
      if (text[at] === ',') { at += 1; continue; }
      if (text[at] === ']') { at += 1; return; }
      fail('a comma or ]');
    }
  };
  try {
    value();
    if (at < text.length) fail('the end of the text');
    return null;
  } catch (error) {
    if (typeof error.at !== 'number') throw error;
    const before = text.slice(0, error.at);
    const line = before.split('\n').length;
    const column = error.at - before.lastIndexOf('\n');
    return { line, column, message: `line ${line}, column ${column}: expected ${error.expected}` };
  }
}

/**
 * `value` as JSON a person reads: keys in the document's own order, an object or array that fits
 * within `width` columns on one line, a longer one a key or an item a line. Four items take four
 * lines, not fifty, and reading it back gives `value`.
 */
export function formatJSON(value, width = 80) {
  const compact = (item) => {
    if (Array.isArray(item)) return `[${item.map(compact).join(', ')}]`;
    if (item !== null && typeof item === 'object') {
      return `{${Object.entries(item).map(([key, field]) => `${JSON.stringify(key)}: ${compact(field)}`).join(', ')}}`;
    }
    return JSON.stringify(item);
  };
  const format = (item, indent, lead) => {
    const one = compact(item);
    if (item === null || typeof item !== 'object' || (indent !== '' && indent.length + lead + one.length <= width)) return one;
    const inner = `${indent}  `;
    if (Array.isArray(item)) {
      if (item.length === 0) return '[]';
      return `[\n${item.map((entry) => inner + format(entry, inner, 0)).join(',\n')}\n${indent}]`;
    }
    const entries = Object.entries(item);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([key, field]) => {
      const name = `${JSON.stringify(key)}: `;
      return inner + name + format(field, inner, name.length);
    }).join(',\n')}\n${indent}}`;
  };
  return format(value, '', 0);
}

// The order in which a stream document's keys are written: what a thing is before what it holds.
const keyOrder = ['schemaVersion', 'id', 'name', 'description', 'operator', 'input', 'inputs', 'seconds', 'count', 'initial', 'expression', 'latest', 'value', 'delay', 'operators', 'items', 'ending', 'kind', 'after', 'message', 'streams', 'nodes'];

/**
 * A stream document with its keys in the document's own order, as it is written by hand (the
 * lab sends them sorted): a document's name before its streams, an id before what it names, a
 * value before its delay; keys it does not know keep the order they came in.
 */
export function inDocumentOrder(value) {
  if (Array.isArray(value)) return value.map(inDocumentOrder);
  if (value === null || typeof value !== 'object') return value;
  const rank = (key) => { const found = keyOrder.indexOf(key); return found < 0 ? keyOrder.length : found; };
  const keys = Object.keys(value).map((key, index) => [key, index]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]);
  return Object.fromEntries(keys.map(([key]) => [key, inDocumentOrder(value[key])]));
}

/** Whether `a` and `b` are the same JSON, whatever the order of their keys. */
export function sameJSON(a, b) {
  const sorted = (value) => {
    if (Array.isArray(value)) return value.map(sorted);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted(value[key])]));
  };
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

/** What a part or field holds, as JSON text; `deleted` where a side took it out. */
export function partText(value) {
  // In the document's own key order, so that two sides differ only where their values do.
  return value === undefined ? 'deleted' : JSON.stringify(inDocumentOrder(value));
}
