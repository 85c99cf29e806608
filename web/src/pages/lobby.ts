// The lobby: pick a game, its options, who sits where (me, a friend by link, the AI at a level), a clock;
// join open games, watch live ones, import a record.

import { api } from '../api';
import { solvedAny } from '../logic/learned';
import { changedOnly, defaults, hostSeats, label, parseValue, type OptionSpec, type OptionValues } from '../logic/options';
import { parseRecord } from '../logic/record';
import { saveInvites, saveSeat } from '../store';
import { clear, h } from '../ui/dom';
import { navigate } from '../router';
import { currentSession } from '../account';
import { ratedBlock, ratingRange } from '../logic/rated';
import { shownRating } from '../logic/chart';

import type { Catalog } from '../wire/server/Catalog';
import type { CatalogGame } from '../wire/server/CatalogGame';
import type { ClockSpec } from '../wire/server/ClockSpec';
import type { CreateGame } from '../wire/server/CreateGame';
import type { Created } from '../wire/server/Created';
import type { Imported } from '../wire/server/Imported';
import type { ImportRequest } from '../wire/server/ImportRequest';
import type { Joined } from '../wire/server/Joined';
import type { JoinRequest } from '../wire/server/JoinRequest';
import type { Lobby } from '../wire/server/Lobby';
import type { LobbyGame } from '../wire/server/LobbyGame';
import type { LobbySeat } from '../wire/server/LobbySeat';
import type { Preview } from '../wire/server/Preview';
import type { PreviewRequest } from '../wire/server/PreviewRequest';
import type { SeatKind } from '../wire/server/SeatKind';

export type { CatalogGame };

/** A created game's rating settings: rated or casual, and a rated seek's range. */
interface Rated {
  rated: boolean;
  range: { min: number; max: number } | null;
}

type SeatChoice = 'me' | 'friend' | 'open' | `ai${number}`;

/** The AI crate's levels (crates/ai: LEVELS). */
const AI_LEVELS: [number, string][] = [[1, 'Novice'], [2, 'Casual'], [3, 'Club'], [4, 'Expert'], [5, 'Master']];

const CLOCKS: Record<string, ClockSpec | null> = {
  none: null,
  blitz: { kind: 'fischer', initial_ms: 300000, increment_ms: 3000 },
  rapid: { kind: 'fischer', initial_ms: 900000, increment_ms: 10000 },
  corr: { kind: 'correspondence', days_per_move: 3 },
};
const CLOCK_LABELS: Record<string, string> = {
  none: 'No clock',
  blitz: '5 min + 3 s',
  rapid: '15 min + 10 s',
  corr: 'Correspondence, 3 days a move',
};

let catalogCache: CatalogGame[] | null = null;
export async function catalog(): Promise<CatalogGame[]> {
  if (!catalogCache) {
    const c = await api.get<Catalog>('/api/catalog');
    catalogCache = c.games;
  }
  return catalogCache;
}

export async function lobbyPage(root: HTMLElement): Promise<void> {
  clear(root);
  const games = await catalog();
  const newGame = h('section.card', h('h2', 'Start a game'));
  const grid = h('div.grid');
  for (const g of games) grid.appendChild(gameCard(g));
  newGame.appendChild(grid);

  const lists = h('section.card', h('h2', 'Open and live games'), h('p.muted', 'Loading…'));
  const importCard = importSection();
  root.append(newGame, lists, importCard);
  await refreshLists(lists);
}

const AI_LEVEL_KEY = 'tabula:ai-level';

/** The AI level a quick game starts with: `?ai=N` on the lobby's address, else the level last chosen on
 * this device, else Club (3) — but someone who has solved no lesson here is new: the gentlest (1). */
function quickLevel(): number {
  const ok = (n: number) => Number.isInteger(n) && n >= 1 && n <= AI_LEVELS.length;
  const asked = Number(new URLSearchParams(location.search).get('ai'));
  if (ok(asked)) return asked;
  let kept = NaN;
  try {
    kept = Number(localStorage.getItem(AI_LEVEL_KEY));
  } catch {
    /* storage disabled */
  }
  if (ok(kept)) return kept;
  return solvedAny() ? 3 : 1;
}

