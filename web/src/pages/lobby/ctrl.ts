// The lobby's controller: the games to start (each card's quick level, its form, its last error), the
// open and live games, joining a seat, importing a record. No DOM: the views (views.ts) draw from it
// and call its actions; every change ends in `redraw` of the regions it touched. Unit-tested with a fake
// API (tests/lobby-ctrl.test.ts).

import { routes, type Call } from '../../api';
import { hostSeats, type OptionValues } from '../../logic/options';
import { parseRecord } from '../../logic/record';
import type { Invite, SeatCredential } from '../../store';
import type { CatalogGame } from '../../wire/server/CatalogGame';
import type { CreateGame } from '../../wire/server/CreateGame';
import type { ImportRequest } from '../../wire/server/ImportRequest';
import type { JoinRequest } from '../../wire/server/JoinRequest';
import type { Lobby } from '../../wire/server/Lobby';
import type { SeatKind } from '../../wire/server/SeatKind';
import { AI_LEVELS, CLOCKS, GameForm, type FormChoice, type SeatChoice } from './form';

/** What the lobby needs of the world. */
export interface LobbyEnv {
  call: Call;
  catalog(): Promise<CatalogGame[]>;
  saveSeat(game: string, cred: SeatCredential): void;
  saveInvites(game: string, invites: Invite[]): void;
  navigate(path: string): void;
  /** The page's origin (a friend's link is made absolute with it) and query (`?ai=N`). */
  origin: string;
  search: string;
  /** The device's storage (the AI level last chosen); null when unavailable. */
  load(key: string): string | null;
  store(key: string, value: string): void;
  signedIn(): boolean;
  /** Whether this device has solved a lesson (someone who has not is new here). */
  solvedAny(): boolean;
}

/** The regions of the page: a game's card (its form shown or not, its error), the form's seats or its
 * error line and rated part, the lists, the import. */
export type LobbyRegion = 'games' | 'lists' | 'import' | `card:${string}` | `seats:${string}` | `status:${string}`;

export interface LobbyUi {
  redraw(region: LobbyRegion): void;
  /** The catalog could not be read: the page cannot be shown. */
  fail(e: unknown): void;
}

/** A game's card: its quick game's AI level, its form (when open) and the error of its last create. */
export interface Card {
  level: number;
  /** The clock of a quick game (a key of CLOCKS; "none" at first). */
  clock: string;
  form: GameForm | null;
  /** The create's refusal, shown under the card (a quick start) or under the form. */
  error: { text: string; inForm: boolean } | null;
}

const AI_LEVEL_KEY = 'tabula:ai-level';

export class LobbyCtrl {
  games: CatalogGame[] | null = null;
  readonly cards = new Map<string, Card>();
  /** The AI level a quick game starts with (each card's select starts there). */
  readonly level: number;
  lists: Lobby | null = null;
  listsError = '';
  /** The refusals of joins since the lists were drawn, each shown under them. */
  joinErrors: string[] = [];
  /** The import's refusal. */
  importError = '';
  private stopped = false;

  constructor(private readonly env: LobbyEnv, private readonly ui: LobbyUi) {
    this.level = this.quickLevel();
  }

  async start(): Promise<void> {
    try {
      this.games = await this.env.catalog();
    } catch (e) {
      if (!this.stopped) this.ui.fail(e);
      return;
    }
    if (this.stopped) return;
    for (const g of this.games) this.card(g.id);
    this.ui.redraw('games');
    await this.refreshLists();
  }

  stop(): void {
    this.stopped = true;
  }

  /** The AI level a quick game starts with: `?ai=N` on the lobby's address, else the level last chosen on
   * this device, else Club (3) — but someone who has solved no lesson here is new: the gentlest (1). */
  private quickLevel(): number {
    const ok = (n: number) => Number.isInteger(n) && n >= 1 && n <= AI_LEVELS.length;
    const asked = Number(new URLSearchParams(this.env.search).get('ai'));
    if (ok(asked)) return asked;
    const kept = Number(this.env.load(AI_LEVEL_KEY));
    if (ok(kept)) return kept;
    return this.env.solvedAny() ? 3 : 1;
  }

  /** The level chosen on a card (kept on this device for the next visit). */
  setLevel(id: string, level: number): void {
    this.card(id).level = level;
    this.env.store(AI_LEVEL_KEY, String(level));
  }

  /** The clock chosen on a card for its quick game. */
  setClock(id: string, clock: string): void {
    if (Object.hasOwn(CLOCKS, clock)) this.card(id).clock = clock;
  }

  card(id: string): Card {
    let c = this.cards.get(id);
    if (!c) {
      c = { level: this.level, clock: 'none', form: null, error: null };
      this.cards.set(id, c);
    }
    return c;
  }

