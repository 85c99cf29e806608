// @vitest-environment happy-dom
// The chat panel's logic (web/src/ui/chat.ts): messages merged once each in order, who reads which
// channel, the per-game mute, and the panel's drawing of what the socket brings.
import { describe, expect, it } from 'vitest';
import { ChatPanel, chatMuted, mergeMessages, readableChannels, type ChatMessage } from '../src/ui/chat';

const msg = (n: number, text: string, seat: number | null = 0): ChatMessage => ({ n, at: 0, seat, author: seat === null ? 'kibitzer' : 'North', text });

describe('chat', () => {
  it('merges messages once each, in the order of their numbers', () => {
    const a = mergeMessages([msg(2, 'b')], [msg(1, 'a'), msg(2, 'b'), msg(3, 'c')]);
    expect(a.map((m) => m.text)).toEqual(['a', 'b', 'c']);
  });

  it('shows a seat the players\' chat, and the spectators\' only once the game is over', () => {
    expect(readableChannels(true, false)).toEqual(['players']);
    expect(readableChannels(true, true)).toEqual(['players', 'spectators']);
    expect(readableChannels(false, false)).toEqual(['spectators']);
    expect(readableChannels(false, true)).toEqual(['spectators']);
  });

  it('draws the socket\'s messages of the readable channel, and hides them when muted', () => {
    const panel = new ChatPanel('g1', () => ({ seat: 1, token: 't' }));
    panel.onMessage({ type: 'chat_history', channels: { players: [msg(1, 'hello')] } } as never);
    panel.onMessage({ type: 'chat', channel: 'spectators', message: msg(1, 'from the stands', null) } as never);
    panel.onMessage({ type: 'chat', channel: 'players', message: msg(2, 'good luck', 1) } as never);
    const texts = () => [...panel.el.querySelectorAll('.chat-text')].map((e) => e.textContent);
    expect(texts()).toEqual(['hello', 'good luck']);
    const mute = panel.el.querySelector('[data-testid=chat-mute]') as HTMLInputElement;
    mute.checked = true;
    mute.dispatchEvent(new Event('change'));
    expect(chatMuted('g1')).toBe(true);
    expect(chatMuted('g2')).toBe(false);
    expect((panel.el.querySelector('.chat-body') as HTMLElement).hidden).toBe(true);
    panel.close();
  });
});