function gameCard(g: CatalogGame): HTMLElement {
  const card = h('div.card.game-card', { 'data-game': g.id });
  const formHost = h('div');
  const level = quickLevel();
  const levelSel = h('select', { 'data-testid': `ai-level-${g.id}`, 'aria-label': 'AI level', title: 'The AI\'s strength' },
    AI_LEVELS.map(([lvl, name]) => h('option', { value: String(lvl), selected: lvl === level }, `Level ${lvl} — ${name}`))) as HTMLSelectElement;
  levelSel.addEventListener('change', () => {
    try {
      localStorage.setItem(AI_LEVEL_KEY, levelSel.value);
    } catch {
      /* storage disabled: the choice holds for this page */
    }
  });
  card.append(
    h('h3', g.name),
    h('p.muted', g.description),
    h(
      'div.row',
      h('button.primary', {
        'data-testid': `play-ai-${g.id}`,
        onclick: () => quickStart(g, Number(levelSel.value), card),
      }, 'Play vs AI'),
      levelSel,
      h('button', { onclick: () => { toggleForm(g, formHost); card.classList.toggle('open', formHost.firstChild !== null); } }, 'Options & friends…'),
      h('a', { href: `/learn/${g.id}`, 'data-link': '', 'data-testid': `how-to-play-${g.id}` }, 'How to play'),
      h('a', { href: `/rules/${g.id}`, 'data-link': '' }, 'Rules'),
    ),
    formHost,
  );
  return card;
}

async function quickStart(g: CatalogGame, level: number, card: HTMLElement): Promise<void> {
  const seatCount = g.default_seats.length || 2;
  const seats: SeatChoice[] = Array.from({ length: seatCount }, (_, i) => (i === 0 ? 'me' : (`ai${level}` as SeatChoice)));
  await create(g, {}, seats, 'none', false, card);
}

function toggleForm(g: CatalogGame, host: HTMLElement): void {
  if (host.firstChild) {
    clear(host);
    return;
  }
  const values: OptionValues = defaults(g.options);
  let seatNames = [...g.default_seats];
  let seatChoices: SeatChoice[] = seatNames.map((_, i) => (i === 0 ? 'me' : 'ai3'));
  const errors = h('div.error');
  const seatsBox = h('div');
  const clockSel = h('select', { name: 'clock' }, Object.keys(CLOCKS).map((k) => h('option', { value: k }, CLOCK_LABELS[k]))) as HTMLSelectElement;
  const publicBox = h('input', { type: 'checkbox', checked: true }) as HTMLInputElement;

  const drawSeats = () => {
    clear(seatsBox);
    seatsBox.appendChild(h('h4', 'Seats'));
    seatsBox.appendChild(h('p.muted', 'Choose "Me (this device)" for several seats to play hot-seat: the players take turns at this device, which asks to be passed on before it shows hidden cards or setups.'));
    seatNames.forEach((name, i) => {
      const sel = h(
        'select',
        { 'data-seat': i, onchange: (e: Event) => { seatChoices[i] = (e.target as HTMLSelectElement).value as SeatChoice; drawRated(); } },
        h('option', { value: 'me' }, 'Me (this device)'),
        h('option', { value: 'friend' }, 'A friend (by link)'),
        h('option', { value: 'open' }, 'Anyone (open seat in the lobby)'),
        AI_LEVELS.map(([lvl, name]) => h('option', { value: `ai${lvl}` }, `AI level ${lvl} — ${name}`)),
      ) as HTMLSelectElement;
      sel.value = seatChoices[i] ?? 'ai3';
      seatsBox.appendChild(h('label', `${name}: `, sel));
    });
    drawRated();
  };

  // Rated: only for a signed-in creator with one seat, the others for people (the box says why not).
  const ratedBox = h('input', { type: 'checkbox', name: 'rated', 'data-testid': 'rated' }) as HTMLInputElement;
  const ratedWhy = h('small', { 'data-testid': 'rated-why' });
  const rangeMin = h('input', { type: 'number', name: 'rating_min', placeholder: 'any', step: 50, min: 0, max: 5000, size: 6 }) as HTMLInputElement;
  const rangeMax = h('input', { type: 'number', name: 'rating_max', placeholder: 'any', step: 50, min: 0, max: 5000, size: 6 }) as HTMLInputElement;
  const rangeRow = h('label.range', 'Opponents rated from ', rangeMin, ' to ', rangeMax, h('small', 'Optional: who may join this rated game.'));
  ratedBox.addEventListener('change', () => drawRated());
  function drawRated(): void {
    const why = ratedBlock(currentSession() !== null, seatChoices);
    ratedBox.disabled = why !== null;
    if (why) ratedBox.checked = false;
    ratedWhy.textContent = why ?? 'Ratings change when the game ends; every seat is a signed-in player.';
    rangeRow.hidden = !ratedBox.checked;
  }

  const refreshSeats = async () => {
    try {
      const request: PreviewRequest = { options: changedOnly(g.options, values) };
      const p = await api.post<Preview>(`/api/catalog/${g.id}/preview`, request);
      errors.textContent = '';
      seatNames = p.seats;
      seatChoices = seatNames.map((_, i) => seatChoices[i] ?? (i === 0 ? 'me' : 'ai3'));
      drawSeats();
    } catch (e) {
      errors.textContent = e instanceof Error ? e.message : String(e);
    }
  };

  const optionInputs = g.options.map((spec) => optionInput(spec, values, errors, refreshSeats));
  drawSeats();
  host.append(
    h('div.card',
      g.options.length ? h('h4', 'Options') : h('p.muted', 'This game has no options.'),
      optionInputs,
      seatsBox,
      h('label', 'Clock: ', clockSel),
      h('label', publicBox, ' List in the lobby (others may watch or join open seats)'),
      h('label', ratedBox, ' Rated', ratedWhy),
      rangeRow,
      errors,
      h('button.primary', {
        onclick: () => {
          const range = ratingRange(rangeMin.value, rangeMax.value);
          if (!range.ok) {
            errors.textContent = range.error;
            return;
          }
          const rated = { rated: ratedBox.checked, range: ratedBox.checked ? range.value : null };
          void create(g, changedOnly(g.options, values), seatChoices, clockSel.value, publicBox.checked, host, rated);
        },
      }, 'Create game'),
    ),
  );
}

