// The "Options & friends…" form of one game in the lobby: its option values, who sits where, the
// clock, listing, rated or casual with a rating range. No DOM: the lobby's views draw it and call it.

import { routes, type Call } from '../../api';
import { changedOnly, defaults, parseValue, type OptionSpec, type OptionValues } from '../../logic/options';
import { ratedBlock, ratingRange } from '../../logic/rated';
import type { CatalogGame } from '../../wire/server/CatalogGame';
import type { ClockSpec } from '../../wire/server/ClockSpec';
import type { PreviewRequest } from '../../wire/server/PreviewRequest';

export type SeatChoice = 'me' | 'friend' | 'open' | `ai${number}`;

/** The AI crate's levels (crates/ai: LEVELS). */
export const AI_LEVELS: [number, string][] = [[1, 'Novice'], [2, 'Casual'], [3, 'Club'], [4, 'Expert'], [5, 'Master']];

export const CLOCKS: Record<string, ClockSpec | null> = {
  none: null,
  blitz: { kind: 'fischer', initial_ms: 300000, increment_ms: 3000 },
  rapid: { kind: 'fischer', initial_ms: 900000, increment_ms: 10000 },
  corr: { kind: 'correspondence', days_per_move: 3 },
};
export const CLOCK_LABELS: Record<string, string> = {
  none: 'No clock',
  blitz: '5 min + 3 s',
  rapid: '15 min + 10 s',
  corr: 'Correspondence, 3 days a move',
};

/** A created game's rating settings: rated or casual, and a rated seek's range. */
export interface Rated {
  rated: boolean;
  range: { min: number; max: number } | null;
}

/** What a create request takes from the form. */
export interface FormChoice {
  options: OptionValues;
  seats: SeatChoice[];
  clock: string;
  isPublic: boolean;
  rated: Rated;
}

/** What the form needs of the lobby. */
export interface FormHost {
  call: Call;
  signedIn(): boolean;
  /** The form's seats changed (the option values give another number or other names). */
  redrawSeats(): void;
  /** The error line or the rated part changed. */
  redrawStatus(): void;
  create(choice: FormChoice): void;
}

export class GameForm {
  readonly values: OptionValues;
  seatNames: string[];
  seatChoices: SeatChoice[];
  clock = 'none';
  isPublic = true;
  rated = false;
  rangeMin = '';
  rangeMax = '';
  /** An option's refusal, the preview's error or the range's (the form's error line). */
  error = '';

  /** The AI in every other seat at first: the level chosen on the game's card, so that the form and
   * "Play vs AI" agree; the clock, too, starts at the card's. */
  private readonly ai: SeatChoice;

  constructor(readonly game: CatalogGame, private readonly host: FormHost, start: { level: number; clock: string } = { level: 3, clock: 'none' }) {
    this.values = defaults(game.options);
    this.seatNames = [...game.default_seats];
    this.ai = `ai${start.level}`;
    this.clock = Object.hasOwn(CLOCKS, start.clock) ? start.clock : 'none';
    this.seatChoices = this.seatNames.map((_, i) => (i === 0 ? 'me' : this.ai));
  }

  /** Why the game cannot be rated now (the rated box is then off and disabled), or null. */
  ratedBlock(): string | null {
    return ratedBlock(this.host.signedIn(), this.seatChoices);
  }

  /** Whether the game is rated (the box on, and allowed). */
  isRated(): boolean {
    return this.rated && this.ratedBlock() === null;
  }

  setRated(on: boolean): void {
    this.rated = on;
    this.host.redrawStatus();
  }

  setSeat(i: number, choice: SeatChoice): void {
    this.seatChoices[i] = choice;
    if (this.ratedBlock() !== null) this.rated = false;
    this.host.redrawStatus();
  }

  /** An option's input changed: kept if the option takes it (the seats asked anew), else refused. */
  async setOption(spec: OptionSpec, raw: string | boolean): Promise<void> {
    const r = parseValue(spec, raw);
    if (!r.ok) {
      this.error = r.error;
      this.host.redrawStatus();
      return;
    }
    this.values[spec.name] = r.value;
    this.error = '';
    this.host.redrawStatus();
    await this.preview();
  }

  /** The seats these options give (`POST /api/catalog/{game}/preview`). */
  async preview(): Promise<void> {
    try {
      const request: PreviewRequest = { options: changedOnly(this.game.options, this.values) };
      const p = await this.host.call(routes['POST /api/catalog/{game}/preview'], { params: { game: this.game.id }, body: request });
      this.error = '';
      this.seatNames = p.seats;
      this.seatChoices = this.seatNames.map((_, i) => this.seatChoices[i] ?? (i === 0 ? 'me' : this.ai));
      if (this.ratedBlock() !== null) this.rated = false;
      this.host.redrawSeats();
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
    this.host.redrawStatus();
  }

  /** Create game: the range checked first. */
  submit(): void {
    const range = ratingRange(this.rangeMin, this.rangeMax);
    if (!range.ok) {
      this.error = range.error;
      this.host.redrawStatus();
      return;
    }
    const rated = this.isRated();
    this.host.create({
      options: changedOnly(this.game.options, this.values),
      seats: this.seatChoices,
      clock: this.clock,
      isPublic: this.isPublic,
      rated: { rated, range: rated ? range.value : null },
    });
  }
}
