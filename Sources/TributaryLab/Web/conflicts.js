// The editor's merge banner: each field that another save and these edits both changed, theirs
// and mine side by side with the difference marked, for the reader to choose one.
import { el } from './dom.js';
import { partText } from './json.js';
import { difference } from './merge.js';

/**
 * The banner that asks for a side for each of `result`'s conflicts with `version`. Nothing is
 * chosen for anyone: Merge waits until each field has its side, then calls `onMerge` with the
 * choices (field id → `theirs` or `mine`); "Take theirs whole" calls `onTakeTheirs`.
 */
export function conflictBanner({ result, version, author, saving, onMerge, onTakeTheirs }) {
  const choices = new Map();
  const mergeButton = el('button', { class: 'primary', type: 'button', disabled: true,
    onclick: () => onMerge(choices) }, saving ? 'Merge and save' : 'Merge');
  const left = el('span', { class: 'meta', id: 'merge-left' });
  const chosen = () => {
    const open = result.conflicts.length - choices.size;
    mergeButton.disabled = open > 0;
    left.textContent = open > 0 ? `${open === 1 ? 'One field' : `${open} fields`} still to choose.` : '';
  };
  const cell = (conflict, side, value, marked) => {
    const name = `choice-${conflict.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    const [before, differing, after] = marked;
    return el('td', {}, el('label', { class: 'choice' },
      el('input', { type: 'radio', name, value: side,
        'aria-label': `${side === 'mine' ? 'Mine' : 'Theirs'} for ${conflict.id}`,
        onchange: () => { choices.set(conflict.id, side); chosen(); } }),
      el('code', { title: partText(value) }, before, differing ? el('mark', {}, differing) : null, after)));
  };
  const rows = result.conflicts.map((conflict) => {
    const [theirsMarked, mineMarked] = difference(partText(conflict.theirs), partText(conflict.mine));
    const where = conflict.field === null ? conflict.part : [conflict.part, ' › ', el('strong', {}, conflict.field)];
    return el('tr', { 'data-conflict': conflict.id }, el('th', { scope: 'row' }, where),
      cell(conflict, 'theirs', conflict.theirs, theirsMarked), cell(conflict, 'mine', conflict.mine, mineMarked));
  });
  const merged = [...result.fromThem.map((key) => `${key} (theirs)`), ...result.fromMe.map((key) => `${key} (yours)`)];
  const count = result.conflicts.length;
  const banner = el('div', { class: 'banner merge', role: 'alert' },
    el('p', {}, `Version ${version}${author ? `, saved by ${author},` : ''} changed ${count === 1 ? 'a field' : `${count} fields`} you changed too. Choose theirs or mine for ${count === 1 ? 'it' : 'each'}:`),
    el('table', { class: 'conflicts' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Where'), el('th', { scope: 'col' }, `Theirs (version ${version})`), el('th', { scope: 'col' }, 'Mine'))),
      el('tbody', {}, rows)),
    merged.length ? el('p', { class: 'meta' }, `Merged without asking: ${merged.join(', ')}.`) : null,
    el('div', { class: 'merge-actions' }, mergeButton,
      el('button', { class: 'secondary', type: 'button', onclick: onTakeTheirs }, 'Take theirs whole'), left));
  chosen();
  return banner;
}