function optionInput(spec: OptionSpec, values: OptionValues, errors: HTMLElement, changed: () => void): HTMLElement {
  const set = (raw: string | boolean) => {
    const r = parseValue(spec, raw);
    if (r.ok) {
      values[spec.name] = r.value;
      errors.textContent = '';
      changed();
    } else {
      errors.textContent = r.error;
    }
  };
  let input: HTMLElement;
  if (spec.type === 'bool') {
    input = h('input', { type: 'checkbox', name: spec.name, checked: values[spec.name] === true, onchange: (e: Event) => set((e.target as HTMLInputElement).checked) });
  } else if (spec.type === 'int') {
    input = h('input', { type: 'number', name: spec.name, min: spec.min, max: spec.max, value: values[spec.name], onchange: (e: Event) => set((e.target as HTMLInputElement).value) });
  } else {
    const sel = h('select', { name: spec.name, onchange: (e: Event) => set((e.target as HTMLSelectElement).value) }, spec.values.map((v) => h('option', { value: v }, v))) as HTMLSelectElement;
    sel.value = String(values[spec.name]);
    input = sel;
  }
  return h('label', `${label(spec.name)} `, input, h('small', spec.description));
}

async function create(
  g: CatalogGame,
  options: OptionValues,
  choices: SeatChoice[],
  clock: string,
  isPublic: boolean,
  errorHost: HTMLElement,
  rated: Rated = { rated: false, range: null },
): Promise<void> {
  const seats = choices.map((c): SeatKind =>
    c.startsWith('ai') ? { kind: 'ai', level: Number(c.slice(2)) || 3 } : c === 'open' ? { kind: 'human', open: true } : { kind: 'human' },
  );
  // Every seat for "me" is this device's: several make a hot-seat game, played on this page in turn.
  const mySeats = hostSeats(choices);
  errorHost.querySelector('[data-testid=create-error]')?.remove();
  try {
    const request: CreateGame = {
      game: g.id,
      options,
      seats,
      host_seats: mySeats.length ? mySeats : undefined,
      clock: CLOCKS[clock] ?? undefined,
      public: isPublic || choices.includes('open'),
      rated: rated.rated || undefined,
      rating_range: rated.range ?? undefined,
    };
    const res = await api.post<Created>('/api/games', request);
    // A person's seat made with a token (the creator's, a friend's by link).
    const tokened = res.seats.flatMap((s) => (s.kind === 'human' && typeof s.token === 'string' ? [{ ...s, token: s.token }] : []));
    const mine = tokened.filter((s) => mySeats.includes(s.seat));
    for (const s of mine) saveSeat(res.id, { seat: s.seat, token: s.token });
    // The friends' links are kept on this device and shown on the waiting game page, each with a Copy
    // button, until its seat is joined.
    const invites = tokened
      .filter((s) => choices[s.seat] === 'friend' && s.join_url)
      .map((s) => ({ seat: s.seat, name: s.name, url: `${location.origin}${s.join_url}` }));
    if (invites.length) saveInvites(res.id, invites);
    navigate(mine.length ? `/game/${res.id}` : `/watch/${res.id}`);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    errorHost.appendChild(h('p.error', { 'data-testid': 'create-error' }, msg));
  }
}

