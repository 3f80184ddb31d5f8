// The lab's sections, each a view of the path: /news…, /streams… and /recordings….
import './connection.js';
import { docsLink } from './dom.js';
import { renderNews } from './news.js';
import { renderRecordings } from './recordings.js';
import { renderStreams } from './streams.js';

const sections = { news: renderNews, streams: renderStreams, recordings: renderRecordings };

const main = document.getElementById('main');
let leave = null;

/**
 * Shows `path` (with its query), adding it to the history unless `replace`; `fresh` builds the
 * view anew rather than letting the one shown follow the address.
 */
export function navigate(path, { replace = false, fresh = false } = {}) {
  if (path !== location.pathname + location.search) {
    history[replace ? 'replaceState' : 'pushState']({}, '', path);
  }
  if (fresh) shown = null;
  route({ pushed: true });
}

let shown = null;
// The address shown, to return to when leaving is called off.
let current = location.pathname + location.search;

function route({ pushed = false } = {}) {
  // A view with unsaved changes asks before it is left; if it stays, so does the address.
  if (leave?.confirmLeaving && (location.pathname + location.search) !== current && !leave.confirmLeaving()) {
    history[pushed ? 'replaceState' : 'pushState']({}, '', current);
    return;
  }
  current = location.pathname + location.search;
  const first = location.pathname.split('/')[1];
  const section = first in sections ? first : 'news';
  // Within one section a view that can follow the address does so, keeping its connection.
  if (shown === section && leave?.reroute) {
    leave.reroute();
    return;
  }
  if (leave) leave();
  leave = null;
  shown = section;
  for (const link of document.querySelectorAll('nav a[data-section]')) {
    if (link.dataset.section === section) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  main.replaceChildren();
  leave = sections[section](main, navigate);
}

document.addEventListener('click', (event) => {
  const link = event.target.closest('a[data-section], a[data-internal]');
  if (!link || link.origin !== location.origin) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
  event.preventDefault();
  navigate(link.pathname + link.search);
  main.focus();
});
addEventListener('popstate', route);
// The package's documentation, when the lab was started with it built.
document.getElementById('docs-link').replaceWith(docsLink('', 'Docs'));
// A page the browser keeps to go Back to holds no view while it is away, so that it is not
// counted among a document's viewers; coming back builds the view again, and an editor offers
// what was typed, kept as a draft.
addEventListener('pagehide', (event) => {
  if (!event.persisted || !leave) return;
  leave();
  leave = null;
  shown = null;
});
addEventListener('pageshow', (event) => { if (event.persisted) route(); });
route();
