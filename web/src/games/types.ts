// The interface of a board renderer. A renderer draws one game's view as SVG (plus optional side panels)
// with each clickable cell named as the engine names it in legal actions' `cells`, and reports clicks.

import type { LegalAction, Selection } from '../logic/select';
import type { RestackCodec } from '../logic/restack';
import type { SetupDraft } from '../logic/setup';

/** Reads and writes a game's whole-army setup action (the hidden-setup editor). */
export interface SetupCodec {
  fromAction(action: unknown): SetupDraft | null;
  toAction(d: SetupDraft): unknown;
  /** The own half's cells (where pieces may be swapped). */
  home: string[];
  /** Whether terrain tiles are part of the setup. */
  terrain: boolean;
}

/** What a renderer draws from: `V` is the game's view, the type generated from its crate
 * (`web/src/wire/<game>/`); the registry (`register.ts`) pairs each game id with its view type. */
export interface RenderContext<V = unknown> {
  gameId: string;
  view: V;
  options: Record<string, unknown>;
  /** This client's seat, or null for a spectator. */
  seat: number | null;
  /** The seat whose side is drawn at the bottom (flip board); default: `seat`, else the first seat. */
  bottomSeat?: number;
  seatNames: string[];
  selection: Selection;
  /** Cells of the last move, for highlighting. */
  lastMove: string[];
  /** The last move's turn (its number and actor), when known: the steps of one turn share one
   * animation budget (`bookSlide` in board.ts). */
  lastTurn?: string;
  /** Called with a cell name when the player clicks (or drops on) a cell. */
  onCell: (cell: string) => void;
  /** Sends an action written in the game's notation (for free-text parts no list can hold, such as a
   * Syba trade's note); absent where nothing may be sent (replays, spectators). */
  sendNotation?: (notation: string) => void;
  /** The setup being edited (drawn on the own half instead of the view's). */
  draft?: SetupDraft | null;
  /** Cells clickable besides the selection's targets (the setup editor's half). */
  extraTargets?: Set<string>;
  /** The cell picked in the setup editor. */
  extraSelected?: string | null;
}

export interface Renderer<V = unknown> {
  /** Whether the game's engine lists, among the legal actions sharing their cells, the common one
   * first (Kyo: the pawn with its whole slice): a click on those cells then makes it at once, the
   * others are offered as variants at the cell (see `Selection`). */
  commonFirst?: boolean;
  /** How the game reorders a stack (Kyo's shuffle), when it does: the page then offers a stack
   * editor at the stack instead of a list of orders (logic/restack.ts). */
  restack?: RestackCodec;
  /** The action that completes the common form of a move the player just made on the board, when
   * the engine splits that move in two (Syba: `army …` or `attack …` opens a selection of the units
   * that go with every one of them chosen, so the common form is `confirm` at once; Cyvasse Trump: a
   * horse's first leg, whose common form declines the second leg, `end`). `legal` is the seat's
   * decision after the move; null when nothing follows. The game page sends it at once unless the
   * player asked for "Other ways…"; which action completes the move is the engine's list. */
  followUp?(view: V, legal: LegalAction[], seat: number): LegalAction | null;
  /** The common choice of a decision the page offers as buttons, when one is clearly common
   * (Territories' payment for Survey/Expand: one resource at a time, from the suit held most):
   * `action` is one of `legal` (never made up), `words` says the whole of what the button does. The
   * actions card offers it as one large button, the other buttons one step away behind "Other
   * ways…"; once `action` is made the page sends the next common action while the seat's decision
   * goes on (the rest of the payment). Null when no choice is common. */
  common?(view: V, legal: LegalAction[], seat: number): { action: LegalAction; words: string } | null;
  /** The "Other ways…" button's explanation for this game (what the next target clicked offers). */
  otherWays?: string;
  /** Whether the board has two sides and can be flipped (the page then offers "Flip board"). */
  flippable?: boolean;
  /** A seat's colour when the view decides it (a Syba race's colour). */
  seatColour?(view: V, seat: number): string | null;
  /** The setup editor's codec, when `seat` is to commit a whole-army setup now. */
  setup?(view: V, options: Record<string, unknown>, seat: number): SetupCodec | null;
  /** What the view says about the position that the status line must show while the game runs (Caird:
   * "Check — your King is attacked"), in the words of `seat` (null: a spectator); null when nothing. */
  statusNote?(view: V, seat: number | null, seatNames: string[]): string | null;
  /** The board (SVG) and any extra panels (hands, resources, dice). */
  render(ctx: RenderContext<V>): { board: Element | null; panels: Element[] };
}
