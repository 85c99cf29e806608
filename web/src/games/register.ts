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
import type { CairdView } from '../wire/cyvasse/CairdView';
import type { TrumpPosition } from '../wire/cyvasse/TrumpPosition';
import type { Kyo } from '../wire/kyo/Kyo';
import type { SybaView } from '../wire/syba/SybaView';
import type { TerritoriesView } from '../wire/territories/TerritoriesView';

/** Each game's view, the type generated from its crate (`web/src/wire/<game>/`): what the server
 * sends a seat or spectator as `view`, and what the game's renderer draws. */
export interface Views {
  'cyvasse-trump': TrumpPosition;
  'cyvasse-caird': CairdView;
  kyo: Kyo;
  territories: TerritoriesView;
  syba: SybaView;
}

/** What the web client knows of one game. */
export interface GameClient<V = unknown> {
  renderer: Renderer<V>;
  /** For games sharing a rules file: the family's name and how its `## ` heading reads. */
  family?: { name: string; heading: RegExp };
}

/** Every game the client draws, by game id, each renderer typed by its game's view. */
const CLIENTS: { [K in keyof Views]: GameClient<Views[K]> } = {
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

/** The same list by any id (a game the client does not know has no entry): the one place where the
 * server's JSON `view` of game `id` becomes that game's view type. */
export const GAMES: Record<string, GameClient | undefined> = CLIENTS;