async function refreshLists(host: HTMLElement): Promise<void> {
  let data: Lobby;
  try {
    data = await api.get<Lobby>('/api/lobby');
  } catch (e) {
    clear(host);
    host.append(h('h2', 'Open and live games'), h('p.error', e instanceof Error ? e.message : String(e)));
    return;
  }
  clear(host);
  host.append(
    h('h2', 'Open games'),
    data.open.length
      ? h('ul', data.open.map((g) => h('li', { 'data-id': g.id }, lobbyLine(g),
          g.seats.filter((s) => s.kind === 'human' && s.open === true && !s.joined).map((s) =>
            h('button', { onclick: () => claim(g.id, s.seat, host) }, `Join as ${s.name}`)))))
      : h('p.muted', 'No open games. Create one above and choose "Anyone" for a seat.'),
    h('h2', 'Live games'),
    data.live.length
      ? h('ul', data.live.map((g) => h('li', { 'data-id': g.id }, lobbyLine(g), ' ', h('a', { href: `/watch/${g.id}`, 'data-link': '' }, 'Watch'))))
      : h('p.muted', 'No live public games right now.'),
    h('button', { onclick: () => refreshLists(host) }, 'Refresh'),
  );
}

/** A lobby game's line: its kind, rated or not, each seat (the account holding it with its rating in
 * that kind, "player" for an anonymous one), the moves so far. */
function lobbyLine(g: LobbyGame): HTMLElement {
  const seat = (s: LobbySeat) => {
    if (s.kind === 'ai') return `${s.name}: AI ${s.level}`;
    if (!s.joined) return `${s.name}: ${s.open ? 'open' : 'invited friend'}`;
    if (!s.player) return `${s.name}: player`;
    return h('span', `${s.name}: `,
      h('a', { href: `/@/${encodeURIComponent(s.player.name)}`, 'data-link': '', 'data-testid': 'lobby-player' }, s.player.name),
      ` (${s.player.rating === null ? 'unrated' : shownRating(s.player.rating)})`);
  };
  const range = g.rating_range ? ` ${shownRating(g.rating_range.min)}–${shownRating(g.rating_range.max)}` : '';
  const parts: (HTMLElement | string)[] = [];
  g.seats.forEach((s, i) => parts.push(...(i ? [', '] : []), seat(s)));
  return h('span', `${g.name} `, g.rated ? h('b.rated', { 'data-testid': 'lobby-rated' }, `Rated${range}`) : '', ' — ', parts, ` — ${g.moves} moves `);
}

async function claim(id: string, seat: number, host: HTMLElement): Promise<void> {
  try {
    const request: JoinRequest = { seat };
    const r = await api.post<Joined>(`/api/games/${id}/join`, request);
    if (r.token === null) throw new Error('the server gave no token for the seat');
    saveSeat(id, { seat: r.seat, token: r.token });
    navigate(`/game/${id}`);
  } catch (e) {
    host.appendChild(h('p.error', e instanceof Error ? e.message : String(e)));
  }
}

function importSection(): HTMLElement {
  const msg = h('p');
  const file = h('input', {
    type: 'file',
    accept: 'application/json,.json',
    'data-testid': 'import-file',
    onchange: async (e: Event) => {
      const f = (e.target as HTMLInputElement).files?.[0];
      if (!f) return;
      const parsed = parseRecord(await f.text());
      if (!parsed.ok) {
        msg.className = 'error';
        msg.textContent = `Cannot import: ${parsed.error}`;
        return;
      }
      try {
        const body: ImportRequest = { record: parsed.record, public: false };
        const r = await api.post<Imported>('/api/records', body);
        navigate(`/replay/${r.id}`);
      } catch (err) {
        msg.className = 'error';
        msg.textContent = `Cannot import: ${err instanceof Error ? err.message : String(err)}`;
      }
    },
  });
  return h('section.card', h('h2', 'Import a record'), h('p.muted', 'Open a game record (JSON) to replay it.'), file, msg);
}

