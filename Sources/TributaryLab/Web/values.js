// How the editor writes values and errors as text: the Values field, and a problem's place.

/** A value as the Values field writes it: plain text where that reads back as the same string. */
export function valueText(value) {
  if (typeof value === 'string' && /^[^,"=[\]{}]+$/.test(value) && value.trim() === value) {
    try { JSON.parse(value); } catch { return value; }
  }
  return JSON.stringify(value);
}

/** The Values field, `a=swift, b=rust`, as a table: each value JSON if it reads as JSON, else text. */
export function valuesTable(text) {
  const table = {};
  for (const entry of text.split(/,\s*(?=[^\s,=]=)/u)) {
    const at = entry.indexOf('=');
    if (at < 1) continue;
    const key = entry.slice(0, at).trim();
    const written = entry.slice(at + 1).trim();
    try { table[key] = JSON.parse(written); } catch { table[key] = written; }
  }
  return table;
}

/** An error body's message, with the JSON path of its place when it has one. */
export function errorText(error) {
  if (!error) return '';
  return error.path ? `${error.message} (at ${error.path})` : error.message;
}
