// The one list of the games the web client knows beyond the generic view: each game's board renderer
// and — for games sharing a rules file — its rule family (an action's plain words come from the engine,
// with each legal action). Adding a game to the client is one entry here (a game without one is played through the
// generic view). `games/index.ts` and `logic/rules.ts` read this list.
import { cairdRenderer } from './caird';
import { kyoRenderer } from './kyo';
import { sybaRenderer } from './syba';
import { territoriesRenderer } from './territories';
import { trumpRenderer } from './trump';
import type { Renderer } from './types';

/** What the web client knows of one game. */
export interface GameClient {
  renderer: Renderer;
  /** For games sharing a rules file: the family's name and how its `## ` heading reads. */
  family?: { name: string; heading: RegExp };
}

/** Every game the client draws, by game id. */
export const GAMES: Record<string, GameClient> = {
  'cyvasse-trump': {
    renderer: trumpRenderer,
    family: { name: 'Strength & Trump', heading: /Strength & Trump/ },
  },
  'cyvasse-caird': {
    renderer: cairdRenderer,
    family: { name: "Caird's rules", heading: /Caird/ },
  },
  kyo: { renderer: kyoRenderer },
  territories: { renderer: territoriesRenderer },
  syba: { renderer: sybaRenderer },
};
