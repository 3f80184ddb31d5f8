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
