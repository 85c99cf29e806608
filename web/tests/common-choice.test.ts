// How often a player is asked to choose, per game, over legal lists made the way each engine lists
// them (crates/games/territories/src/state/legal.rs, crates/games/cyvasse/src/caird/rules.rs): the
// click-clicks on the board that open a chooser, and the clicks a Territories payment takes before
// (one "Pay" button per resource, a choice each time) and after (the common payment, one button, its
// rest sent by the page from each list the server sends then).
import { describe, expect, it } from 'vitest';
import { commonPayment, territoriesRenderer } from '../src/games/territories';
import { cairdRenderer } from '../src/games/caird';
import { FollowUp } from '../src/pages/game/followup';
import { Selection, type LegalAction } from '../src/logic/select';
import type { Renderer } from '../src/games/types';
import type { Snapshot } from '../src/logic/snapshot';
import type { TerritoriesView } from '../src/wire/territories/TerritoriesView';

const la = (notation: string, cells: string[] = [], action: unknown = notation): LegalAction => ({ action: action as never, notation, words: notation, cells });

/** Every distinct cell path of `legal`, clicked cell by cell: how many end in a chooser. */
function choosers(legal: LegalAction[], commonFirst: boolean): { paths: number; choosers: number } {
  const paths = [...new Set(legal.filter((a) => a.cells.length).map((a) => a.cells.join(' ')))].map((p) => p.split(' '));
  let opened = 0;
  for (const path of paths) {
    const sel = new Selection(legal, commonFirst);
    let last = null;
    for (const c of path) last = sel.click(c);
    if (last?.kind === 'choose') opened += 1;
  }
  return { paths: paths.length, choosers: opened };
}

const SUITS = ['H', 'S', 'C', 'D'];

/** A Territories view in the payment for Survey (the fields the page reads). */
function paying(resources: number[], left: number): TerritoriesView {
  return {
    phase: { phase: 'pay', ability: 'survey', left },
    hands: [{ resources, resource_count: resources.reduce((a, b) => a + b, 0), territories: ['5H'], territory_count: 1 }, { resources: null, resource_count: 3, territories: null, territory_count: 2 }],
  } as unknown as TerritoriesView;
}

/** The engine's payment list: `pay` of each suit held, in the order ♥ ♠ ♣ ♦. */
function payList(resources: number[]): LegalAction[] {
  return SUITS.filter((_, i) => resources[i] > 0).map((k) => la(`pay ${k}`, [], { pay: k }));
}

describe('choosers per game', () => {
  it('Territories: an upgrade of a Town and a Survey cell stay a choice at the target (genuinely different outcomes); one upgrade alone is made at once', () => {
    // Main phase: Towns on 2,3 and 3,4 may become a Fort, Barracks, Temple or Palace (legal.rs: each
    // own building, each piece it may become); a Fort on 1,1 only a Capital; Towns on free points.
    const upgrades = ['2,3', '3,4'].flatMap((p) => ['fort', 'barracks', 'temple', 'palace'].map((k) => la(`upgrade ${p} ${k}`, [p])));
    const main = [la('build 0,0', ['0,0']), la('build 4,4', ['4,4']), ...upgrades, la('upgrade 1,1 capital', ['1,1']), la('use survey'), la('end')];
    // Survey: every grid card with every card of the hand (cell by cell).
    const survey = ['0,0', '1,0', '2,0'].flatMap((c) => ['5H', 'QD', '8C'].map((k) => la(`survey ${c} ${k}`, [c])));
    const r = territoriesRenderer.commonFirst ?? false;
    expect(choosers(main, r)).toEqual({ paths: 5, choosers: 2 });
    expect(choosers(survey, r)).toEqual({ paths: 3, choosers: 3 });
  });

  it('Territories: a payment of 3 was three choices among the suits; now one button, the rest sent from each new list', () => {
    let held = [3, 1, 0, 2];
    let left = 3;
    // Before: every resource paid was a click on one of the suits' buttons (a choice among them).
    const before = payList(held).length > 1 ? left : 0;
    expect(before).toBe(3);
    // After: the common payment, from the suit held most (ties: the engine's first listed).
    const first = commonPayment(paying(held, left), payList(held), 0);
    expect(first?.action.notation).toBe('pay H');
    expect(first?.words).toBe('Pay 3: 2♥ 1♦ (from the suits you hold most)');
    // The page's chain: the button's action, then each next common action from the list of the
    // moment, until the payment is over.
    const follow = new FollowUp();
    const renderer = territoriesRenderer as Renderer;
    let action = first?.action ?? null;
    follow.repeat(renderer, action as LegalAction);
    const sent: string[] = [];
    while (action) {
      follow.sending(action);
      sent.push(action.notation);
      const k = SUITS.indexOf(action.notation.slice(-1));
      held = held.map((n, i) => (i === k ? n - 1 : n));
      left -= 1;
      const legal = left > 0 ? payList(held) : [la('survey 0,0 5H', ['0,0'])];
      const view = left > 0 ? paying(held, left) : ({ ...paying(held, 0), phase: { phase: 'place', ability: 'survey' } } as unknown as TerritoriesView);
      const model = { you: { seat: 0 }, view, legal } as unknown as Snapshot;
      expect(follow.take(renderer, model, true)).toBeNull(); // nothing while an action is on its way
      action = follow.take(renderer, model, false);
    }
    // One click (the button) paid all three; the page chose the other two from the server's lists.
    expect(sent).toEqual(['pay H', 'pay H', 'pay D']);
    // Nothing common outside a payment.
    expect(commonPayment({ ...paying(held, 1), phase: { phase: 'main' } } as unknown as TerritoriesView, payList(held), 0)).toBeNull();
  });

  it('Territories: ties go to the suit the engine lists first; a button pressed by hand ends the chain', () => {
    expect(commonPayment(paying([0, 2, 2, 1], 2), payList([0, 2, 2, 1]), 0)?.words).toBe('Pay 2: 1♠ 1♣ (from the suits you hold most)');
    const follow = new FollowUp();
    const legal = payList([2, 2, 0, 0]);
    follow.repeat(territoriesRenderer as Renderer, legal[0]);
    follow.sending(legal[1]); // "Other ways…": the player paid ♠ by hand
    const model = { you: { seat: 0 }, view: paying([2, 1, 0, 0], 1), legal: payList([2, 1, 0, 0]) } as unknown as Snapshot;
    expect(follow.take(territoriesRenderer as Renderer, model, false)).toBeNull();
  });

  it('Cyvasse Caird: a move-capture and a shot at the same enemy stay a choice at the target; a piece on the enemy Fortress offers its ruin', () => {
    // Expert rules: the Trebuchet on d4 moves one step any way and shoots along its file and rank;
    // d5 holds an enemy it beats (a move-capture and a shot), d7 one it can only shoot.
    const treb = [la('d4-c4', ['d4', 'c4']), la('d4xd5', ['d4', 'd5']), la('d4*d5', ['d4', 'd5']), la('d4*d7', ['d4', 'd7'])];
    // castle_storming: the Spear on the enemy Fortress e8 may ruin it or move on.
    const storm = [la('ruin e8', ['e8']), la('e8-e7', ['e8', 'e7']), la('e8-f8', ['e8', 'f8'])];
    const r = cairdRenderer.commonFirst ?? false;
    expect(cairdRenderer.followUp).toBeUndefined();
    expect(choosers(treb, r)).toEqual({ paths: 3, choosers: 1 });
    expect(choosers(storm, r)).toEqual({ paths: 3, choosers: 1 });
  });
});
