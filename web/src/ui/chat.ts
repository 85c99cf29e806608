// The game page's chat panel (docs/protocol.md, "Chat"): the players' channel for a seat, the
// spectators' channel for a watcher (writing needs an account); a seat reads the spectators' chat once
// the game is over. Messages arrive over the game's WebSocket (`chat`, `chat_history`) and are sent over
// HTTP; the server's refusals (too long, empty, too fast) are shown in its own words. "Mute chat" is kept
// per game on the device: it hides the messages and stops their sound.

import { api, routes } from '../api';
import { viewRequest } from '../logic/replay';
import { currentSession, onAccountChange } from '../account';
import { seatColour } from '../games/art';
import { h, clear } from './dom';
import { playSound } from './sound';

import type { ChatChannel } from '../wire/server/ChatChannel';
import type { ChatSend } from '../wire/server/ChatSend';
import type { ChatMessage } from '../wire/server/ChatMessage';
import type { SocketMsg } from '../wire/server/SocketMsg';

// The socket's chat messages, generated from the server's types (crates/server/src/wire/game.rs).
export type Channel = ChatChannel;
export type { ChatMessage };
export type ChatServerMsg = Extract<SocketMsg, { type: 'chat' | 'chat_history' }>;

/** The server's default limit (GET /api/games/{id}/chat says the real one). */
const DEFAULT_MAX = 200;
const LABELS: Record<Channel, string> = { players: 'Players', spectators: 'Spectators' };

function muteKey(id: string): string {
  return `tabula:chat-muted:${id}`;
}

export function chatMuted(id: string): boolean {
  try {
    return localStorage.getItem(muteKey(id)) === '1';
  } catch {
    return false;
  }
}

function setChatMuted(id: string, muted: boolean): void {
  try {
    if (muted) localStorage.setItem(muteKey(id), '1');
    else localStorage.removeItem(muteKey(id));
  } catch {
    /* storage disabled: the switch holds for this page only */
  }
}

/** Adds messages to a channel's list, in order of their numbers, once each. */
export function mergeMessages(list: ChatMessage[], more: ChatMessage[]): ChatMessage[] {
  const byN = new Map(list.map((m) => [m.n, m]));
  for (const m of more) if (typeof m.n === 'number' && typeof m.text === 'string') byN.set(m.n, m);
  return [...byN.values()].sort((a, b) => a.n - b.n);
}

/** The channels a viewer may read: a seat the players' (and the spectators' once the game is over),
 * a spectator the spectators'. */
export function readableChannels(isSeat: boolean, over: boolean): Channel[] {
  if (!isSeat) return ['spectators'];
  return over ? ['players', 'spectators'] : ['players'];
}

export class ChatPanel {
  readonly el: HTMLElement;
  private readonly messages: Record<Channel, ChatMessage[]> = { players: [], spectators: [] };
  private tab: Channel;
  private over = false;
  private max = DEFAULT_MAX;
  private error = '';
  private sending = false;
  private unread = 0;
  private readonly list: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly counter: HTMLElement;
  private readonly errorEl: HTMLElement;
  private readonly tabs: HTMLElement;
  private readonly body: HTMLElement;
  private readonly muteBox: HTMLInputElement;
  private readonly form: HTMLFormElement;
  private readonly signInNote: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly stopAccount: () => void;

