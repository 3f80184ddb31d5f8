// The editor's form: a fieldset for each stream (its marbles, values and frame, which follow the
// latest run) and for each node (its operator, inputs and the fields its operator reads), each
// change written into the document's JSON as it is typed.
import { api, debounced, el } from './dom.js';
import { inDocumentOrder } from './json.js';
import { valueText, valuesTable } from './values.js';

/**
 * The form of a document. It reads the document from the editor with `read` (nil while the JSON
 * is not JSON), writes a changed one with `write`, and calls `onProblems` when a stream's
 * fields start or stop reading as marbles (``problem``).
 */
export class DocumentForm {
  constructor({ read, write, onProblems }) {
    this.read = read;
    this.write = write;
    this.onProblems = onProblems;
    this.element = el('div', {});
    this.note = el('p', { class: 'form-note', role: 'status', id: 'form-note', hidden: true });
    // The operators and the fields each reads, once the catalogue is fetched.
    this.operators = [];
    // Each stream's Marbles field that does not read as marbles, by the stream's index, and why.
    this.marbleProblems = new Map();
    // The Marbles, Values and Frame fields of each stream, which follow the latest run.
    this.marbleFields = new Map();
    // The field for each JSON path the form edits, where that path's errors are shown.
    this.fieldsByPath = new Map();
    this.lastMarbles = '';
    this.lastValues = {};
    // Each node's fields that an operator change set aside, brought back by a later operator
    // that reads them: map → delay → map keeps the expression.
    this.setAside = new Map();
    this.frozen = false;   // whether the form waits for the JSON to be JSON again
    this.readOnly = false;
    // A node's fields apply as they are typed, once typing pauses, as well as when they are left.
    const settle = debounced(300, (input) => { if (input.isConnected) input.dispatchEvent(new Event('change')); });
    this.element.addEventListener('input', (event) => {
      if (event.target.matches('fieldset.node input[type=text], fieldset.node input[type=number]')) settle(event.target);
    });
  }

  /** Why a stream's fields keep the document from being saved; null when none does. */
  get problem() {
    return this.marbleProblems.values().next().value ?? null;
  }

  /** Whether the reader is in one of the form's fields. */
  get isFocused() {
    return this.element.contains(document.activeElement);
  }

  /**
   * While the JSON is not JSON the form shows the last valid document, disabled, and says why;
   * `reason` null gives it back.
   */
  freeze(reason) {
    this.frozen = reason !== null;
    this.note.hidden = !this.frozen;
    this.note.textContent = this.frozen ? `The form shows the last valid document and waits for the JSON to be fixed: ${reason}` : '';
    this.element.classList.toggle('frozen', this.frozen);
    this.enable();
  }

  /** Makes every control usable, unless the form is frozen or read-only. */
  enable() {
    for (const control of this.element.querySelectorAll('input, select, textarea, button')) control.disabled = this.frozen || this.readOnly;
  }

  /** Makes the form a view: nothing in it can be changed. */
  makeReadOnly() {
    this.readOnly = true;
    this.enable();
  }

  /** Fills the streams' fields from a run's marbles and values. */
  showRun(marbles, values) {
    this.lastMarbles = marbles;
    this.lastValues = values ?? {};
    this.showMarbles();
  }

  /**
   * Shows `problem` beside the form field its JSON path leads to — the field of that key, or
   * else the nearest one above it — as well as under the JSON; clears the last one first.
   */
  showError(problem) {
    for (const old of this.element.querySelectorAll('.field-error')) old.remove();
    for (const invalid of this.element.querySelectorAll('[aria-invalid]')) invalid.removeAttribute('aria-invalid');
    if (!problem?.path) return;
    const parent = (path) => path.replace(/(\.[^.[\]]*|\[\d+\])$/, '');
    let path = problem.path;
    while (!this.fieldsByPath.has(path)) {
      if (parent(path) === path) return;
      path = parent(path);
    }
    const field = this.fieldsByPath.get(path);
    field.setAttribute('aria-invalid', 'true');
    const label = field.closest('label') ?? field;
    label.after(el('span', { class: 'field-error', role: 'alert' }, problem.message));
  }

