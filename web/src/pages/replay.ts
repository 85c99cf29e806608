// Replay: step through a finished or imported game. The client knows no rules, so each earlier position
// is obtained from the server by importing the record cut after that many actions (kept private and
// cached); the last position is the game's own final snapshot.

import { api } from '../api';
import { rendererFor } from '../games/index';
import { fileName, truncate, type JsonRecord } from '../logic/record';
import { CellTokenizer, Selection } from '../logic/select';
import { lastVisibleNotation, moveList, statusLine, type Snapshot } from '../logic/snapshot';
import { clear, h } from '../ui/dom';

export async function replayPage(root: HTMLElement, id: string): Promise<void> {
  clear(root);
  const head = h('div.card', h('p', 'Loading replay…'));
  const boardHost = h('div.board-wrap', { 'data-testid': 'replay-board' });
  const panels = h('div');
  const side = h('div.side');
  root.append(h('div.game-layout', h('div', head, boardHost, panels), side));

  let final: Snapshot;
  let record: JsonRecord;
  try {
    final = await api.get<Snapshot>(`/api/games/${id}`);
    if (final.status !== 'over' && final.status !== 'imported') {
      clear(head);
      head.append(h('p', 'This game is still running: its record opens when it is over. '),
        h('a', { href: `/watch/${id}`, 'data-link': '' }, 'Watch it live'),
        h('span', ' (the move list there steps back through the positions seen).'));
      return;
    }
    record = await api.get<JsonRecord>(`/api/games/${id}/record`);
  } catch (e) {
    clear(head);
    head.appendChild(h('p.error', e instanceof Error ? e.message : String(e)));
    return;
  }
  const total = record.actions.length;
  const cache = new Map<number, Snapshot>([[total, final]]);
  let ply = total;
  const moves = moveList(final.events);

  async function snapshotAt(k: number): Promise<Snapshot> {
    const hit = cache.get(k);
    if (hit) return hit;
    const r = await api.post<{ id: string }>('/api/records', { record: truncate(record, k), public: false });
    const snap = await api.get<Snapshot>(`/api/games/${r.id}`);
    cache.set(k, snap);
    return snap;
  }

  const slider = h('input', { type: 'range', min: 0, max: total, value: total, 'data-testid': 'replay-slider' }) as HTMLInputElement;
  slider.addEventListener('input', () => go(Number(slider.value)));

  async function go(k: number): Promise<void> {
    ply = Math.max(0, Math.min(total, k));
    slider.value = String(ply);
    let snap: Snapshot;
    try {
      snap = await snapshotAt(ply);
    } catch (e) {
      clear(boardHost);
      boardHost.appendChild(h('p.error', e instanceof Error ? e.message : String(e)));
      return;
    }
    if (ply !== Number(slider.value)) return; // a later step overtook this one
    draw(snap);
  }

  function draw(snap: Snapshot): void {
    const renderer = rendererFor(final.game);
    const tok = new CellTokenizer(renderer.cellNames(snap.view, final.options), renderer.wordCells);
    const last = lastVisibleNotation(snap.events);
    const { board, panels: extra } = renderer.render({
      gameId: final.game,
      view: snap.view,
      options: final.options,
      seat: null,
      seatNames: final.seats.map((s) => s.name),
      selection: new Selection([], tok),
      lastMove: last ? tok.cells(last) : [],
      onCell: () => undefined,
    });
    clear(head);
    head.append(
      h('h2', { style: 'margin:0' }, `Replay: ${final.name ?? final.game}`),
      h('p', { 'data-testid': 'replay-ply' }, `Action ${ply} of ${total}`),
      h('p.muted', statusLine(final)),
      h('div.row',
        h('button', { onclick: () => go(0) }, '⏮'),
        h('button', { 'data-testid': 'replay-prev', onclick: () => go(ply - 1) }, '◀'),
        h('button', { 'data-testid': 'replay-next', onclick: () => go(ply + 1) }, '▶'),
        h('button', { onclick: () => go(total) }, '⏭'),
        slider,
        h('button', { 'data-testid': 'export', onclick: () => download(record, id) }, 'Download record'),
        h('a', { href: '/', 'data-link': '' }, 'Lobby'),
      ),
    );
    clear(boardHost);
    if (board) boardHost.appendChild(board);
    clear(panels);
    for (const p of extra) panels.appendChild(p);
    clear(side);
    side.appendChild(h('div.card', h('h3', 'Moves'), h('div.moves', h('ol', moves.map((m, i) =>
      h('li', { class: i === ply - 1 ? 'current' : '', onclick: () => go(i + 1) },
        `${m.actor === 'chance' ? 'chance' : (final.seats[m.actor.seat]?.name ?? `Seat ${m.actor.seat + 1}`)}: ${m.notation ?? '(hidden)'}`))))));
  }

  await go(total);
}

function download(record: JsonRecord, id: string): void {
  const blob = new Blob([JSON.stringify(record, null, 2)], { type: 'application/json' });
  const a = h('a', { href: URL.createObjectURL(blob), download: fileName(record, id) }) as HTMLAnchorElement;
  document.body.appendChild(a);
  a.click();
  a.remove();
}
