// Seat tokens, kept in localStorage so that a reload, a network drop or a server restart never loses
// a seat. Keyed by game id; a game may hold several seats of this device (hot-seat play).

export interface SeatCredential {
  seat: number;
  token: string;
}

const KEY = (id: string) => `tabula:seat:${id}`;

const memory = new Map<string, SeatCredential[]>();

function isCred(v: unknown): v is SeatCredential {
  return (
    typeof v === 'object' && v !== null &&
    Number.isInteger((v as SeatCredential).seat) && (v as SeatCredential).seat >= 0 &&
    typeof (v as SeatCredential).token === 'string' && (v as SeatCredential).token !== ''
  );
}

/** Reads a stored entry: a list of seats, or one seat (the format before hot-seat). Anything else (an
 * unreadable or foreign entry) is no seat; duplicate seats keep the last token. */
export function parseSeats(raw: string | null): SeatCredential[] {
  if (!raw) return [];
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return [];
  }
  const list = Array.isArray(v) ? v : [v];
  return withSeat([], list.filter(isCred).map((c) => ({ seat: c.seat, token: c.token })));
}

/** `list` with every seat of `more` added or replaced (a seat's newest token wins), ordered by seat. */
export function withSeat(list: SeatCredential[], more: SeatCredential[]): SeatCredential[] {
  const bySeat = new Map<number, SeatCredential>();
  for (const c of [...list, ...more]) bySeat.set(c.seat, c);
  return [...bySeat.values()].sort((a, b) => a.seat - b.seat);
}

/** Every seat this device holds in game `id`, ordered by seat. */
export function loadSeats(id: string): SeatCredential[] {
  const m = memory.get(id);
  if (m) return m;
  try {
    return parseSeats(localStorage.getItem(KEY(id)));
  } catch {
    return []; // storage disabled
  }
}

/** Adds (or renews the token of) one seat of game `id`; the other seats of this device are kept. */
export function saveSeat(id: string, cred: SeatCredential): void {
  const list = withSeat(loadSeats(id), [cred]);
  memory.set(id, list);
  try {
    localStorage.setItem(KEY(id), JSON.stringify(list));
  } catch {
    /* storage full or disabled: the seats live only as long as this page */
  }
}

/** Forgets one seat of game `id` (its token was replaced: someone claimed the seat with a new link,
 * or the account changed its password). With `token`, only while that is the token kept for it (a
 * newer one, adopted from "my games", stays). */
export function forgetSeat(id: string, seat: number, token?: string): void {
  const list = loadSeats(id).filter((c) => c.seat !== seat || (token !== undefined && c.token !== token));
  memory.set(id, list);
  try {
    localStorage.setItem(KEY(id), JSON.stringify(list));
  } catch {
    /* storage disabled: the seat is forgotten for as long as this page lives */
  }
}

/** An invitation to one seat of a game: the seat, its name, and the full join link (with its token). */
export interface Invite {
  seat: number;
  name: string;
  url: string;
}

const INVITES = (id: string) => `tabula:invites:${id}`;

/** Keeps the creator's invitation links of game `id`, so the waiting page shows them until each seat is
 * joined (a link is shown once by the server: its token is not stored there in the clear). */
export function saveInvites(id: string, invites: Invite[]): void {
  try {
    localStorage.setItem(INVITES(id), JSON.stringify(invites));
  } catch {
    /* storage full or disabled: the links show on this page only */
  }
}

/** The invitation links this device created for game `id` (none when it created none). */
export function loadInvites(id: string): Invite[] {
  let v: unknown;
  try {
    v = JSON.parse(localStorage.getItem(INVITES(id)) ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is Invite =>
    typeof x === 'object' && x !== null && Number.isInteger(x.seat) && typeof x.name === 'string' &&
    typeof x.url === 'string' && /^https?:\/\//.test(x.url));
}

/** Every game this browser holds seats of, with its seats (for claiming them into an account). */
export function allSeats(): { id: string; seats: SeatCredential[] }[] {
  const out = new Map<string, SeatCredential[]>();
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key?.startsWith('tabula:seat:')) continue;
      const id = key.slice('tabula:seat:'.length);
      const seats = parseSeats(localStorage.getItem(key));
      if (id && seats.length) out.set(id, seats);
    }
  } catch {
    /* storage disabled: only this page's seats */
  }
  for (const [id, seats] of memory) if (seats.length) out.set(id, seats);
  return [...out.entries()].map(([id, seats]) => ({ id, seats }));
}
