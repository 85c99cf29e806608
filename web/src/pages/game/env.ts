// What the game page's controller needs of the world (connections, HTTP, storage, sounds, renderers)
// and of the page (drawing, and the moments it cannot handle without a screen): ctrl.ts gets both at
// construction, the page gives the real ones, the tests fakes.

import type { Call } from '../../api';
import type { ClientOp, ConnHandlers, ServerMsg } from '../../conn';
import type { Renderer } from '../../games/types';
import type { Fetcher } from '../../logic/replay';
import type { JsonRecord } from '../../logic/record';
import type { LegalAction, Selection } from '../../logic/select';
import type { SeatCredential } from '../../store';

/** A game's connection as the controller uses it (`GameConn`). */
export interface Conn {
  connect(): void;
  send(msg: ClientOp): number | null;
  kick(): void;
  drop(detail: string): void;
  close(): void;
}

/** What the controller needs of the world: connections, HTTP, storage, sounds, the game's renderer. */
export interface GameEnv {
  connect(cred: SeatCredential | null, handlers: ConnHandlers): Conn;
  call: Call;
  fetcher(cred: SeatCredential | null): Fetcher;
  forgetSeat(seat: number, token: string): void;
  saveSeat(game: string, cred: SeatCredential): void;
  sound(kind: 'turn' | 'move'): void;
  renderer(game: string): Renderer;
  selection(game: string, legal: LegalAction[]): Selection;
}

/** The regions of the page a change touches (all of them when not said). */
export type Region = 'header' | 'board' | 'side' | 'clocks';

/** What the controller asks of the page: drawing, and the moments it cannot handle without a screen. */
export interface GameUi {
  redraw(regions?: Region[]): void;
  /** The address names no game. */
  gone(): void;
  /** The game just ended (once per page). */
  gameOver(): void;
  /** A game record to save as a file. */
  download(rec: JsonRecord): void;
  /** Opens another page. */
  navigate(path: string): void;
  /** A chat message or history (the chat panel has its own state), and whether the game is over. */
  chat(msg: Extract<ServerMsg, { type: 'chat' | 'chat_history' }>): void;
  chatOver(over: boolean): void;
}
