// The news reader. The page holds no news logic: it sends its inputs over /api/news/live and
// shows the states that the Swift view models on the server push back. Debouncing, dropping
// blank and repeated searches and keeping only the latest answer happen there.
import { debounced, el, safeURL, socketURL, status } from './dom.js';

const categories = ['business', 'entertainment', 'general', 'health', 'science', 'sports', 'technology'];
const countries = [
  ['us', 'United States'], ['gb', 'United Kingdom'], ['ca', 'Canada'], ['au', 'Australia'],
  ['de', 'Germany'], ['fr', 'France'], ['it', 'Italy'], ['jp', 'Japan'], ['in', 'India'],
];
const views = [['top', 'Top headlines'], ['category', 'Categories'], ['search', 'Search'],
  ['sources', 'Sources'], ['feed', 'RSS / Atom']];
const queryHelp = 'Words must all appear; "exact phrase"; +must and -mustNot; AND, OR, NOT and ' +
  'parentheses: crypto AND (ethereum OR litecoin) NOT bitcoin.';

/** The reader's inputs as the address says them, so that a reload or Back shows the same view. */
function inputFromAddress() {
  const params = new URLSearchParams(location.search);
  const view = params.get('view') ?? (params.get('q') ? 'search' : 'top');
  const category = categories.includes(params.get('category')) ? params.get('category') : null;
  return {
    view,
    category: view === 'sources' ? 'technology' : category ?? 'technology',
    sourceCategory: view === 'sources' ? category : null,
    country: params.get('country') ?? (view === 'sources' ? '' : 'us'),
    q: params.get('q') ?? '',
    filter: params.get('filter') ?? '',
    source: params.get('source') ?? '',
    sourceName: params.get('name') ?? '',
    url: params.get('url') ?? '',
  };
}

