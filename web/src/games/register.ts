// The one list of the games the web client knows beyond the generic view: each game's board renderer,
// the hint that explains its ambiguous notations, and — for games sharing a rules file — its rule
// family. Adding a game to the client is one entry here (a game without one is played through the
// generic view). `games/index.ts` and `logic/rules.ts` read this list.
import { cyvasseHint, kyoHint, territoriesHint } from '../logic/hints';
import { cairdRenderer } from './caird';
import { kyoRenderer } from './kyo';
import { sybaRenderer } from './syba';
import { territoriesRenderer } from './territories';
import { trumpRenderer } from './trump';
import type { Renderer } from './types';

/** What the web client knows of one game. */
export interface GameClient {
  renderer: Renderer;
  /** Explains an action's notation ('' when there is nothing to add). */
  hint?: (notation: string) => string;
  /** For games sharing a rules file: the family's name and how its `## ` heading reads. */
  family?: { name: string; heading: RegExp };
}

/** Every game the client draws, by game id. */
export const GAMES: Record<string, GameClient> = {
  'cyvasse-trump': {
    renderer: trumpRenderer,
    hint: cyvasseHint,
    family: { name: 'Strength & Trump', heading: /Strength & Trump/ },
  },
  'cyvasse-caird': {
    renderer: cairdRenderer,
    hint: cyvasseHint,
    family: { name: "Caird's rules", heading: /Caird/ },
  },
  kyo: { renderer: kyoRenderer, hint: kyoHint },
  territories: { renderer: territoriesRenderer, hint: territoriesHint },
  syba: { renderer: sybaRenderer },
};
