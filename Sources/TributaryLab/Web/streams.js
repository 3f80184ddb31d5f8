// Stream documents: the list, and an editor that runs and draws each version, saves with the
// version it was based on, and follows every other viewer's saves over the live socket.
import { api, debounced, docsLink, el, socketURL, status } from './dom.js';
import { formatJSON, inDocumentOrder, jsonError, sameJSON } from './json.js';
import { mergeDocuments, resolve } from './merge.js';
import { Draft, displayName, keepDisplayName } from './drafts.js';
import { LiveDocument } from './live-document.js';
import { RunView } from './diagram.js';
import { conflictBanner } from './conflicts.js';
import { DocumentForm } from './form.js';
import { errorText } from './values.js';

// The operators and the fields each reads, as TributaryStreams' catalogue says: fetched once.
let catalogue = null;
function operatorCatalogue() {
  catalogue ??= fetch('/api/operators').then((r) => r.json()).then((body) => body.operators)
    .catch(() => { catalogue = null; return []; });
  return catalogue;
}

export function renderStreams(main, navigate) {
  // `/streams/{id}`, the latest version, or `/streams/{id}/versions/{n}`, always that one.
  const parts = location.pathname.split('/');
  let id = parts[2] ?? '';
  try { id = decodeURIComponent(id); } catch { /* a malformed escape is no id, and is shown as it came */ }
  const pinned = parts[3] === 'versions' && /^[1-9][0-9]{0,9}$/.test(parts[4] ?? '') ? Number(parts[4]) : null;
  if (id && parts[3] === 'versions' && pinned === null) {
    // A version is a number from 1: anything else names none, and is not taken for the latest.
    main.replaceChildren(el('h1', {}, 'No such version'),
      el('p', { role: 'alert' }, `“${(parts[4] ?? '').slice(0, 40)}” is not a version: versions are numbered from 1.`),
      el('p', {}, el('a', { href: `/streams/${encodeURIComponent(id)}`, 'data-internal': true }, 'See the latest version')));
    return () => {};
  }
  return id ? renderEditor(main, navigate, id, pinned) : renderList(main, navigate);
}

function renderList(main, navigate) {
  const area = el('div', { 'aria-live': 'polite' }, status('loading', 'Loading documents…'));
  const examples = el('div', { class: 'panel' }, el('h2', {}, 'New from an example'));
  const open = el('form', {
    class: 'controls',
    onsubmit: (event) => {
      event.preventDefault();
      const text = event.target.elements.link.value.trim();
      const found = text.match(/([A-Za-z0-9_-]{22})\/?$/);
      if (found) navigate(`/streams/${found[1]}`);
      else openProblem.replaceChildren(status('failed', text ? `“${text}” is neither a document’s link nor its id, which is 22 letters, digits, - and _.` : 'Paste a document’s link or id first.'));
    },
  }, el('label', {}, 'Open a document by its link or id', el('input', { name: 'link', type: 'text', 'aria-label': 'Document link or id' })),
  el('button', { class: 'secondary', type: 'submit' }, 'Open'));
  const openProblem = el('div', { 'aria-live': 'polite', id: 'open-problem' });
  main.append(el('h1', {}, 'Stream documents'), open, openProblem, el('div', { class: 'split' }, el('div', { class: 'panel' }, el('h2', {}, 'Documents'), area), examples));

  api('/api/streams?limit=100').then(({ status: code, body }) => {
    if (code === 401) {
      area.replaceChildren(el('p', {}, 'To list and edit documents, open the link that ', el('code', {}, 'tributary lab'), ' printed: it holds the lab’s token. A document’s own link opens it without one.'));
      return;
    }
    if (!Array.isArray(body.documents)) {
      area.replaceChildren(status('failed', errorText(body.error) || 'The documents could not be listed.'));
      return;
    }
    if (body.documents.length === 0) {
      area.replaceChildren(el('p', { class: 'status' }, 'No documents yet: start from an example.'));
      return;
    }
    area.replaceChildren(el('ul', { class: 'docs' }, body.documents.map((doc) => el('li', {},
      el('a', { href: `/streams/${doc.id}`, 'data-internal': true }, doc.title),
      el('span', { class: 'meta' }, `version ${doc.version} · ${new Date(doc.updatedAt).toLocaleString()}`)))));
  }).catch(() => area.replaceChildren(status('failed', 'The lab could not be reached.')));

  api('/api/examples').then(({ body }) => {
    const list = el('ul', { class: 'docs' });
    for (const example of body.examples ?? []) {
      list.append(el('li', {}, el('span', {}, example.title), el('button', {
        class: 'secondary', type: 'button',
        onclick: async () => {
          // Credited to the name this browser goes by, where a header can carry it (Latin-1).
          const name = displayName();
          const headers = /^[\x20-\x7E\xA0-\xFF]+$/.test(name) ? { 'X-Author': name } : {};
          const made = await api('/api/streams', { method: 'POST', body: JSON.stringify(example.document), headers });
          if (made.status === 201) navigate(`/streams/${made.body.id}`);
          else examples.append(status('failed', made.status === 401 ? 'Creating a document needs the lab’s token: open the printed link.' : errorText(made.body.error)));
        },
      }, `New from “${example.title}”`)));
    }
    examples.append(list);
  });
  return () => {};
}

