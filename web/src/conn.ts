// The WebSocket connection of a game page: connects as a seat (or spectator), reconnects after a network
// drop or a server restart with `since=<last seq>`, and asks for `sync` on a gap.

import { reconnectDelay } from './logic/backoff';
import type { SeatCredential } from './store';
import type { ClientOp } from './wire/server/ClientOp';
import type { GameMessage } from './wire/server/GameMessage';
import type { SocketMsg } from './wire/server/SocketMsg';

/** What a game's socket sends: a snapshot or update, or another message (ack, error, pong, chat,
 * analysis). Generated from the server's types (crates/server/src/wire/game.rs). */
export type ServerMsg = GameMessage | SocketMsg;

/** What a client sends on it (the connection numbers it: `id`). */
export type { ClientOp };

export interface ConnHandlers {
  onMessage: (msg: ServerMsg) => void;
  onStatus: (connected: boolean, detail: string) => void;
  /** The server closed the seat's socket because its token was replaced (a lobby claim): the seat is
   * no longer this device's, and the connection does not redial with the old token. */
  onRevoked?: () => void;
  /** The server has no such game (its address is wrong or the game was never created): the connection
   * gives up instead of redialling forever. */
  onGone?: () => void;
}

/** The close code the server uses for a seat token that was replaced (`bad_token`, docs/protocol.md). */
export const CLOSE_TOKEN_REPLACED = 1008;

export const REVOKED_TEXT = 'this seat has a new token (claimed with a new link, or its account changed its password) — it is no longer played from this device with the old one';

/** A ping every PING_MS; a connection that heard nothing for SILENT_MS is taken for dead. */
const PING_MS = 10000;
const SILENT_MS = 25000;

export class GameConn {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private nextId = 1;
  private closed = false;
  private timer: number | undefined;
  private pingTimer: number | undefined;
  private lastHeard = 0;
  lastSeq = 0;

  constructor(
    private readonly gameId: string,
    private readonly cred: SeatCredential | null,
    private readonly handlers: ConnHandlers,
  ) {}

  url(): string {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = new URLSearchParams();
    // The seat's number only: its token goes in the subprotocols (see `protocols`), never in the URL
    // that proxies log.
    if (this.cred) q.set('seat', String(this.cred.seat));
    if (this.lastSeq > 0) q.set('since', String(this.lastSeq));
    const qs = q.toString();
    return `${proto}//${location.host}/api/games/${encodeURIComponent(this.gameId)}/ws${qs ? `?${qs}` : ''}`;
  }

  /** The WebSocket subprotocols offered: `tabula`, and the seat's token as `tabula.token.{token}`
   * (docs/protocol.md, WebSocket). */
  protocols(): string[] {
    return this.cred ? ['tabula', `tabula.token.${this.cred.token}`] : ['tabula'];
  }

  connect(): void {
    if (this.closed) return;
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url(), this.protocols());
    } catch {
      this.schedule();
      return;
    }
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.attempt = 0;
      this.lastHeard = Date.now();
      this.handlers.onStatus(true, 'connected');
      window.clearInterval(this.pingTimer);
      this.pingTimer = window.setInterval(() => this.heartbeat(ws), PING_MS);
    };
    ws.onmessage = (ev) => {
      this.lastHeard = Date.now();
      let msg: ServerMsg;
      try {
        msg = JSON.parse(String(ev.data)) as ServerMsg;
      } catch {
        return;
      }
      if (msg.type === 'snapshot' || msg.type === 'update') {
        this.lastSeq = Math.max(this.lastSeq, msg.seq);
      }
      this.handlers.onMessage(msg);
    };
    ws.onclose = (ev: CloseEvent) => {
      if (this.ws !== ws) return; // already given up on (heartbeat) or replaced
      window.clearInterval(this.pingTimer);
      this.ws = null;
      if (!this.closed && this.cred && ev.code === CLOSE_TOKEN_REPLACED) {
        // Redialling with the replaced token would only be refused again, forever.
        this.closed = true;
        window.clearTimeout(this.timer);
        this.handlers.onStatus(false, REVOKED_TEXT);
        this.handlers.onRevoked?.();
        return;
      }
      if (!this.closed) {
        this.handlers.onStatus(false, 'connection lost — reconnecting…');
        this.schedule();
        // A socket refused before it opened: a server that is down, or a game that does not exist
        // (the upgrade is answered 404, which a browser does not show). Ask once over HTTP.
        if (!opened) void this.probe();
      }
    };
    ws.onerror = () => {
      /* onclose follows and reconnects */
    };
  }

  /** Asks the server whether the game exists; on a definite 404 gives up and tells the page. */
  private async probe(): Promise<void> {
    let res: Response;
    try {
      res = await fetch(`/api/games/${encodeURIComponent(this.gameId)}`, { method: 'HEAD' });
    } catch {
      return; // the server is unreachable: keep redialling
    }
    if (res.status !== 404 || this.closed) return;
    this.close();
    this.handlers.onGone?.();
  }

  /** Pings; a connection silent for SILENT_MS (a network drop that closed nothing) is dropped and redialled. */
  private heartbeat(ws: WebSocket): void {
    if (this.ws !== ws) return;
    if (Date.now() - this.lastHeard > SILENT_MS) {
      window.clearInterval(this.pingTimer);
      this.ws = null;
      try {
        ws.close();
      } catch {
        /* already closing */
      }
      this.handlers.onStatus(false, 'connection lost — reconnecting…');
      this.schedule();
      return;
    }
    this.send({ type: 'ping' });
  }

  private schedule(): void {
    window.clearTimeout(this.timer);
    const delay = reconnectDelay(this.attempt++);
    this.timer = window.setTimeout(() => this.connect(), delay);
  }

  /** Sends a message; returns its id, or null when not connected. */
  send(msg: ClientOp): number | null {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return id;
  }

  /** The browser says the network is gone: give the socket up now (it may stay open, silent, for minutes)
   * and show it; `kick` redials when the network is back (or the backoff timer does). */
  drop(detail: string): void {
    const ws = this.ws;
    if (!ws || this.closed) return;
    window.clearInterval(this.pingTimer);
    this.ws = null;
    try {
      ws.close();
    } catch {
      /* already closing */
    }
    this.handlers.onStatus(false, detail);
    this.schedule();
  }

  /** Forces a reconnect now (the network came back). */
  kick(): void {
    if (!this.ws && !this.closed) {
      window.clearTimeout(this.timer);
      this.connect();
    }
  }

  close(): void {
    this.closed = true;
    window.clearTimeout(this.timer);
    window.clearInterval(this.pingTimer);
    this.ws?.close();
    this.ws = null;
  }
}