  /** `seat()` is the seat this page writes as (null: a spectator). */
  constructor(private readonly gameId: string, private readonly seat: () => { seat: number; token: string } | null) {
    this.tab = seat() ? 'players' : 'spectators';
    this.list = h('ol.chat-list', { 'data-testid': 'chat-list', 'aria-live': 'polite' });
    this.input = h('input.chat-input', {
      'data-testid': 'chat-input', type: 'text', autocomplete: 'off', placeholder: 'Say something…',
      'aria-label': 'Chat message',
    }) as HTMLInputElement;
    this.counter = h('span.chat-counter', { 'data-testid': 'chat-counter' });
    this.errorEl = h('div.chat-error.error', { 'data-testid': 'chat-error', role: 'alert' });
    this.tabs = h('div.chat-tabs');
    this.signInNote = h('p.muted.chat-note', { 'data-testid': 'chat-sign-in' },
      h('a', { href: '/signin', 'data-link': '' }, 'Sign in'), ' to write in the spectators\' chat.');
    this.form = h('form.chat-form', { 'data-testid': 'chat-form' },
      this.input, this.counter, h('button', { type: 'submit', 'data-testid': 'chat-send' }, 'Send')) as HTMLFormElement;
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.sendText();
    });
    this.input.addEventListener('input', () => {
      this.drawCounter();
      if (this.error) {
        this.error = '';
        this.errorEl.textContent = '';
        this.errorEl.hidden = true;
      }
    });
    this.muteBox = h('input', { type: 'checkbox', 'data-testid': 'chat-mute', checked: chatMuted(gameId) }) as HTMLInputElement;
    this.muteBox.addEventListener('change', () => {
      setChatMuted(gameId, this.muteBox.checked);
      this.unread = 0;
      this.draw();
    });
    this.body = h('div.chat-body', this.tabs, this.list, this.errorEl, this.form, this.signInNote);
    this.summary = h('summary', h('b', 'Chat'));
    const details = h('details.card.chat', { 'data-testid': 'chat', open: !window.matchMedia?.('(max-width: 600px)').matches },
      this.summary,
      h('label.chat-mute', this.muteBox, ' Mute chat'),
      this.body) as HTMLDetailsElement;
    details.addEventListener('toggle', () => {
      if (details.open) {
        this.unread = 0;
        this.drawSummary();
      }
    });
    this.el = details;
    this.stopAccount = onAccountChange(() => this.draw());
    this.draw();
  }

  private get muted(): boolean {
    return this.muteBox.checked;
  }

  private readable(): Channel[] {
    return readableChannels(this.seat() !== null, this.over);
  }

  /** A message from the game's socket; other types are ignored. */
  onMessage(msg: ChatServerMsg): void {
    if (msg.type === 'chat') {
      const m = msg;
      if (m.channel !== 'players' && m.channel !== 'spectators') return;
      const before = this.messages[m.channel].length;
      this.messages[m.channel] = mergeMessages(this.messages[m.channel], [m.message]);
      if (this.messages[m.channel].length > before) this.arrived(m.channel, m.message);
      this.draw();
    } else if (msg.type === 'chat_history') {
      const m = msg;
      for (const c of ['players', 'spectators'] as Channel[]) {
        const got = m.channels?.[c];
        if (Array.isArray(got)) this.messages[c] = mergeMessages(this.messages[c], got);
      }
      this.draw();
    }
  }

  /** Whether the game is over: a seat then reads the spectators' chat too (fetched once). */
  setOver(over: boolean): void {
    if (over === this.over) return;
    this.over = over;
    if (over) void this.load();
    this.draw();
  }

  /** Reads the history of every readable channel over HTTP. */
  async load(): Promise<void> {
    const cred = this.seat();
    // The token in a header, not in the URL (which proxies log).
    const { query, headers } = viewRequest(cred);
    try {
      const r = await api.call(routes['GET /api/games/{id}/chat'], { params: { id: this.gameId }, query, headers });
      this.max = r.max_chars;
      this.onMessage({ type: 'chat_history', channels: r.channels });
    } catch {
      /* the socket's history will do */
    }
  }

  private arrived(channel: Channel, m: ChatMessage): void {
    const cred = this.seat();
    const mine = cred ? m.seat === cred.seat && channel === 'players' : m.author === currentSession()?.name;
    if (this.muted || mine || !this.readable().includes(channel)) return;
    if (!(this.el as HTMLDetailsElement).open) this.unread++;
    playSound('chat');
  }

  private async sendText(): Promise<void> {
    const text = this.input.value;
    if (this.sending) return;
    const cred = this.seat();
    const channel: Channel = cred && this.tab === 'players' ? 'players' : 'spectators';
    const body: ChatSend = channel === 'players' && cred ? { channel, text, seat: cred.seat, token: cred.token } : { channel, text };
    this.sending = true;
    this.error = '';
    this.draw();
    try {
      const r = await api.call(routes['POST /api/games/{id}/chat'], { params: { id: this.gameId }, body });
      this.messages[r.channel] = mergeMessages(this.messages[r.channel], [r.message]);
      this.input.value = '';
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    } finally {
      this.sending = false;
      this.draw();
    }
  }

  private drawCounter(): void {
    const n = [...this.input.value.trim()].length;
    this.counter.textContent = `${n}/${this.max}`;
    this.counter.classList.toggle('over', n > this.max);
  }

  private drawSummary(): void {
    clear(this.summary);
    this.summary.append(h('b', 'Chat'));
    if (this.muted) this.summary.append(h('span.muted', ' (muted)'));
    else if (this.unread > 0) this.summary.append(h('span.chat-unread', { 'data-testid': 'chat-unread' }, ` ${this.unread} new`));
  }

  private draw(): void {
    const readable = this.readable();
    if (!readable.includes(this.tab)) this.tab = readable[0];
    this.drawSummary();
    this.body.hidden = this.muted;
    this.el.dataset.muted = this.muted ? '1' : '0';
    clear(this.tabs);
    if (readable.length > 1) {
      for (const c of readable) {
        this.tabs.append(h('button.chat-tab', {
          type: 'button', 'data-testid': `chat-tab-${c}`, 'aria-pressed': String(c === this.tab),
          onclick: () => { this.tab = c; this.error = ''; this.draw(); },
        }, LABELS[c]));
      }
    } else {
      this.tabs.append(h('span.muted', readable[0] === 'players' ? 'Between the players — spectators cannot read it' : 'Spectators\' chat — the players do not see it during the game'));
    }
    clear(this.list);
    const shown = this.messages[this.tab];
    if (!shown.length) this.list.append(h('li.muted.chat-empty', 'No messages yet.'));
    for (const m of shown) {
      const dot = m.seat !== null && this.tab === 'players' ? h('span.chat-dot', { style: `background: ${seatColour(m.seat)}`, 'aria-hidden': 'true' }) : null;
      this.list.append(h('li.chat-message', { 'data-n': m.n }, dot, h('b.chat-author', m.author), ': ', h('span.chat-text', m.text)));
    }
    this.list.scrollTop = this.list.scrollHeight;
    this.errorEl.textContent = this.error;
    this.errorEl.hidden = !this.error;
    const canWrite = this.tab === 'players' ? this.seat() !== null : currentSession() !== null;
    this.form.hidden = !canWrite;
    this.signInNote.hidden = canWrite || this.tab !== 'spectators';
    this.drawCounter();
  }

  close(): void {
    this.stopAccount();
  }
}
