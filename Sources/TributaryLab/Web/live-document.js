// The editor's live connection to one document (`GET /api/streams/{id}/live`): it says who is
// viewing, resumes from the version the page has, hands on each message, and is made again a
// second after it drops, or at once when the lab says it is back, until it is closed.

/**
 * `options`:
 * - `name()`: the viewer's name, sent as `hello` when there is one;
 * - `resumeFrom()`: the newest version the page has, sent as `resume`; null before the first;
 * - `onOpen()`, `onMessage(message)`, `onLost()` (it dropped and is being made again) and
 *   `onEnded(reason)` (the lab ended it for good: 1008 or 1011).
 *
 * `environment` is what a browser gives, given otherwise in tests: `WebSocket`, `setTimeout`,
 * `clearTimeout` and `events`, where the page announces `lab:reconnected`.
 */
export class LiveDocument {
  constructor(url, options, environment = globalThis) {
    this.url = url;
    this.options = options;
    this.environment = environment;
    this.socket = null;
    this.retry = null;
    this.closed = false;
    this.reconnected = () => {
      if (this.closed || this.isOpen || this.isConnecting) return;
      this.environment.clearTimeout(this.retry);
      this.connect();
    };
    environment.events?.addEventListener?.('lab:reconnected', this.reconnected);
  }

  get isOpen() { return this.socket?.readyState === 1; }

  get isConnecting() { return this.socket?.readyState === 0; }

  connect() {
    if (this.closed) return;
    this.environment.clearTimeout(this.retry);
    const previous = this.socket;
    const socket = new this.environment.WebSocket(this.url);
    this.socket = socket;
    if (previous && previous.readyState <= 1) previous.close();
    socket.addEventListener('open', () => {
      const name = this.options.name?.();
      if (name) this.send({ type: 'hello', name });
      const version = this.options.resumeFrom?.();
      if (version !== null && version !== undefined) this.send({ type: 'resume', version });
      this.options.onOpen?.();
    });
    socket.addEventListener('message', (event) => {
      // A socket replaced by a newer one says nothing more.
      if (this.socket !== socket) return;
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      this.options.onMessage?.(message);
    });
    socket.addEventListener('close', (event) => {
      if (this.closed || this.socket !== socket) return;
      if (event.code === 1011 || event.code === 1008) {
        this.options.onEnded?.(event.reason || 'The live connection ended.');
        return;
      }
      this.options.onLost?.();
      this.retry = this.environment.setTimeout(() => this.connect(), 1000);
    });
  }

  /** Sends `message` as JSON; false when the connection is not open. */
  send(message) {
    if (!this.isOpen) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closed = true;
    this.environment.clearTimeout(this.retry);
    this.environment.events?.removeEventListener?.('lab:reconnected', this.reconnected);
    this.socket?.close();
  }
}
