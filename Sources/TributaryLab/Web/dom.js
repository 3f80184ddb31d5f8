// Building the page from data: every string is a text node or an attribute value, never markup.

/** An element with attributes (`on…` ones become listeners) and children (strings become text). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      node.addEventListener(name.slice(2), value);
    } else if (name === 'class') {
      node.className = value;
    } else {
      node.setAttribute(name, value === true ? '' : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * `text` as a link target if it is an http(s) URL; anything else (javascript:, data:) is dropped,
 * and so is no text at all, which would otherwise resolve to a page of this site named "undefined".
 */
export function safeURL(text) {
  if (typeof text !== 'string' || text.trim() === '') return null;
  try {
    const url = new URL(text, location.href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The status line: a spinner with its words while loading, words alone otherwise. */
export function status(kind, words, action) {
  return el(
    'div',
    { class: `status ${kind}`, role: kind === 'failed' ? 'alert' : 'status' },
    kind === 'loading' ? el('span', { class: 'spinner', 'aria-hidden': 'true' }) : null,
    el('span', {}, words),
    action ?? null
  );
}

/** A WebSocket URL on this page's own origin. */
export function socketURL(path) {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
}

/** Calls `action` once typing has paused for `delay` milliseconds. */
export function debounced(delay, action) {
  let timer = null;
  return (...values) => {
    clearTimeout(timer);
    timer = setTimeout(() => action(...values), delay);
  };
}

/** A request to the lab's API with the page's session: the status and the body, read as JSON when it is JSON. */
export async function api(path, options = {}) {
  const response = await fetch(path, {
    ...options,
    headers: { 'Content-Type': 'application/json', ...(options.headers ?? {}) },
    credentials: 'same-origin',
  });
  const type = response.headers.get('Content-Type') ?? '';
  const body = type.includes('json') ? await response.json() : await response.text();
  return { status: response.status, ok: response.ok, body, headers: response.headers };
}

/**
 * A link to an article of the package's documentation at `path` under `/docs/documentation/`,
 * shown only when the lab serves the documentation.
 */
export function docsLink(path, words) {
  const link = el('a', { href: `/docs/documentation/${path}`, class: 'docs-link', hidden: true }, words);
  documentation.then((served) => { link.hidden = !served; });
  return link;
}

// Whether the lab serves the package's documentation at /docs, asked once.
const documentation = fetch('/api/session').then((r) => r.json())
  .then((session) => session.documentation === true).catch(() => false);