  /**
   * Fills each stream's Marbles field with its lane as the run printed it, and its frame; a lane
   * whose values are longer than a character is printed with stand-ins, which the field cannot
   * take back, so it says where to edit them instead.
   */
  showMarbles() {
    const lines = this.lastMarbles.split('\n');
    const drawn = this.lastMarbles.match(/\(drawn at ([0-9.]+) seconds a frame/);
    for (const [id, { marbles, frame, values }] of this.marbleFields) {
      if ([marbles, frame, values].includes(document.activeElement)) continue;
      const line = lines.find((candidate) => candidate.startsWith(`${id} `) && !candidate.slice(id.length).trimStart().startsWith('='));
      const printed = line ? line.slice(id.length).trim() : '';
      marbles.value = printed;
      frame.value = drawn ? drawn[1] : '1';
      const used = [...new Set([...printed].filter((character) => character in this.lastValues))];
      values.value = used.map((character) => `${character}=${valueText(this.lastValues[character])}`).join(', ');
    }
  }

  draw(documentObject) {
    this.marbleFields = new Map();
    this.marbleProblems = new Map();
    this.fieldsByPath = new Map();
    // The text may hold anything while it is typed: the form shows what has the shape of a document.
    const entries = (list) => (Array.isArray(list) ? list : []).map((entry, index) => [entry, index])
      .filter(([entry]) => entry !== null && typeof entry === 'object' && !Array.isArray(entry));
    const streams = entries(documentObject?.streams).map(([stream, index]) => {
      const marbles = el('input', { type: 'text', 'aria-label': `Marbles of ${stream.id}`, class: 'code', title: 'One character a frame: - nothing, a value, | finished, # failed, (ab) together, 10s a time span' });
      const values = el('input', { type: 'text', 'aria-label': `Values of ${stream.id}`, class: 'code', placeholder: 'a=swift, b=rust', title: 'What letters of the marbles stand for: a=swift, b=rust, #=the failure' });
      const frame = el('input', { type: 'number', value: '1', min: '0.01', step: 'any', 'aria-label': `Seconds per frame of ${stream.id}` });
      this.marbleFields.set(stream.id, { marbles, frame, values });
      this.fieldsByPath.set(`$.streams[${index}]`, marbles);
      let applied = 0;
      const apply = async () => {
        const serial = ++applied;
        const answer = await api('/api/marbles', { method: 'POST', body: JSON.stringify({ marbles: marbles.value, frame: Number(frame.value), id: stream.id, values: valuesTable(values.value) }) });
        if (serial !== applied) return; // typed on since
        if (!answer.ok) {
          // The error names its place in the request, `$.marbles: …`; here it is the field's.
          const place = answer.body.error?.path ?? '';
          const label = place.startsWith('$.values') ? 'Values' : place.startsWith('$.frame') ? 'Frame' : 'Marbles';
          const message = (answer.body.error?.message ?? 'They do not read.').replace(/^\$[^:]*: /, '');
          this.showError({ path: `$.streams[${index}]`, message: `${label}: ${message}` });
          this.marbleProblems.set(index, `Fix the ${label} of stream ${stream.id} to save.`);
          this.onProblems();
          return;
        }
        this.marbleProblems.delete(index);
        this.onProblems();
        const value = this.read();
        if (!value?.streams?.[index]) return;
        value.streams[index] = inDocumentOrder(answer.body.stream);
        this.write(value);
      };
      // Applied as it is typed, once typing pauses, and at once when the field is left.
      const typed = debounced(300, apply);
      for (const input of [marbles, values, frame]) {
        input.addEventListener('input', typed);
        input.addEventListener('change', apply);
      }
      return el('fieldset', {}, el('legend', {}, `Stream ${stream.id}`), el('div', { class: 'controls' },
        el('label', {}, 'Marbles', marbles), el('label', {}, 'Values', values), el('label', {}, 'Frame (s)', frame)));
    });
    const nodes = entries(documentObject?.nodes).map(([node, index]) => {
      const update = (change) => {
        const value = this.read();
        if (!value) return;
        Object.assign(value.nodes[index], change);
        for (const [key, field] of Object.entries(change)) if (field === undefined) delete value.nodes[index][key];
        this.write(value);
      };
      const entry = this.operators.find((candidate) => candidate.name === node.operator);
      const joins = entry?.joins ?? Array.isArray(node.inputs);
      const inputs = Array.isArray(node.inputs) ? node.inputs : (node.input ? [String(node.input)] : []);
      // Another operator keeps the inputs and the fields both read, and starts the others.
      const choose = (name) => {
        const next = this.operators.find((candidate) => candidate.name === name);
        const now = this.read()?.nodes?.[index];
        if (!next || !now) return;
        const change = { operator: name };
        const kept = this.setAside.get(node.id) ?? {};
        for (const parameter of entry?.parameters ?? []) {
          if (now[parameter.key] !== undefined) kept[parameter.key] = now[parameter.key];
          change[parameter.key] = undefined;
        }
        this.setAside.set(node.id, kept);
        for (const parameter of next.parameters) change[parameter.key] = now[parameter.key] ?? kept[parameter.key] ?? parameter.initial;
        const reads = now.inputs ?? (now.input ? [now.input] : []);
        if (next.joins) Object.assign(change, { inputs: reads, input: undefined });
        else Object.assign(change, { input: reads[0] ?? '', inputs: undefined });
        update(change);
        this.draw(this.read() ?? documentObject);
      };
      const fields = (entry?.parameters ?? []).map((parameter) => {
        const made = parameterField(node, parameter, update);
        this.fieldsByPath.set(`$.nodes[${index}].${parameter.key}`, made.querySelector('input') ?? made);
        return made;
      });
      const select = el('select', { 'aria-label': `Operator of ${node.id}`, onchange: (event) => choose(event.target.value) },
        this.operators.map((candidate) => el('option', { value: candidate.name, selected: candidate.name === node.operator, title: candidate.summary }, candidate.name)));
      const inputsField = el('input', {
        type: 'text', value: inputs.join(', '), 'aria-label': `Inputs of ${node.id}`,
        placeholder: joins ? 'first, second' : null,
        onchange: (event) => {
          const names = event.target.value.split(',').map((name) => name.trim()).filter(Boolean);
          update(joins ? { inputs: names, input: undefined } : { input: names[0], inputs: undefined });
        },
      });
      for (const key of ['', '.operator', '.id']) this.fieldsByPath.set(`$.nodes[${index}]${key}`, select);
      for (const key of ['.input', '.inputs']) this.fieldsByPath.set(`$.nodes[${index}]${key}`, inputsField);
      return el('fieldset', { class: 'node' }, el('legend', {}, `Node ${node.id}`), el('div', { class: 'controls' },
        el('label', { title: entry?.summary }, 'Operator', select),
        el('label', {}, joins ? 'Inputs' : 'Input', inputsField), fields), entry ? el('p', { class: 'hint' }, entry.summary) : null);
    });
    this.element.replaceChildren(...streams, ...nodes);
    this.showMarbles();
    this.enable();
  }
}

/** The form field of one of a node's parameters, of the kind the catalogue gives it. */
function parameterField(node, parameter, update) {
  const label = `${parameter.summary} of ${node.id}`;
  const current = node[parameter.key];
  switch (parameter.kind) {
    case 'flag':
      return el('label', { class: 'flag' }, el('input', {
        type: 'checkbox', checked: current === true, 'aria-label': label,
        onchange: (event) => update({ [parameter.key]: event.target.checked }),
      }), parameter.summary);
    case 'seconds':
    case 'count':
      return el('label', {}, parameter.summary, el('input', {
        type: 'number', value: current ?? '', 'aria-label': label,
        min: parameter.kind === 'seconds' ? '0.001' : '0', step: parameter.kind === 'seconds' ? 'any' : '1',
        onchange: (event) => update({ [parameter.key]: event.target.value === '' ? undefined : Number(event.target.value) }),
      }));
    case 'value':
      return el('label', {}, parameter.summary, el('input', {
        type: 'text', value: current === undefined ? '' : JSON.stringify(current), 'aria-label': label,
        onchange: (event) => {
          // A JSON value as typed; anything else is taken as text.
          let value;
          try { value = JSON.parse(event.target.value); } catch { value = event.target.value; }
          update({ [parameter.key]: value });
        },
      }));
    default:
      return el('label', {}, parameter.summary, el('input', {
        type: 'text', value: current ?? '', 'aria-label': label, class: 'code',
        onchange: (event) => update({ [parameter.key]: event.target.value }),
      }));
  }
}