export function renderNews(main, navigate) {
  const input = inputFromAddress();
  let articles = { state: 'idle', articles: [], canLoadMore: false };
  let sources = { state: 'idle', sources: [] };
  let closed = false;
  // What the news server has: its sources' countries and feeds to start from, once told.
  let choices = null;
  // Every input sent is numbered; a state answering an earlier one belongs to a view left.
  let seq = 0;

  const title = el('h1', {}, 'News');
  const tabs = el('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Feeds' });
  const controls = el('div', { class: 'controls' });
  const statusArea = el('div', { id: 'news-status', 'aria-live': 'polite' });
  const list = el('ul', { class: 'articles', 'aria-label': 'Articles' });
  const sourceList = el('ul', { class: 'sources', 'aria-label': 'Sources' });
  const more = el('div', { class: 'more' });
  main.append(title, tabs, controls, statusArea, list, sourceList, more);

  // The news reader's socket, reopened by itself when the lab was out of reach; what it shows
  // follows the inputs, which stay as typed and are sent again.
  let socket = null;
  let opened = false;
  let reconnecting = null;
  const send = (message) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  };
  function connect() {
    clearTimeout(reconnecting);
    const live = new WebSocket(socketURL('/api/news/live'));
    socket = live;
    live.addEventListener('open', () => {
      opened = true;
      sendInputs();
    });
    live.addEventListener('message', (event) => {
      const message = JSON.parse(event.data);
      if (message.type === 'choices') {
        choices = message;
        // Only the pickers that depend on them change, not a field someone may be typing in.
        for (const picker of controls.querySelectorAll('label.country')) {
          picker.replaceWith(countryPicker({ any: input.view === 'sources' }));
        }
        controls.querySelector('.suggestions')?.replaceWith(feedSuggestions());
        return;
      }
      if (message.seq < seq) return;
      if (message.type === 'articles') {
        articles = message;
        showArticles();
      } else if (message.type === 'sources') {
        sources = message;
        showSources();
      }
    });
    live.addEventListener('close', async () => {
      if (closed || socket !== live) return;
      if (!opened) {
        // A socket refused at once is, most often, a browser without the lab's session.
        const session = await fetch('/api/session').then((r) => r.json()).catch(() => ({}));
        if (session.signedIn === false) {
          statusArea.replaceChildren(status('failed',
            'Reading the news needs this browser to be signed in: open the link that tributary lab printed, the one ending in ?token=…'));
          return;
        }
      }
      statusArea.replaceChildren(status('loading', 'The connection to the lab was lost; reconnecting…'));
      reconnecting = setTimeout(connect, 1000);
    });
  }
  // The lab is back: reconnect at once rather than at the next try.
  const reconnected = () => {
    if (!closed && socket?.readyState === WebSocket.CLOSED) connect();
  };
  addEventListener('lab:reconnected', reconnected);
  connect();

  function feed() {
    switch (input.view) {
      case 'category': return { kind: 'category', category: input.category, country: input.country };
      case 'search': return { kind: 'search' };
      case 'source': return { kind: 'source', id: input.source };
      case 'feed': return input.url ? { kind: 'feed', url: input.url } : null;
      case 'sources': return null;
      default: return { kind: 'top', country: input.country };
    }
  }

  function sendInputs() {
    seq += 1;
    const wanted = feed();
    if (wanted) send({ type: 'input', feed: wanted, searchText: input.q, seq });
    if (input.view === 'sources') {
      send({ type: 'sources', country: input.country || null, category: input.sourceCategory || null, searchText: input.filter ?? '', seq });
    }
  }

  function address() {
    const query = new URLSearchParams();
    query.set('view', input.view);
    if (['top', 'category'].includes(input.view) || (input.view === 'sources' && input.country)) query.set('country', input.country);
    if (input.view === 'category') query.set('category', input.category);
    if (input.view === 'sources' && input.sourceCategory) query.set('category', input.sourceCategory);
    if (input.view === 'sources' && input.filter) query.set('filter', input.filter);
    if (input.view === 'source') { query.set('source', input.source); query.set('name', input.sourceName); }
    if (input.view === 'feed' && input.url) query.set('url', input.url);
    if (input.q && input.view !== 'sources') query.set('q', input.q);
    return `/news?${query}`;
  }

  // A burst of typing is one history entry: its first change adds one, the rest replace it.
  let typing = false;
  const typingEnds = debounced(1500, () => { typing = false; });

  /** Records the view in the history: a new entry for a new choice, or the same one while typing. */
  function remember({ typed = false } = {}) {
    const path = address();
    if (path === location.pathname + location.search) return;
    const replace = typed && typing;
    history[replace ? 'replaceState' : 'pushState']({}, '', path);
    typing = typed;
    if (typed) typingEnds();
  }

  /** Forgets what is shown, so that nothing of the view left stays under the new one. */
  function clearShown() {
    articles = { state: 'idle', articles: [], canLoadMore: false };
    sources = { state: 'idle', sources: [] };
    list.replaceChildren();
    sourceList.replaceChildren();
    more.replaceChildren();
    statusArea.replaceChildren();
  }

  function change(update) {
    Object.assign(input, update);
    if (['top', 'category'].includes(input.view) && !input.country) input.country = 'us';
    remember();
    show();
  }

  function show() {
    drawControls();
    clearShown();
    sendInputs();
  }

  /** Shows the view that the address names, after Back or Forward. */
  function reroute() {
    Object.assign(input, inputFromAddress());
    typing = false;
    show();
  }

  // Each tab's own search, kept while another is shown: a search typed in Search does not
  // narrow Top headlines.
  const searches = {};

  function drawTabs() {
    tabs.replaceChildren(...views.map(([view, label]) => el('button', {
      role: 'tab', type: 'button', 'aria-selected': String(input.view === view || (view === 'sources' && input.view === 'source')),
      onclick: () => {
        searches[input.view] = input.q;
        change({ view, q: searches[view] ?? '' });
      },
    }, label)));
  }

  function countryPicker({ any = false } = {}) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    const named = (code) => countries.find(([known]) => known === code)?.[1] ?? (() => {
      try { return names.of(code.toUpperCase()); } catch { return code; }
    })();
    let offered = choices?.countries?.length ? [...choices.countries] : countries.map(([code]) => code);
    if (input.country && !offered.includes(input.country)) offered = [input.country, ...offered];
    const options = offered.map((code) => [code, named(code)]).sort((a, b) => a[1].localeCompare(b[1]));
    return el('label', { class: 'country' }, 'Country', el('select', {
      'aria-label': 'Country', onchange: (event) => change({ country: event.target.value }),
    }, any ? el('option', { value: '', selected: !input.country }, 'Any country') : null,
    options.map(([code, name]) => el('option', { value: code, selected: code === input.country }, name))));
  }

  const typed = (text) => {
    // Every keystroke goes to the view model, which waits for the pause itself.
    input.q = text;
    remember({ typed: true });
    seq += 1;
    const wanted = feed();
    if (wanted) send({ type: 'input', feed: wanted, searchText: text, seq });
  };

  function searchBox() {
    const box = el('input', {
      type: 'search', value: input.q, placeholder: input.view === 'search' ? 'Search every article' : 'Narrow these articles',
      'aria-label': 'Search', 'aria-describedby': 'query-help', title: queryHelp, autocomplete: 'off',
      oninput: (event) => typed(event.target.value),
    });
    return el('label', {}, 'Search', box, el('span', { class: 'hint', id: 'query-state', 'aria-live': 'polite' }));
  }

  /** The feeds the news server suggests, once it has said which. */
  function feedSuggestions() {
    const feeds = choices?.feeds ?? [];
    return el('div', { class: 'suggestions', role: 'group', 'aria-label': 'Suggested feeds' },
      feeds.length ? el('span', { class: 'meta' }, 'Try') : null,
      feeds.map((url) => el('button', { type: 'button', class: 'secondary', onclick: () => change({ url }) }, url.split('/').pop())));
  }

  function drawControls() {
    drawTabs();
    const parts = [];
    if (input.view === 'top' || input.view === 'category') parts.push(countryPicker());
    if (input.view === 'category') {
      parts.push(el('label', {}, 'Category', el('select', {
        'aria-label': 'Category', onchange: (event) => change({ category: event.target.value }),
      }, categories.map((name) => el('option', { value: name, selected: name === input.category }, name[0].toUpperCase() + name.slice(1))))));
    }
    if (input.view === 'feed') {
      const field = el('input', { type: 'url', value: input.url, placeholder: 'The feed’s address', 'aria-label': 'Feed URL', required: true });
      parts.push(el('form', { class: 'controls', onsubmit: (event) => { event.preventDefault(); change({ url: field.value.trim() }); } },
        el('label', {}, 'Feed URL', field), el('button', { class: 'primary', type: 'submit' }, 'Read')));
      parts.push(feedSuggestions());
    }
    if (input.view === 'sources') {
      parts.push(countryPicker({ any: true }));
      parts.push(el('label', {}, 'Category', el('select', {
        'aria-label': 'Source category', onchange: (event) => change({ sourceCategory: event.target.value || null }),
      }, el('option', { value: '' }, 'Any'), categories.map((name) => el('option', { value: name, selected: name === input.sourceCategory }, name)))));
      parts.push(el('label', {}, 'Filter', el('input', {
        type: 'search', 'aria-label': 'Filter sources', value: input.filter ?? '',
        oninput: (event) => { input.filter = event.target.value; remember({ typed: true }); sendInputs(); },
      })));
    } else {
      parts.push(searchBox());
      parts.push(el('details', { class: 'hint', id: 'query-help' }, el('summary', {}, 'Search syntax'), queryHelp));
    }
    if (input.view === 'source') title.textContent = input.sourceName || 'Source';
    else title.textContent = 'News';
    controls.replaceChildren(...parts);
  }

  function retry() {
    return el('button', { class: 'secondary', onclick: () => send({ type: 'refresh' }) }, 'Retry');
  }

  function refreshButton() {
    return el('button', { class: 'secondary', id: 'refresh', onclick: () => send({ type: 'refresh' }) }, 'Refresh');
  }

  function showArticles() {
    if (input.view === 'sources') return;
    const { state } = articles;
    const count = articles.articles.length;
    const unfinished = document.getElementById('query-state');
    if (unfinished) unfinished.textContent = articles.unfinishedQuery ?? '';
    if (state === 'loading' && articles.refreshing) {
      statusArea.replaceChildren(status('loading', `Refreshing — showing the ${count} articles loaded before`));
    } else if (state === 'loading' && !articles.loadingMore) {
      statusArea.replaceChildren(status('loading', 'Loading articles…'));
    } else if (state === 'failed') {
      statusArea.replaceChildren(el('div', { class: 'alert', role: 'alert' },
        el('span', {}, `Failed — ${articles.error ?? 'the articles could not be loaded.'}`), retry()));
    } else if (state === 'loaded' && count === 0) {
      statusArea.replaceChildren(status('empty', articles.searchText ? `No articles match “${articles.searchText}”.` : 'No articles here.', refreshButton()));
    } else if (state === 'idle' && input.view === 'search') {
      statusArea.replaceChildren(status('idle', 'Type to search every article.'));
    } else if (state === 'idle') {
      statusArea.replaceChildren();
    } else {
      const noun = articles.totalResults === 1 ? 'article' : 'articles';
      statusArea.replaceChildren(status('loaded', `${count} of ${articles.totalResults} ${noun}`, refreshButton()));
    }
    list.setAttribute('data-query', articles.searchText ?? '');
    list.setAttribute('aria-busy', String(state === 'loading'));
    list.classList.toggle('stale', Boolean(articles.refreshing));
    list.replaceChildren(...articles.articles.map(card));
    more.replaceChildren();
    if (articles.canLoadMore) more.append(el('button', { class: 'secondary', id: 'load-more', onclick: () => send({ type: 'loadMore' }) }, 'Load more'));
    else if (articles.loadingMore) more.append(status('loading', 'Loading more…'));
    observe();
  }

  function card(article) {
    const link = safeURL(article.url);
    const picture = el('div', { class: 'thumb' });
    if (article.image) {
      const image = el('img', { src: article.image, alt: '', loading: 'lazy', decoding: 'async', width: 320, height: 180 });
      image.addEventListener('load', () => image.classList.add('loaded'));
      image.addEventListener('error', () => { image.remove(); picture.classList.add('broken'); });
      picture.append(image);
    } else {
      picture.classList.add('broken');
    }
    const when = article.publishedAt ? new Date(article.publishedAt).toLocaleString() : '';
    // An entry without a title says so, in a style of its own, rather than show a made-up one.
    const heading = article.title == null ? el('span', { class: 'untitled' }, 'Untitled') : article.title;
    return el('li', { class: 'card' }, picture, el('div', { class: 'body' },
      el('h3', {}, link ? el('a', { href: link, rel: 'noopener noreferrer', target: '_blank' }, heading) : heading),
      el('div', { class: 'meta' }, [article.source, article.author, when].filter(Boolean).join(' · ')),
      article.description ? el('p', {}, article.description) : null));
  }

  function showSources() {
    if (input.view !== 'sources') return;
    const { state } = sources;
    const count = sources.sources.length;
    if (state === 'loading') statusArea.replaceChildren(status('loading', 'Loading sources…'));
    else if (state === 'failed') {
      statusArea.replaceChildren(el('div', { class: 'alert', role: 'alert' },
        el('span', {}, `Failed — ${sources.error ?? 'the sources could not be loaded.'}`),
        el('button', { class: 'secondary', onclick: () => send({ type: 'refreshSources' }) }, 'Retry')));
    } else if (state === 'loaded') {
      statusArea.replaceChildren(status('loaded', count ? `${count} ${count === 1 ? 'source' : 'sources'}` : 'No sources match.',
        el('button', { class: 'secondary', id: 'refresh', onclick: () => send({ type: 'refreshSources' }) }, 'Refresh')));
    }
    more.replaceChildren();
    list.replaceChildren();
    sourceList.replaceChildren(...sources.sources.map((source) => el('li', {}, el('button', {
      type: 'button', onclick: () => change({ view: 'source', source: source.id, sourceName: source.name, q: '' }),
    }, el('strong', {}, source.name), el('span', { class: 'meta' }, [source.category, source.country].filter(Boolean).join(' · ')),
    source.description ? el('span', { class: 'meta' }, ` — ${source.description}`) : null))));
  }

  // Infinite scroll: the end of the list coming into view loads the next page.
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting) && articles.canLoadMore) send({ type: 'loadMore' });
  }, { rootMargin: '400px' });
  function observe() {
    observer.disconnect();
    observer.observe(more);
  }

  drawControls();
  history.replaceState({}, '', address());
  const leave = () => {
    closed = true;
    clearTimeout(reconnecting);
    removeEventListener('lab:reconnected', reconnected);
    observer.disconnect();
    socket?.close();
  };
  leave.reroute = reroute;
  return leave;
}