  /** "Options & friends…": opens the game's form, or closes it. */
  toggleForm(g: CatalogGame): void {
    const card = this.card(g.id);
    if (card.form) {
      card.form = null;
      if (card.error?.inForm) card.error = null;
    } else {
      card.form = new GameForm(g, {
        call: this.env.call,
        signedIn: () => this.env.signedIn(),
        redrawSeats: () => this.ui.redraw(`seats:${g.id}`),
        redrawStatus: () => this.ui.redraw(`status:${g.id}`),
        create: (choice) => void this.create(g, choice, true),
      }, { level: card.level, clock: card.clock });
    }
    this.ui.redraw(`card:${g.id}`);
  }

  /** Play vs AI: this device's seat first, the AI at the card's level in the others, the card's clock. */
  quickStart(g: CatalogGame): Promise<void> {
    const { level, clock } = this.card(g.id);
    const seatCount = g.default_seats.length || 2;
    const seats: SeatChoice[] = Array.from({ length: seatCount }, (_, i) => (i === 0 ? 'me' : (`ai${level}` as SeatChoice)));
    return this.create(g, { options: {}, seats, clock, isPublic: false, rated: { rated: false, range: null } }, false);
  }

  async create(g: CatalogGame, choice: FormChoice, fromForm: boolean): Promise<void> {
    const seats = choice.seats.map((c): SeatKind =>
      c.startsWith('ai') ? { kind: 'ai', level: Number(c.slice(2)) || 3 } : c === 'open' ? { kind: 'human', open: true } : { kind: 'human' },
    );
    // Every seat for "me" is this device's: several make a hot-seat game, played on this page in turn.
    const mySeats = hostSeats(choice.seats);
    const card = this.card(g.id);
    if (card.error) {
      card.error = null;
      this.ui.redraw(`card:${g.id}`);
    }
    try {
      const request: CreateGame = {
        game: g.id,
        options: choice.options satisfies OptionValues,
        seats,
        host_seats: mySeats.length ? mySeats : undefined,
        clock: CLOCKS[choice.clock] ?? undefined,
        public: choice.isPublic || choice.seats.includes('open'),
        rated: choice.rated.rated || undefined,
        rating_range: choice.rated.range ?? undefined,
      };
      const res = await this.env.call(routes['POST /api/games'], { body: request });
      // A person's seat made with a token (the creator's, a friend's by link).
      const tokened = res.seats.flatMap((s) => (s.kind === 'human' && typeof s.token === 'string' ? [{ ...s, token: s.token }] : []));
      const mine = tokened.filter((s) => mySeats.includes(s.seat));
      for (const s of mine) this.env.saveSeat(res.id, { seat: s.seat, token: s.token });
      // The friends' links are kept on this device and shown on the waiting game page, each with a Copy
      // button, until its seat is joined.
      const invites = tokened
        .filter((s) => choice.seats[s.seat] === 'friend' && s.join_url)
        .map((s) => ({ seat: s.seat, name: s.name, url: `${this.env.origin}${s.join_url}` }));
      if (invites.length) this.env.saveInvites(res.id, invites);
      this.env.navigate(mine.length ? `/game/${res.id}` : `/watch/${res.id}`);
    } catch (e) {
      card.error = { text: e instanceof Error ? e.message : String(e), inForm: fromForm && card.form !== null };
      this.ui.redraw(`card:${g.id}`);
    }
  }

  /** Asks for the open and live games anew. */
  async refreshLists(): Promise<void> {
    try {
      const lists = await this.env.call(routes['GET /api/lobby']);
      this.lists = lists;
      this.listsError = '';
    } catch (e) {
      this.lists = null;
      this.listsError = e instanceof Error ? e.message : String(e);
    }
    this.joinErrors = [];
    if (!this.stopped) this.ui.redraw('lists');
  }

  /** Joins an open seat, then opens the game. */
  async claim(id: string, seat: number): Promise<void> {
    try {
      const request: JoinRequest = { seat };
      const r = await this.env.call(routes['POST /api/games/{id}/join'], { params: { id }, body: request });
      if (r.token === null) throw new Error('the server gave no token for the seat');
      this.env.saveSeat(id, { seat: r.seat, token: r.token });
      this.env.navigate(`/game/${id}`);
    } catch (e) {
      this.joinErrors.push(e instanceof Error ? e.message : String(e));
      this.ui.redraw('lists');
    }
  }

  /** Imports a record file's text, then opens its replay. */
  async importRecord(text: string): Promise<void> {
    const parsed = parseRecord(text);
    if (!parsed.ok) {
      this.importError = `Cannot import: ${parsed.error}`;
      this.ui.redraw('import');
      return;
    }
    try {
      const body: ImportRequest = { record: parsed.record, public: false };
      const r = await this.env.call(routes['POST /api/records'], { body });
      this.env.navigate(`/replay/${r.id}`);
    } catch (err) {
      this.importError = `Cannot import: ${err instanceof Error ? err.message : String(err)}`;
      this.ui.redraw('import');
    }
  }
}
