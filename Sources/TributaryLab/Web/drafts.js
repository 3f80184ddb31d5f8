// What the editor keeps in the browser: the name its user goes by, and each document's unsaved
// text, offered back after a reload. A browser that keeps nothing (a private window, storage
// turned off) loses them with the page, and nothing fails.

const nameKey = 'tributary.displayName';

/** The name others see beside this browser's saves and in who is viewing. */
export function displayName(storage = globalThis.localStorage) {
  try { return storage.getItem(nameKey) ?? ''; } catch { return ''; }
}

export function keepDisplayName(name, storage = globalThis.localStorage) {
  try { storage.setItem(nameKey, name); } catch { /* kept for the page only */ }
}

/** The unsaved text of one document: the version it began from, the text, and when. */
export class Draft {
  constructor(id, storage = globalThis.localStorage, now = () => Date.now()) {
    this.key = `tributary.draft.${id}`;
    this.storage = storage;
    this.now = now;
  }

  keep(base, text) {
    try { this.storage.setItem(this.key, JSON.stringify({ base, text, at: this.now() })); } catch { /* not kept */ }
  }

  forget() {
    try { this.storage.removeItem(this.key); } catch { /* nothing kept */ }
  }

  /** The draft kept, when there is one that reads: `{base, text, at}`. */
  kept() {
    let draft;
    try { draft = JSON.parse(this.storage.getItem(this.key) ?? 'null'); } catch { return null; }
    if (!draft || typeof draft.text !== 'string' || !Number.isFinite(draft.at)) return null;
    return draft;
  }
}
