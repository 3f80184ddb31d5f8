// The editor's run panel: the lab's drawing of the last run, its lanes as text, why lanes failed,
// and a stale mark while the text does not run.
import { el } from './dom.js';

/**
 * The drawing is the lab's own SVG placed in the page, not an image, so that a marble's title
 * shows its whole value on hover. The whole run shows at first sight, scaled to the box at any
 * width, a phone's included; "Actual size" draws it at its own size, to pan across for detail,
 * and "Fit" scales it back.
 */
export class RunView {
  constructor() {
    this.box = el('div', { class: 'diagram-box' });
    this.failures = el('ul', { class: 'run-failures', id: 'run-failures', 'aria-live': 'polite' });
    this.lanes = el('pre', { class: 'lanes', 'aria-label': 'Marbles as text' });
    this.staleLabel = el('span', { class: 'stale-label', hidden: true }, 'stale');
    this.zoom = 'fit';
    this.drawing = null;
    this.zoomButton = el('button', {
      class: 'secondary small', type: 'button', id: 'zoom', 'aria-pressed': 'false',
      onclick: () => this.toggleZoom(),
    }, 'Actual size');
    this.resized = new ResizeObserver(() => this.fit());
    this.resized.observe(this.box);
  }

  /** Sizes the drawing for the box: fitted, at most half again its own size, or its own. */
  fit() {
    const natural = Number(this.drawing?.getAttribute('width'));
    if (!natural) return;
    const room = this.box.clientWidth - 2;
    const width = this.zoom === 'fit' ? Math.min(room, natural * 1.5) : natural;
    this.drawing.style.width = `${Math.round(width)}px`;
    this.drawing.style.height = 'auto';
  }

  toggleZoom() {
    this.zoom = this.zoom === 'fit' ? 'actual' : 'fit';
    this.zoomButton.textContent = this.zoom === 'fit' ? 'Actual size' : 'Fit';
    this.zoomButton.setAttribute('aria-pressed', String(this.zoom === 'actual'));
    this.fit();
  }

  /** Dims the drawing and the lanes, saying why, while `reason` is not null. */
  markStale(reason) {
    this.box.classList.toggle('stale', reason !== null);
    this.lanes.classList.toggle('stale', reason !== null);
    this.staleLabel.hidden = reason === null;
    this.staleLabel.title = reason ?? '';
  }

  /** Shows a run's lanes as text, and why any lane failed, as the drawing shows it. */
  showRun(body) {
    this.lanes.textContent = body.marbles;
    const failed = (body.timeline ?? []).filter((event) => event.kind?.failure);
    const lines = failed.map((event) => {
      const message = event.kind.failure._0 ?? Object.values(event.kind.failure)[0];
      return el('li', { role: 'alert' }, el('strong', {}, event.lane), ` failed at ${event.time}s: ${message}`);
    });
    if (body.isTruncated) lines.push(el('li', { role: 'alert' }, 'The run was stopped by a guard before every lane ended.'));
    this.failures.replaceChildren(...lines);
  }

  /** Places the lab's SVG text, its drawing elements only: nothing that runs or loads. */
  place(svgText) {
    const drawing = new DOMParser().parseFromString(svgText, 'image/svg+xml').documentElement;
    if (drawing.nodeName !== 'svg') return;
    for (const node of drawing.querySelectorAll('script, foreignObject, a, image, use')) node.remove();
    this.drawing = document.importNode(drawing, true);
    this.drawing.classList.add('diagram');
    this.box.replaceChildren(this.drawing);
    this.fit();
  }

  /** Stops following the box's size, once the page is left. */
  close() {
    this.resized.disconnect();
  }
}
