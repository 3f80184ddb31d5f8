// Whether the lab can be reached, for every page: one quiet WebSocket that the lab closes only
// when it stops, and a broken network ends, reopened by itself after a pause that grows to five
// seconds. A banner says at once when the lab is gone and says when it is back; views with
// sockets of their own hear `lab:reconnected` on window, and catch up at once.
import { el, socketURL } from './dom.js';

const banner = document.getElementById('connection');
let socket = null;
let lost = false;
let attempts = 0;
let retry = null;
let hiding = null;
// When the lab that answered started, which tells a restarted lab from a network come back.
let startedAt = null;

function say(kind, ...words) {
  clearTimeout(hiding);
  banner.className = `connection ${kind}`;
  banner.replaceChildren(...words);
  banner.hidden = false;
  if (kind === 'back') hiding = setTimeout(() => { banner.hidden = true; }, 5000);
}

function open() {
  clearTimeout(retry);
  const pulse = new WebSocket(socketURL('/api/pulse'));
  socket = pulse;
  pulse.addEventListener('message', (event) => {
    let message = null;
    try { message = JSON.parse(event.data); } catch { return; }
    if (message?.type !== 'lab') return;
    const restarted = startedAt !== null && message.startedAt !== startedAt;
    startedAt = message.startedAt;
    attempts = 0;
    if (!lost) return;
    lost = false;
    say('back', restarted ? 'The lab is back: it was restarted. Nothing you typed was lost.' : 'Connected to the lab again.');
    dispatchEvent(new CustomEvent('lab:reconnected', { detail: { restarted } }));
  });
  pulse.addEventListener('close', () => {
    if (socket !== pulse) return;
    socket = null;
    const pause = Math.min(5000, 500 * 2 ** attempts);
    attempts += 1;
    retry = setTimeout(open, pause);
    if (lost) return;
    lost = true;
    say('lost', el('span', {}, 'The lab cannot be reached. Reconnecting by itself; what you type stays on this page.'),
      el('button', { class: 'secondary small', type: 'button', onclick: () => { if (!socket) open(); } }, 'Try now'));
  });
}

// A browser that says it is online again need not wait for the next try.
addEventListener('online', () => { if (lost && !socket) open(); });
// A page the browser keeps to go Back to holds no socket while it is away.
addEventListener('pagehide', (event) => {
  if (!event.persisted || !socket) return;
  const pulse = socket;
  socket = null;
  clearTimeout(retry);
  pulse.close();
});
addEventListener('pageshow', (event) => { if (event.persisted && !socket) open(); });
open();
