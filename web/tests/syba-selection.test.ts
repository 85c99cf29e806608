// @vitest-environment happy-dom
// The Syba renderer's unit selection (a pending `select` on the stack): the chosen units are ringed, the
// pickable ones are targets, and the panel names the purpose of the choice.
import { describe, expect, it } from 'vitest';
import { Selection, type LegalAction } from '../src/logic/select';
import type { RenderContext } from '../src/games/types';
import { sybaRenderer, selectionOf, tradeNote } from '../src/games/syba';
function ctxFor(view: unknown, legal: LegalAction[]): RenderContext<never> {
  // The view is JSON (a fixture or the server's sample): each renderer reads it as its game's view.
  return { gameId: 'syba', view: view as never, options: {}, seat: 0, seatNames: ['One', 'Two'], selection: new Selection(legal), lastMove: [], onCell: () => undefined };
}
/** A legal action as the server sends it, with the engine's cells. */
const la = (notation: string, cells: string[] = []): LegalAction => ({ action: notation, notation, words: notation, cells });
const targets = (el: Element | null) => [...(el?.querySelectorAll('.cell.target') ?? [])].map((e) => e.getAttribute('data-cell'));
describe('syba selection', () => {
  it('rings chosen units and makes units clickable', () => {
    const state = { phase: 'play', round: 1, current: 0, players: [{ race: 4, resources: [3, 2, 1] }, { race: 5, resources: [0, 0, 0] }], units: [{ id: 7, owner: 0, kind: 'soldier', area: 0, exhausted: false }, { id: 9, owner: 0, kind: 'knight', area: 0, exhausted: false }, { id: 8, owner: 1, kind: { hero: 0 }, area: 0, exhausted: true }], city_owner: [0], city_destroyed: [], cards: [], stack: [{ select: { seat: 0, purpose: { attack: { army: { owner: 1, area: 0 } } }, chosen: [7] } }] };
    const view = { observer: { seat: 0 }, state, city_strength: [] };
    const sel = selectionOf(state);
    expect(sel?.chosen).toEqual([7]);
    expect(sel?.purpose).toContain("attack P2's army");
    const ctx = ctxFor(view, [la('pick u9', ['u9']), la('hold u7', ['u7']), la('confirm'), la('withdraw')]);
    const { board, panels } = sybaRenderer.render(ctx);
    expect(board?.querySelectorAll('circle.chosen').length).toBe(1);
    expect(targets(board).sort()).toEqual(['u7', 'u9']);
    expect(panels.map((p) => p.textContent).join(' ')).toContain('chooses the units to Exhaust');
    expect(selectionOf({ stack: [{ select: { seat: 1, purpose: { intercept: { mover: 0, area: 0 } }, chosen: [] } }] })?.purpose).toContain('intercept P1');
    expect(selectionOf({ stack: [{ select: { seat: 1, purpose: 'help_attack', chosen: [] } }] })?.purpose).toBe('to help the attack');
    expect(selectionOf({ stack: [] })).toBeNull();
  });
  it('names an army move selection: which units move together, not Exhausted', () => {
    const state = { phase: 'play', round: 1, current: 0, players: [{ race: 4, resources: [0, 0, 0] }, { race: 5, resources: [0, 0, 0] }], units: [{ id: 3, owner: 0, kind: 'soldier', area: 0, exhausted: false }, { id: 4, owner: 0, kind: 'knight', area: 0, exhausted: false }], city_owner: [], city_destroyed: [], cards: [], stack: [{ select: { seat: 0, purpose: { move: { from: 0, to: 1 } }, chosen: [3, 4] } }] };
    const sel = selectionOf(state);
    expect(sel?.moving).toBe(true);
    expect(sel?.purpose).toMatch(/^to move together from .+ to .+$/);
    expect(sel?.purpose).not.toContain('?');
    const ctx = ctxFor({ observer: { seat: 0 }, state, city_strength: [] }, [la('hold u3', ['u3']), la('hold u4', ['u4']), la('confirm'), la('withdraw')]);
    const { board, panels } = sybaRenderer.render(ctx);
    expect(board?.querySelectorAll('circle.chosen').length).toBe(2);
    const text = panels.map((p) => p.textContent).join(' ');
    expect(text).toContain('chooses the units to move together from');
    expect(text).not.toContain('to Exhaust to move');
    expect(selectionOf({ stack: [{ select: { seat: 0, purpose: 'help_attack', chosen: [] } }] })?.moving).toBe(false);
  });
  it('names the entering army of an interception and offers help-defend of the mover\'s other army there', () => {
    // Issue 19: an interception attacks the entering army only; the mover's Knight already standing in
    // Greywood is another army, committed with `help-defend greywood` like any other help.
    const gw = 3;
    const state = { phase: 'play', round: 1, current: 0, players: [{ race: 4, resources: [0, 0, 0] }, { race: 5, resources: [0, 0, 0] }], units: [{ id: 4, owner: 0, kind: 'knight', area: gw, exhausted: false }, { id: 5, owner: 0, kind: 'soldier', area: gw, exhausted: false }, { id: 9, owner: 1, kind: 'monster', area: gw, exhausted: true }], city_owner: [], city_destroyed: [], cards: [], stack: [{ intercept: { mover: 0, area: gw, queue: [], units: [5] } }, { battle: { attacker: 1, target: { army: { owner: 0, area: gw } }, attackers: [9], defenders: [], queue: [0], side: null, entering: [5] } }] };
    const ctx = ctxFor({ observer: { seat: 0 }, state, city_strength: [] }, [la('help-defend greywood', ['greywood']), la('pass')]);
    const { board, panels } = sybaRenderer.render(ctx);
    const text = panels.map((p) => p.textContent).join(' ');
    expect(text).toContain('entered Greywood with u5');
    expect(text).toContain('on the entering army u5');
    expect(targets(board)).toContain('greywood');
    expect(ctx.selection.targets().has('greywood')).toBe(true);
  });
  it('shows a trade proposal with its non-binding note', () => {
    expect(tradeNote({ note: '' })).toBe('');
    expect(tradeNote({})).toBe('');
    const state = { phase: 'play', round: 1, current: 0, players: [{ race: 4, resources: [3, 0, 0] }, { race: 5, resources: [0, 0, 0] }], units: [], city_owner: [], city_destroyed: [], cards: [], stack: [{ trade: { partner: 1, give: { resources: [1, 0, 0], units: [], cities: [] }, get: { resources: [0, 0, 0], units: [], cities: [] }, proposed: true, note: 'no attack on Kaul' } }] };
    const { panels } = sybaRenderer.render(ctxFor({ observer: { seat: 1 }, state, city_strength: [] }, [la('accept'), la('decline')]));
    const text = panels.map((p) => p.textContent).join(' ');
    expect(text).toContain('gives 1 production');
    expect(text).toContain('Promises (not binding): “no attack on Kaul”');
    // Only the composer of an unproposed trade can write a note; nobody edits a proposed one.
    const sent: string[] = [];
    const withSend = (seat: number, proposed: boolean): Element[] => {
      const st = { ...state, stack: [{ trade: { ...state.stack[0].trade, proposed } }] };
      return sybaRenderer.render({ ...ctxFor({ observer: { seat }, state: st, city_strength: [] }, [la('propose'), la('cancel')]), seat, sendNotation: (n) => sent.push(n) }).panels;
    };
    const editor = (panels: Element[]) => panels.map((p) => p.querySelector('[data-testid=trade-note]')).find((e) => e) as HTMLInputElement | undefined;
    expect(editor(withSend(1, false))).toBeUndefined();
    expect(editor(withSend(0, true))).toBeUndefined();
    const composing = withSend(0, false);
    const input = editor(composing);
    expect(input?.value).toBe('no attack on Kaul');
    const button = composing.map((p) => p.querySelector('[data-testid=trade-note-set]')).find((e) => e) as HTMLButtonElement;
    if (input) input.value = '  no attack\ton Kaul  ';
    button.click();
    if (input) input.value = '';
    button.click();
    expect(sent).toEqual(['note no attack on Kaul', 'note']);
  });
});