function renderEditor(main, navigate, id, pinned) {
  let base = null;          // the version the text is based on
  // Without the lab's session, or on a link to one version, the page shows the saved version as
  // the lab ran and drew it, and nothing can be changed.
  let readOnly = pinned !== null;
  let hasSession = false;   // whether this browser may edit, once the lab has said
  let baseDocument = null;  // that version's document, which a merge compares both sides with
  let latest = null;        // the newest version known
  let dirty = false;
  let shownText = '';       // the text as the version it is based on was shown
  let problem = null;       // why the text is no document, while it is not one
  let runProblem = null;    // why the text does not run, when that is the text's fault
  let conflictWith = null;  // the version whose conflicts with these edits are still to be chosen
  let live = null;          // the live connection, once the document is shown

  const heading = el('h1', {}, 'Document');
  const versionPill = el('span', { class: 'pill', 'aria-live': 'polite' }, '');
  const viewersPill = el('span', { class: 'pill', 'aria-live': 'polite' }, '');
  const nameField = el('input', {
    type: 'text', maxlength: '64', placeholder: 'Your name', value: displayName(), 'aria-label': 'Your name, shown to others',
    class: 'name-field', autocomplete: 'nickname',
  });
  const announceName = debounced(400, () => {
    keepDisplayName(nameField.value.trim());
    live?.send({ type: 'hello', name: nameField.value.trim() });
  });
  nameField.addEventListener('input', announceName);
  // The name saves are credited to: none is asked of a reader who cannot save.
  const identity = el('div', { class: 'identity' }, el('label', { class: 'name-label' }, 'You are', nameField));
  const saveButton = el('button', { class: 'primary', type: 'button', disabled: true, 'aria-describedby': 'save-reason', onclick: () => save() }, 'Save');
  const saveReason = el('span', { class: 'meta', id: 'save-reason' });
  const shareButton = el('button', { class: 'secondary', type: 'button', onclick: () => share() }, 'Share');
  const deleteButton = el('button', { class: 'secondary danger', type: 'button', onclick: () => confirmDeletion() }, 'Delete');
  const note = el('span', { class: 'meta note', role: 'status' });
  const banner = el('div', { 'aria-live': 'assertive' });
  const text = el('textarea', { class: 'json', spellcheck: 'false', wrap: 'off', 'aria-label': 'Document JSON', 'aria-describedby': 'json-error' });
  // Line numbers beside the text, as JSON errors name lines.
  const gutter = el('pre', { class: 'gutter', 'aria-hidden': 'true' });
  const numberLines = () => {
    const count = text.value.split('\n').length;
    if (gutter.childElementCount !== count) {
      gutter.replaceChildren(...Array.from({ length: count }, (_, index) => el('span', {}, String(index + 1))));
    }
    gutter.scrollTop = text.scrollTop;
  };
  text.addEventListener('scroll', () => { gutter.scrollTop = text.scrollTop; });
  const error = el('div', { class: 'error', id: 'json-error', role: 'status' });
  const form = new DocumentForm({
    read: () => parsed().value,
    write: (value) => {
      text.value = formatJSON(value);
      text.dispatchEvent(new Event('input'));
    },
    onProblems: () => markStale(runProblem),
  });
  const view = new RunView();
  const versions = el('ul', { class: 'versions', 'aria-label': 'Versions' });

  main.append(
    heading,
    identity,
    // What stays in reach while the page scrolls: the version, who is viewing, and the actions.
    el('div', { class: 'toolbar' }, versionPill, viewersPill,
      el('span', { class: 'spacer' }), note, deleteButton, shareButton, saveReason, saveButton),
    banner,
    el('div', { class: 'split' },
      el('div', { class: 'panel' }, el('h2', {}, 'Edit'), form.note, docsLink('tributarystreams/marblenotation', 'Marble notation'), form.element, el('label', { for: 'json' }, el('span', { class: 'visually-hidden' }, 'JSON')), el('div', { class: 'json-editor' }, gutter, text), error),
      el('div', { class: 'panel' }, el('div', { class: 'panel-head' }, el('h2', {}, 'Run ', view.staleLabel), view.zoomButton), view.failures, view.box, view.lanes, el('h2', {}, 'Versions'), versions)));
  text.id = 'json';

  // The run takes a few tens of milliseconds: the diagram is new within 150 ms of a pause.
  const rerun = debounced(100, () => run());
  text.addEventListener('input', () => {
    numberLines();
    // Edited is what says something other than the version it is based on: a field typed back
    // to what it was, or a change of layout alone, leaves nothing to save.
    dirty = differsFromBase();
    if (!dirty) forgetDraft();
    updateButtons();
    rerun();
    keepDraft();
  });

  /** Whether the text says something other than the version it is based on, layout aside. */
  function differsFromBase() {
    if (baseDocument === null) return true;
    if (text.value === shownText) return false;
    try { return !sameJSON(JSON.parse(text.value), baseDocument); } catch { return true; }
  }

  // What is typed and not saved is kept in the browser, per document, and offered back after a
  // reload; it is forgotten once saved or discarded.
  const draft = new Draft(id);
  const keepDraft = debounced(300, () => {
    if (readOnly || !dirty) return;
    draft.keep(base, text.value);
  });
  const forgetDraft = () => draft.forget();
  /** Offers the draft a reload left, unless it is what the document says already. */
  function offerDraft() {
    const kept = draft.kept();
    if (!kept || readOnly || sameText(kept.text)) return;
    const when = new Date(kept.at).toLocaleString();
    banner.replaceChildren(el('div', { class: 'banner', role: 'alert', id: 'draft-offer' },
      el('span', {}, `You have unsaved changes from ${when}, made on version ${kept.base}.`),
      el('button', { class: 'primary', type: 'button', onclick: () => {
        text.value = kept.text;
        text.dispatchEvent(new Event('input'));
        form.draw(parsed().value ?? baseDocument);
        banner.replaceChildren();
        updateButtons();
        note.textContent = kept.base === base ? 'Your unsaved changes are back.' : `Your unsaved changes are back; they began from version ${kept.base}.`;
      } }, 'Restore them'),
      el('button', { class: 'secondary', type: 'button', onclick: () => { forgetDraft(); banner.replaceChildren(); updateButtons(); } }, 'Discard them')));
    updateButtons();
  }
  function sameText(other) {
    try { return sameJSON(JSON.parse(other), JSON.parse(text.value)); } catch { return other === text.value; }
  }
  // Leaving with unsaved changes — a link, Back, closing the tab — asks first.
  const warnOnLeave = (event) => {
    if (!dirty || readOnly) return;
    event.preventDefault();
    event.returnValue = '';
  };
  addEventListener('beforeunload', warnOnLeave);
  // Ctrl-S or ⌘S saves, as the button does.
  const saveKeys = (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
      event.preventDefault();
      if (!saveButton.disabled) save();
    }
  };
  addEventListener('keydown', saveKeys);
  // What was typed while the lab was gone runs once it is back.
  const runAgain = () => { if (unrun) run(); };
  addEventListener('lab:reconnected', runAgain);

  function updateButtons() {
    if (readOnly) {
      saveButton.disabled = true;
      saveReason.textContent = '';
      versionPill.textContent = base === null ? '' : `version ${base} · read-only`;
      return;
    }
    const why = base === null ? 'The document is still loading.'
      : conflictWith !== null ? 'Choose theirs or mine for each conflict, then Merge.'
        : problem !== null ? (runProblem === null ? problem : 'Nothing to save until the document is valid.')
          : !dirty && document.getElementById('draft-offer') ? 'Your unsaved changes are set aside: restore them to save them.'
            : !dirty ? `No changes since version ${base}.`
              : !live?.isOpen ? 'Not connected to the lab: Save comes back with the connection, and your changes stay here.' : '';
    saveButton.disabled = why !== '';
    saveButton.title = saveButton.disabled ? why : `Save as version ${base + 1}`;
    saveReason.textContent = saveButton.disabled ? why : '';
    versionPill.textContent = base === null ? '' : `version ${base}${dirty ? ' · edited' : ''}`;
  }

  function show(documentObject, version) {
    text.value = formatJSON(inDocumentOrder(documentObject));
    shownText = text.value;
    numberLines();
    heading.textContent = documentObject.name ?? 'Untitled document';
    base = version;
    baseDocument = documentObject;
    latest = Math.max(latest ?? 0, version);
    dirty = false;
    conflictWith = null;
    // An offer to restore a draft stays until it is answered.
    const offer = document.getElementById('draft-offer');
    banner.replaceChildren(...(offer ? [offer] : []));
    if (readOnly) enterReadOnly();
    updateButtons();
    form.draw(documentObject);
    operatorCatalogue().then((list) => {
      form.operators = list;
      form.draw(parsed().value ?? documentObject);
    });
    run();
    loadVersions();
  }

  function parsed() {
    try {
      return { value: JSON.parse(text.value) };
    } catch (failure) {
      return { failure };
    }
  }

  /**
   * Dims the diagram and the lanes, which show the last document that ran, while the text does
   * not run; a text that is no valid document cannot be saved either.
   */
  function markStale(reason, invalid = reason !== null) {
    runProblem = invalid ? reason : null;
    // A stream's Marbles field that does not read as marbles is not in the JSON yet: the
    // diagram does not show it and Save waits for it, whatever the rest of the text says.
    const fieldProblem = form.problem;
    problem = runProblem ?? fieldProblem;
    const stale = reason ?? fieldProblem;
    view.markStale(stale);
    updateButtons();
  }

  let runs = 0;
  let unrun = false;        // whether the text changed while the lab could not run it
  async function run() {
    try {
      await runOnce();
    } catch {
      // The lab cannot be reached: the diagram is of the last text that ran, and says so, and
      // the text runs again once the lab is back.
      unrun = true;
      markStale('The lab cannot be reached: the diagram is of the text as it last ran.', false);
    }
  }

  async function runOnce() {
    const serial = ++runs;
    unrun = false;
    const { value, failure } = parsed();
    if (readOnly && base !== null && !dirty) {
      showRun(serial, value, ...await Promise.all([
        api(`/api/streams/${id}/run?version=${base}`),
        fetch(`/api/streams/${id}/diagram.svg?version=${base}`),
      ]));
      return;
    }
    if (failure) {
      text.setAttribute('aria-invalid', 'true');
      error.textContent = jsonError(text.value)?.message ?? failure.message;
      markStale(error.textContent);
      form.freeze(error.textContent);
      return;
    }
    // The form follows the text however it changed; a change made in the form is in it already,
    // and the field being typed in is left alone.
    if (!form.isFocused || form.frozen) {
      form.frozen = false;
      form.draw(value);
      form.freeze(null);
    }
    const [outcome, picture] = await Promise.all([
      api('/api/run', { method: 'POST', body: JSON.stringify(value) }),
      fetch('/api/diagram.svg', { method: 'POST', body: JSON.stringify(value), headers: { 'Content-Type': 'application/json' } }),
    ]);
    if (outcome.status === 401 && !readOnly) {
      // Running any text needs the session; the saved version does not.
      enterReadOnly();
      run();
      return;
    }
    showRun(serial, value, outcome, picture);
  }

  /** Shows a run's answer and its drawing, unless a later run is under way. */
  async function showRun(serial, value, outcome, picture) {
    if (serial !== runs) return; // a later run is under way
    if (!outcome.ok) {
      text.setAttribute('aria-invalid', 'true');
      error.textContent = errorText(outcome.body.error);
      form.showError(outcome.body.error);
      markStale(error.textContent, outcome.body.error?.code === 'invalidDocument');
      return;
    }
    text.removeAttribute('aria-invalid');
    error.textContent = '';
    form.showError(null);
    markStale(null);
    heading.textContent = value.name ?? 'Untitled document';
    form.showRun(outcome.body.marbles, outcome.body.values);
    view.showRun(outcome.body);
    if (picture.ok) {
      const drawing = await picture.text();
      if (serial === runs) view.place(drawing);
    }
  }

  async function loadVersions() {
    const answer = await api(`/api/streams/${id}/versions`);
    if (!answer.ok) return;
    versions.replaceChildren(...answer.body.versions.slice().reverse().map((version) => el('li', {},
      el('span', {}, `${version.number} · ${version.author} · ${new Date(version.time).toLocaleString()}`),
      el('button', {
        class: 'secondary', type: 'button', 'aria-label': `Open version ${version.number}`,
        onclick: async () => {
          if (readOnly) {
            navigate(`/streams/${id}/versions/${version.number}`);
            return;
          }
          const old = await api(`/api/streams/${id}/versions/${version.number}`);
          if (!old.ok) return;
          text.value = formatJSON(inDocumentOrder(old.body.document));
          numberLines();
          form.draw(old.body.document);
          dirty = differsFromBase();
          updateButtons();
          note.textContent = `Version ${version.number} opened: save to restore it.`;
          run();
        },
      }, 'Open'))));
  }

  function save() {
    const { value, failure } = parsed();
    if (failure || !live?.isOpen) return;
    // The name as typed now, even if it has not been kept yet.
    const author = nameField.value.trim();
    keepDisplayName(author);
    if (live.send({ type: 'save', baseVersion: base, document: value, author: author || undefined })) note.textContent = 'Saving…';
  }

  /** Asks on the page before deleting: the document and every version go, for every viewer. */
  function confirmDeletion() {
    const title = heading.textContent;
    banner.replaceChildren(el('div', { class: 'banner', role: 'alert' },
      el('span', {}, `Delete “${title}” and all its versions, for everyone? This cannot be undone.`),
      el('button', { class: 'primary danger', type: 'button', onclick: () => deleteDocument(title) }, 'Delete for good'),
      el('button', { class: 'secondary', type: 'button', onclick: () => banner.replaceChildren() }, 'Keep it')));
  }

  async function deleteDocument(title) {
    const answer = await api(`/api/streams/${id}`, { method: 'DELETE' });
    if (answer.status === 204 || answer.status === 404) {
      live?.close();
      main.replaceChildren(el('h1', {}, 'Document deleted'),
        el('p', { role: 'status' }, `“${title}” and its versions are gone.`),
        el('p', {}, el('a', { href: '/streams', 'data-internal': true }, 'All documents')));
      return;
    }
    banner.replaceChildren(status('failed', answer.status === 401
      ? 'Deleting needs the lab’s token: open the link that tributary lab printed.'
      : errorText(answer.body.error) || 'The document could not be deleted.'));
  }

  /**
   * Offers the links to share: the latest version, this version, and the diagram to embed in
   * another page; each can be selected or copied.
   */
  function share() {
    const version = base ?? pinned ?? 1;
    const embed = `${location.origin}/embed/${id}/versions/${version}`;
    const choices = [
      ['Latest version', `${location.origin}/streams/${id}`, 'share-latest'],
      [`This version (${version})`, `${location.origin}/streams/${id}/versions/${version}`, 'share-version'],
      ['Embed the diagram', `<iframe src="${embed}" title="Marble diagram" width="640" height="360" style="border:0"></iframe>`, 'share-embed'],
    ];
    const rows = choices.map(([label, value, name]) => {
      const field = el('input', { type: 'text', readonly: true, value, id: name, class: 'code', 'aria-label': label });
      field.addEventListener('focus', () => field.select());
      return el('div', { class: 'share-row' }, el('label', { for: name }, label), field,
        el('button', { class: 'secondary', type: 'button', onclick: async () => {
          try {
            await navigator.clipboard.writeText(value);
            note.textContent = `${label}: copied.`;
          } catch {
            field.select();
            note.textContent = 'Press Ctrl+C (⌘C) to copy.';
          }
        } }, 'Copy'));
    });
    const panel = el('div', { class: 'banner share', role: 'dialog', 'aria-label': 'Share', id: 'share-panel' },
      ...rows, el('button', { class: 'secondary', type: 'button', onclick: () => panel.remove() }, 'Close'));
    document.getElementById('share-panel')?.remove();
    banner.append(panel);
    panel.querySelector('input').focus();
  }

  /**
   * Makes the page a view of the saved version: the JSON, the form, Save and Delete cannot be
   * used, and one sentence says how to get in.
   */
  function enterReadOnly() {
    readOnly = true;
    identity.hidden = true;
    text.readOnly = true;
    form.makeReadOnly();
    for (const button of [saveButton, deleteButton]) {
      button.disabled = true;
      button.title = 'Open the link tributary lab printed to edit.';
    }
    updateButtons();
    const latestLink = pinned !== null
      ? [' ', el('a', { href: `/streams/${id}`, 'data-internal': true, id: 'latest-link' }, 'See the latest version.')]
      : [];
    banner.replaceChildren(el('p', { class: 'read-only-note', role: 'status', id: 'read-only-note' },
      pinned !== null
        ? `Version ${pinned} of this document, as it was saved, read-only.${hasSession ? '' : ' To edit the document, open the link tributary lab printed.'}`
        : ['Read-only: this is the saved document as the lab ran it. To edit, open the link ', el('code', {}, 'tributary lab'), ' printed.'],
      ...latestLink));
  }



  /**
   * Another save arrived while this page has edits: both are merged against the version the
   * edits began from. Parts and fields changed on one side only are taken as they are; each
   * field both changed differently is shown with theirs and mine side by side, the difference
   * marked, to choose one. `saving` saves once settled.
   */
  function reconcile(version, theirs, saving, author) {
    const mine = parsed().value;
    if (!mine || !baseDocument) {
      banner.replaceChildren(el('div', { class: 'banner', role: 'alert' },
        el('span', {}, `Version ${version} was saved by ${author ?? 'another viewer'}, and your text is not a document to merge. Reload to take theirs.`),
        el('button', { class: 'secondary', type: 'button', onclick: () => show(theirs, version) }, 'Reload')));
      return;
    }
    const result = mergeDocuments(baseDocument, mine, theirs);
    const settle = (merged) => {
      const keepEdits = !sameJSON(merged, theirs);
      show(theirs, version);
      if (keepEdits) {
        text.value = formatJSON(inDocumentOrder(merged));
        numberLines();
        form.draw(merged);
        dirty = true;
        updateButtons();
        run();
      }
      const taken = result.fromThem.length ? `their ${result.fromThem.join(', ')}` : 'nothing of theirs';
      const kept = result.fromMe.length ? `your ${result.fromMe.join(', ')}` : '';
      note.textContent = `Merged version ${version}${author ? ` by ${author}` : ''}: ${taken}${kept ? `, and ${kept}` : ''}.`;
      if (saving && keepEdits) save();
    };
    if (result.conflicts.length === 0) {
      settle(result.merged);
      return;
    }
    conflictWith = version;
    updateButtons();
    banner.replaceChildren(conflictBanner({
      result, version, author, saving,
      onMerge: (choices) => settle(resolve(result, choices, theirs, mine)),
      onTakeTheirs: () => show(theirs, version),
    }));
  }

  /** Follows every viewer's saves, from the version shown on. */
  function connect() {
    live = new LiveDocument(socketURL(`/api/streams/${id}/live`), {
      name: displayName,
      resumeFrom: () => (base === null ? null : latest),
      onOpen: updateButtons,
      onMessage: receive,
      onLost: connectionDropped,
      onEnded: (reason) => {
        connectionDropped();
        banner.replaceChildren(el('div', { class: 'banner', role: 'alert' }, reason));
      },
    });
    live.connect();
  }

  function connectionDropped() {
    updateButtons();
    if (note.textContent === 'Saving…') note.textContent = 'Not saved: the connection to the lab was lost. Save again once it is back.';
  }

  /** What the lab says on the live connection: a version, a conflict, a refusal, who is viewing. */
  function receive(message) {
    switch (message.type) {
      case 'snapshot':
        if (message.viewers) viewersPill.textContent = `${message.viewers} viewing`;
        if (!dirty || base === null) show(message.document, message.version);
        else if (message.version !== base) reconcile(message.version, message.document, false);
        latest = Math.max(latest ?? 0, message.version);
        break;
      case 'saved':
        latest = Math.max(latest ?? 0, message.version);
        if (note.textContent === 'Saving…' && !dirtySince(message)) {
          forgetDraft();
          note.textContent = `Saved as version ${message.version}.`;
          show(message.document, message.version);
        } else if (dirty) {
          reconcile(message.version, message.document, false, message.author);
          loadVersions();
        } else {
          show(message.document, message.version);
          note.textContent = `Version ${message.version} saved by ${message.author}.`;
        }
        break;
      case 'conflict':
        note.textContent = '';
        reconcile(message.version, message.document, true);
        break;
      case 'invalid':
        note.textContent = errorText(message.error);
        break;
      case 'presence': {
        const names = message.names ?? [];
        const others = message.viewers - names.length;
        viewersPill.textContent = names.length
          ? `${message.viewers} viewing: ${names.join(', ')}${others > 0 ? ` and ${others} more` : ''}`
          : `${message.viewers} viewing`;
        break;
      }
      case 'deleted':
      case 'notFound':
        // Nothing more will come: the connection is not made again.
        live.close();
        banner.replaceChildren(el('div', { class: 'banner', role: 'alert' }, 'This document was deleted.'));
        saveButton.disabled = true;
        break;
    }
  }

  /** Whether the text differs from the document just saved, beyond formatting. */
  function dirtySince(message) {
    const { value } = parsed();
    return !value || !sameJSON(value, message.document);
  }

  // Whether this browser has the lab's session is asked at once, so that a share link's
  // viewer is shown the saved version's run rather than refused a run of the text.
  const session = fetch('/api/session').then((r) => r.json()).catch(() => ({}));
  Promise.all([
    api(pinned === null ? `/api/streams/${id}` : `/api/streams/${id}/versions/${pinned}`),
    session,
  ]).then(([{ status: code, body }, { signedIn }]) => {
    if (code === 404 && pinned !== null && /version/.test(body.error?.message ?? '')) {
      // The document is there; the version is not.
      main.replaceChildren(el('h1', {}, 'No such version'),
        el('p', { role: 'alert' }, body.error.message),
        el('p', {}, el('a', { href: `/streams/${id}`, 'data-internal': true }, 'See the latest version')));
      return;
    }
    if (code === 404) {
      main.replaceChildren(el('h1', {}, 'No such document'),
        el('p', { role: 'alert' }, `There is no document “${id}”: it may have been deleted, or the link is not whole.`),
        el('p', {}, el('a', { href: '/streams', 'data-internal': true }, 'All documents')));
      return;
    }
    hasSession = signedIn !== false;
    if (!hasSession) readOnly = true;
    if (code !== 200) {
      main.replaceChildren(el('h1', {}, 'Document'), status('failed', errorText(body.error) || 'The document could not be loaded.'));
      return;
    }
    show(body.document, body.version);
    if (pinned !== null) {
      enterReadOnly();
      return;
    }
    offerDraft();
    connect();
  }).catch(() => main.replaceChildren(el('h1', {}, 'Document'), status('failed', 'The lab could not be reached.')));

  const leave = () => {
    view.close();
    live?.close();
    removeEventListener('beforeunload', warnOnLeave);
    removeEventListener('keydown', saveKeys);
    removeEventListener('lab:reconnected', runAgain);
  };
  // A link within the lab, or Back, asks as leaving the page does.
  leave.confirmLeaving = () => !dirty || readOnly
    || confirm('Leave this document? Your unsaved changes stay in this browser, offered again when you come back.');
  return leave;
}
