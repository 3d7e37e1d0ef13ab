// The one WebSocket to the server (protocol.md): hello first, one reply per request matched by
// `id`, unsolicited messages handed to listeners, and a silent reconnect with backoff. Requests
// made while the line is down wait and go out after the next `welcome`; a move whose reply was
// lost is sent again, which the server answers with the stored update (same version). While
// the server cannot reach its database it answers `unavailable` with `retry_after_ms`: the
// request (or the hello) goes again after that time, and the badge says "reconnecting…".

export class ServerError extends Error {
  constructor(reply) {
    super(reply.message || reply.code);
    this.code = reply.code;
    this.reply = reply;
  }
}

const BACKOFF_MS = [300, 1000, 2000, 4000, 8000];
const UNAVAILABLE_RETRIES = 30;  // about half a minute at the server's usual second

export class Connection {
  #socket = null;
  #nextId = 1;
  #pending = new Map();     // id -> {message, resolve, reject}
  #listeners = new Map();   // type -> Set of handlers
  #attempt = 0;
  #credentials = null;      // {token}, {name}, or {} for an account (its cookie)
  #online = false;

  constructor(url = Connection.defaultUrl()) { this.url = url; }

  static defaultUrl() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${scheme}//${location.host}/ws`;
  }

  get online() { return this.#online; }

  // Starts (or restarts) the session as the player with this token, or as a new player.
  start(credentials) {
    this.#credentials = credentials;
    this.#open();
  }

  on(type, handler) {
    if (!this.#listeners.has(type)) this.#listeners.set(type, new Set());
    this.#listeners.get(type).add(handler);
    return () => this.#listeners.get(type).delete(handler);
  }

  // Sends a message and resolves with its reply; rejects with ServerError on an error reply.
  // `resend: false` refuses to repeat a request whose reply was lost (it rejects instead).
  request(message, { resend = true } = {}) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { message: { ...message, id }, resolve, reject, resend, sent: false });
      if (this.#online) this.#send(id);
    });
  }

  #emit(type, payload) {
    for (const handler of this.#listeners.get(type) ?? []) handler(payload);
  }

  #send(id) {
    const entry = this.#pending.get(id);
    entry.sent = true;
    this.#socket.send(JSON.stringify(entry.message));
  }

  #open() {
    this.#emit('status', 'connecting');
    const socket = new WebSocket(this.url);
    this.#socket = socket;
    socket.onopen = () => this.#sendHello(socket);
    socket.onmessage = (event) => this.#receive(JSON.parse(event.data));
    socket.onclose = () => this.#closed(socket);
  }

  #receive(message) {
    if (message.type === 'welcome' && !this.#online) return this.#welcomed(message);
    if (message.type === 'error' && !this.#online && message.id === undefined) {
      if (message.code === 'unavailable') return this.#later(message, () => this.#sendHello(this.#socket));
      return this.#helloRefused(message);
    }
    const entry = message.id !== undefined ? this.#pending.get(message.id) : undefined;
    if (entry && message.code === 'unavailable' && (entry.retries ?? 0) < UNAVAILABLE_RETRIES) {
      entry.retries = (entry.retries ?? 0) + 1;  // nothing happened: the same request again
      return this.#later(message, () => { if (this.#online && this.#pending.has(message.id)) this.#send(message.id); });
    }
    if (entry) {
      this.#pending.delete(message.id);
      if (message.type === 'error') entry.reject(new ServerError(message));
      else entry.resolve(message);
      // Replies that change what everyone sees (room, update) also go to the listeners.
      if (message.type !== 'error') this.#emit(message.type, message);
      return;
    }
    this.#emit(message.type, message);
  }

  // The server cannot reach its database for a moment: `again` after the time it asks for.
  #later(refusal, again) {
    this.#emit('status', 'retrying');
    setTimeout(() => {
      if (this.#online) this.#emit('status', 'online');
      again();
    }, refusal.retry_after_ms ?? 1000);
  }

  #sendHello(socket) {
    if (socket && socket === this.#socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'hello', ...this.#credentials }));
  }

  #welcomed(welcome) {
    this.#online = true;
    this.#attempt = 0;
    // Reconnections say the same hello: a guest's token, or nothing for an account (the
    // cookie on the upgrade says who it is).
    this.#credentials = welcome.token ? { token: welcome.token } : {};
    this.#emit('welcome', welcome);
    this.#emit('status', 'online');
    for (const [id, entry] of this.#pending) {
      if (!entry.sent || entry.resend) this.#send(id);
      else { this.#pending.delete(id); entry.reject(new ServerError({ code: 'connection_lost' })); }
    }
  }

  // A stored token the server does not know (for instance a fresh database): start over as a
  // new player with the same name.
  #helloRefused(error) {
    this.#emit('hello_refused', error);
  }

  #closed(socket) {
    if (socket !== this.#socket) return;
    this.#online = false;
    this.#emit('status', 'offline');
    const delay = BACKOFF_MS[Math.min(this.#attempt++, BACKOFF_MS.length - 1)];
    // Not when a restart or a stop came meanwhile (a guest who signed up: the server closed his
    // token's socket just before the page restarted as the account): one socket at a time.
    setTimeout(() => { if (this.#socket === socket) this.#open(); }, delay);
  }

  // Closes the connection for good (logging out): nothing reconnects until `start` again.
  // Requests still waiting fail as lost.
  stop() {
    const old = this.#socket;
    this.#socket = null;
    this.#online = false;
    this.#credentials = null;
    old?.close();
    for (const [id, entry] of this.#pending) {
      this.#pending.delete(id);
      entry.reject(new ServerError({ code: 'connection_lost' }));
    }
    this.#emit('status', 'idle');
  }

  // Drops the socket (tests and "use another name"); it reconnects by itself unless stopped.
  restart(credentials) {
    this.#credentials = credentials;
    const old = this.#socket;
    this.#socket = null;
    this.#online = false;
    old?.close();
    this.#open();
  }
}
