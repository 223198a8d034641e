// The game's WebSocket: reconnects with backoff whenever the connection is
// lost, so that a reload or a dropped network never costs a game.

/**
 * GameSocket connects to /api/games/<id>/ws and calls handlers.message for
 * each message and handlers.status(connected) when the link goes up or down.
 */
export class GameSocket {
  constructor(id, handlers) {
    this.id = id;
    this.handlers = handlers;
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.timer = null;
    this.pinger = null;
    this.onVisible = () => {
      if (document.visibilityState === 'visible' && !this.isOpen()) this.reconnectNow();
    };
    this.onOnline = () => this.reconnectNow();
    document.addEventListener('visibilitychange', this.onVisible);
    window.addEventListener('online', this.onOnline);
    this.connect();
  }

  isOpen() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    clearTimeout(this.timer);
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${scheme}//${location.host}/api/games/${encodeURIComponent(this.id)}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.handlers.status(true);
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: 'ping' }), 25000);
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch (err) {
        return;
      }
      this.handlers.message(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      clearInterval(this.pinger);
      this.handlers.status(false, e.code);
      if (this.closed) return;
      const delay = Math.min(10000, 400 * 2 ** this.attempt) + Math.random() * 300;
      this.attempt++;
      this.timer = setTimeout(() => this.connect(), delay);
    };
    ws.onerror = () => {};
  }

  reconnectNow() {
    if (this.closed || this.isOpen()) return;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    this.attempt = 0;
    this.connect();
  }

  /** Sends a message; reports false when the link is down. */
  send(msg) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Closes the link for good. */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    document.removeEventListener('visibilitychange', this.onVisible);
    window.removeEventListener('online', this.onOnline);
    if (this.ws) this.ws.close(1000);
  }
}
