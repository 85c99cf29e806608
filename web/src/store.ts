// Seat tokens, kept in localStorage so that a reload, a network drop or a server restart never loses
// the seat. Keyed by game id.

export interface SeatCredential {
  seat: number;
  token: string;
}

const KEY = (id: string) => `tabula:seat:${id}`;

export function saveSeat(id: string, cred: SeatCredential): void {
  try {
    localStorage.setItem(KEY(id), JSON.stringify(cred));
  } catch {
    /* storage full or disabled: the seat lives only as long as this page */
  }
  memory.set(id, cred);
}

const memory = new Map<string, SeatCredential>();

export function loadSeat(id: string): SeatCredential | null {
  const m = memory.get(id);
  if (m) return m;
  try {
    const raw = localStorage.getItem(KEY(id));
    if (!raw) return null;
    const v = JSON.parse(raw) as unknown;
    if (
      typeof v === 'object' && v !== null &&
      typeof (v as SeatCredential).seat === 'number' &&
      typeof (v as SeatCredential).token === 'string'
    ) {
      return v as SeatCredential;
    }
  } catch {
    /* unreadable entry: treated as no seat */
  }
  return null;
}
