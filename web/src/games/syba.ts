// Syba Chess (game id `syba`): the area map (from the edition's content files, bundled at build time),
// cities with their level and owner, armies as unit chips (Rested upright, Exhausted turned and marked
// "Ex"), resources, pending interceptions, battles, trades and unit selections. Areas and units are
// clickable: a unit (`u12`) then an area moves it; an area then another area moves an army (then choose
// which of its units go: all start chosen); a target area attacks it; while units are being chosen for an attack, an interception or to help an attack,
// the chosen units are ringed and clicking a unit picks it or holds it back (`pick u12` / `hold u12`).

import { h, s } from '../ui/dom';
import mapData from '../../../crates/games/syba/data/map.json';
import citiesData from '../../../crates/games/syba/data/cities.json';
import racesData from '../../../crates/games/syba/data/races.json';
import heroesData from '../../../crates/games/syba/data/heroes.json';
import { emblemUse, PALETTE, seatColour, seatInk } from './art';
import { animateByIdentity, cellMarks, cellState } from './board';
import { asArray, asNumber, asString, get } from './types';
import type { Renderer, RenderContext } from './types';

interface Area { id: string; name: string; code: string; pos: number[]; city?: string }
const AREAS: Area[] = (mapData as unknown as { areas: Area[] }).areas;
const LINKS: string[][] = (mapData as unknown as { links: string[][] }).links;
const CITIES: { name: string; level: string }[] = (citiesData as unknown as { cities: { name: string; level: string }[] }).cities;
const RACES: { name: string; colour: string; soldier: string; knight: string; monster: string }[] = (racesData as unknown as { races: never[] }).races;
const HEROES: { name: string; power: number }[] = (heroesData as unknown as { heroes: never[] }).heroes;
const LEVEL_STRENGTH: Record<string, number> = { settlement: 1, village: 2, town: 3, major: 4, capital: 5 };
const RACE_FILL: Record<string, string> = { blue: '#2f6db5', red: '#b3261e', orange: '#e07b16', green: '#2e8b3e', white: '#f4f1ea', black: '#26231f' };

const R = 46;
const pos = (a: Area) => ({ x: R * Math.sqrt(3) * (a.pos[0] + 0.5 * (a.pos[1] & 1)) + R * 1.2, y: R * 1.5 * a.pos[1] + R * 1.2 });

function hexPts(x: number, y: number, r: number): string {
  return Array.from({ length: 6 }, (_, k) => {
    const a = (Math.PI / 180) * (60 * k - 30);
    return `${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`;
  }).join(' ');
}

function playerColour(view: unknown, seat: number): { fill: string; ink: string } {
  const race = get(view, 'state', 'players', seat, 'race');
  const colour = typeof race === 'number' ? RACES[race]?.colour : undefined;
  if (colour && RACE_FILL[colour]) return { fill: RACE_FILL[colour], ink: colour === 'white' || colour === 'orange' ? '#1d1b19' : '#fff' };
  return { fill: seatColour(seat), ink: seatInk(seat) };
}

/** The pending unit selection, if any: who chooses, for what, whether the chosen units move (an army
 * move) or are Exhausted (attack, interception, help), and the chosen unit ids. */
export function selectionOf(state: unknown): { seat: number; purpose: string; moving: boolean; chosen: number[] } | null {
  const stack = asArray(get(state, 'stack'));
  const sel = get(stack[stack.length - 1], 'select');
  if (!sel || typeof sel !== 'object') return null;
  const purpose = get(sel, 'purpose');
  const attack = get(purpose, 'attack');
  const intercept = get(purpose, 'intercept');
  const move = get(purpose, 'move');
  let what = 'to help the attack';
  if (move) {
    what = `to move together from ${AREAS[asNumber(get(move, 'from'), -1)]?.name ?? '?'} to ${AREAS[asNumber(get(move, 'to'), -1)]?.name ?? '?'}`;
  } else if (attack) {
    const army = get(attack, 'army');
    const city = get(attack, 'city');
    if (army) what = `to attack P${asNumber(get(army, 'owner')) + 1}'s army in ${AREAS[asNumber(get(army, 'area'), -1)]?.name ?? '?'}`;
    else if (typeof city === 'number') what = `to attack ${CITIES[city]?.name ?? '?'}`;
  } else if (intercept) {
    what = `to intercept P${asNumber(get(intercept, 'mover')) + 1}'s army entering ${AREAS[asNumber(get(intercept, 'area'), -1)]?.name ?? '?'}`;
  }
  return { seat: asNumber(get(sel, 'seat')), purpose: what, moving: !!move, chosen: asArray(get(sel, 'chosen')).map((x) => asNumber(x, -1)) };
}

const UNIT_POWER: Record<string, number> = { soldier: 1, knight: 2, monster: 3 };
const LEVEL_NAME: Record<string, string> = { settlement: 'Settlement', village: 'Village', town: 'Town', major: 'Major City', capital: 'Capital City' };
const LEVEL_EMBLEM: Record<string, string> = { settlement: 'settlement', village: 'village', town: 'citytown', major: 'major', capital: 'citycapital' };

/** A unit's emblem, its name (the race's own name for the chip, or the hero's) and its type in words. */
function unitLabel(kind: unknown, race: number | null): { emblem: string; name: string; type: string } {
  if (typeof kind === 'string') {
    const r = race === null ? undefined : RACES[race];
    const own = r ? (r as unknown as Record<string, unknown>)[kind] : undefined;
    const type = kind.charAt(0).toUpperCase() + kind.slice(1);
    const power = UNIT_POWER[kind];
    return { emblem: kind in UNIT_POWER ? kind : 'soldier', name: typeof own === 'string' && own ? own : type, type: `${type}${power ? `, Power ${power}` : ''}` };
  }
  const hero = get(kind, 'hero');
  if (typeof hero === 'number') {
    const hd = HEROES[hero];
    return { emblem: 'hero', name: hd?.name ?? `hero ${hero}`, type: `Hero${hd ? `, Power ${hd.power}` : ''}` };
  }
  return { emblem: 'soldier', name: 'unit', type: 'unit' };
}

/** A unit in the rule book's words, for its tooltip and tap. */
export function unitInfo(id: string, name: string, type: string, owner: string, exhausted: boolean, picked: boolean): string {
  const state = exhausted
    ? 'Exhausted (used this turn; Rest it with 1 Food)'
    : 'Rested (may be Exhausted to move again, attack or use a hero action)';
  return `${id}: ${name} (${type}) of ${owner}, ${state}${picked ? '; chosen' : ''}`;
}

/** A city in the rule book's words: its type, City Strength (also the resources it gives) and owner. */
export function cityInfo(city: string, level: string, owner: string | null, destroyed: boolean): string {
  const n = LEVEL_STRENGTH[level];
  return `${city}: ${LEVEL_NAME[level] ?? level}, City Strength ${n ?? '?'} (gives ${n ?? '?'} resources)${owner ? `, owned by ${owner}` : ', unowned'}${destroyed ? ', destroyed' : ''}`;
}

/** A trade bundle in words: `2 production, u17, Kaul`. */
export function bundle(b: unknown): string {
  const names = ['production', 'food', 'research'];
  const parts: string[] = [];
  asArray(get(b, 'resources')).forEach((n, i) => {
    if (asNumber(n) > 0) parts.push(`${asNumber(n)} ${names[i] ?? '?'}`);
  });
  for (const u of asArray(get(b, 'units'))) parts.push(`u${asNumber(u)}`);
  for (const c of asArray(get(b, 'cities'))) parts.push(CITIES[asNumber(c, -1)]?.name ?? `city ${asNumber(c)}`);
  return parts.length ? parts.join(', ') : 'nothing';
}

/** The most characters a trade note may have (the rules engine's `TRADE_NOTE_MAX`). */
export const TRADE_NOTE_MAX = 200;

/** The composer's editor of a trade's note of non-binding promises: sends `note <text>` (an empty
 * text clears the note). Line breaks become spaces (a note is one line). */
export function noteEditor(current: string, send: (notation: string) => void): Element {
  const input = h('input', { type: 'text', value: current, maxlength: TRADE_NOTE_MAX, size: 40, placeholder: 'Promises (not binding), e.g. no attack on Kaul for two rounds', 'data-testid': 'trade-note' }) as HTMLInputElement;
  const submit = (): void => {
    const text = input.value.replace(/[\r\n\t]+/g, ' ').trim();
    send(text === '' ? 'note' : `note ${text}`);
  };
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') submit(); });
  return h('div.note-editor', h('label', 'Note with the proposal: ', input), ' ', h('button', { onclick: submit, 'data-testid': 'trade-note-set' }, current ? 'Change note' : 'Set note'));
}

/** Unit ids as `u3, u4` after `lead` (empty when there are none): an interception's entering army
 * (its only target; the mover's other units there fight only when committed with help-defend). */
export function unitList(ids: unknown, lead: string): string {
  const v = asArray(ids).map((x) => `u${asNumber(x)}`);
  return v.length ? `${lead}${v.join(', ')}` : '';
}

/** A trade proposal's note of non-binding promises, as shown after the trade (empty when none). */
export function tradeNote(trade: unknown): string {
  const note = get(trade, 'note');
  return typeof note === 'string' && note !== '' ? `. Promises (not binding): “${note}”` : '';
}

export const sybaRenderer: Renderer = {
  seatColour: (view, seat) => (typeof get(view, 'state', 'players', seat, 'race') === 'number' ? playerColour(view, seat).fill : null),
  render(ctx: RenderContext) {
    const view = ctx.view;
    const state = get(view, 'state');
    const targets = ctx.selection.targets();
    const owners = asArray(get(state, 'city_owner'));
    const destroyed = asArray(get(state, 'city_destroyed'));
    const layer: SVGElement[] = [];
    const byId = new Map(AREAS.map((a) => [a.id, a]));
    for (const [a, b] of LINKS) {
      const pa = byId.get(a), pb = byId.get(b);
      if (!pa || !pb) continue;
      const A = pos(pa), B = pos(pb);
      layer.push(s('line', { x1: A.x, y1: A.y, x2: B.x, y2: B.y, stroke: '#b8a88a', 'stroke-width': 3, 'stroke-dasharray': '2 4' }));
    }
    const units = asArray(get(state, 'units'));
    const selection = selectionOf(state);
    const chosen = new Set(selection?.chosen ?? []);
    const top: SVGElement[] = [];
    const places = new Map<string, { x: number; y: number }>();
    AREAS.forEach((area, ai) => {
      const { x, y } = pos(area);
      const st = cellState(ctx, area.id, targets);
      const cityIdx = area.city ? CITIES.findIndex((c) => c.name === area.city) : -1;
      const owner = cityIdx >= 0 ? owners[cityIdx] : null;
      const gone = cityIdx >= 0 && destroyed[cityIdx] === true;
      const level = cityIdx >= 0 ? CITIES[cityIdx].level : '';
      const g = s('g', { class: `cell area${st.target ? ' target' : ''}`, 'data-cell': area.id },
        s('title', `${area.name}${cityIdx >= 0 ? ` — ${level} (strength ${LEVEL_STRENGTH[level] ?? '?'})${typeof owner === 'number' ? `, owned by ${ctx.seatNames[owner] ?? `P${owner + 1}`}` : ', unowned'}${gone ? ', destroyed' : ''}` : ''}`),
        s('polygon', { points: hexPts(x, y, R * 0.98), fill: cityIdx >= 0 && !gone ? PALETTE.light : PALETTE.neutral, stroke: st.target ? 'var(--hi)' : PALETTE.line, 'stroke-width': st.target ? 4 : 1.2 }),
        s('text', { x, y: y - R * 0.55, 'text-anchor': 'middle', 'font-size': 9, 'font-weight': 700, fill: '#3b2a1a' }, area.name.length > 14 ? area.code : area.name));
      if (cityIdx >= 0 && !gone) {
        const oc = typeof owner === 'number' ? playerColour(view, owner) : { fill: '#fff', ink: '#333' };
        const info = cityInfo(area.city ?? area.name, level, typeof owner === 'number' ? ctx.seatNames[owner] ?? `P${owner + 1}` : null, false);
        g.appendChild(s('g', { class: 'city-badge', transform: `translate(${x - R * 0.7},${y - R * 0.36})`, 'data-info': info },
          s('title', info),
          s('rect', { width: 30, height: 16, rx: 3, fill: oc.fill, stroke: '#3b2a1a' }),
          emblemUse(LEVEL_EMBLEM[level] ?? 'settlement', 8.5, 8, 13, oc.ink),
          s('text', { x: 22.5, y: 12.5, 'text-anchor': 'middle', 'font-size': 11, 'font-weight': 700, fill: oc.ink }, `${LEVEL_STRENGTH[level] ?? '?'}`)));
      }
      // Units in this area, each a chip (a hero is round), drawn above every area.
      const here = units.filter((u) => asNumber(get(u, 'area'), -1) === ai);
      const ug = s('g');
      here.forEach((u, k) => {
        const id = `u${asNumber(get(u, 'id'))}`;
        const ust = cellState(ctx, id, targets);
        const o = asNumber(get(u, 'owner'));
        const col = playerColour(view, o);
        const ex = get(u, 'exhausted') === true;
        const picked = chosen.has(asNumber(get(u, 'id'), -1));
        const race = get(state, 'players', o, 'race');
        const { emblem, name, type } = unitLabel(get(u, 'kind'), typeof race === 'number' ? race : null);
        const info = unitInfo(id, name, type, ctx.seatNames[o] ?? `P${o + 1}`, ex, picked);
        const cx = x - R * 0.62 + (k % 5) * 14;
        const cy = y + 10 + Math.floor(k / 5) * 14;
        places.set(id, { x: cx, y: cy });
        ug.appendChild(s('g', { class: `cell unit${ust.target ? ' target' : ''}${ust.last ? ' last' : ''}`, 'data-cell': id, 'data-anim-id': id, 'data-info': info, transform: `translate(${cx},${cy})${ex ? ' rotate(90)' : ''}` },
          s('title', info),
          ...(picked ? [s('circle', { class: 'chosen', r: 9.5, fill: 'none', stroke: '#d4a017', 'stroke-width': 2.5 })] : []),
          s('rect', { x: -6.5, y: -6.5, width: 13, height: 13, rx: emblem === 'hero' ? 6.5 : 2, fill: col.fill, stroke: ust.target ? 'var(--hi)' : '#1d1b19', 'stroke-width': ust.target ? 2.5 : 1, 'stroke-dasharray': ex ? '2 1' : 'none' }),
          emblemUse(emblem, 0, 0, 11.5, col.ink),
          ...cellMarks(ust, 0, 0, 7, { occupied: true })));
      });
      if (here.length) {
        const ex = here.filter((u) => get(u, 'exhausted') === true).length;
        g.appendChild(s('text', { x: x + R * 0.62, y: y - R * 0.12, 'text-anchor': 'end', 'font-size': 7, fill: '#3b2a1a' }, `${here.length - ex}R${ex ? ` ${ex}Ex` : ''}`));
      }
      if (st.last) g.insertBefore(s('polygon', { class: 'last-tint', points: hexPts(x, y, R * 0.98), fill: PALETTE.last, 'fill-opacity': 0.3, 'pointer-events': 'none' }), g.childNodes[2] ?? null);
      g.append(...cellMarks(st, x + R * 0.5, y - R * 0.35, 7, { tinted: true }));
      layer.push(g);
      top.push(ug);
    });
    const maxX = Math.max(...AREAS.map((a) => pos(a).x)) + R * 1.3;
    const maxY = Math.max(...AREAS.map((a) => pos(a).y)) + R * 1.3;
    const board = s('svg', { class: 'board', viewBox: `0 0 ${maxX.toFixed(0)} ${maxY.toFixed(0)}`, role: 'img', 'aria-label': 'Syba map' }, s('g', layer), s('g', top));
    // A unit that moved to another area slides there from where it stood.
    animateByIdentity(board, ctx, places);

    // Panels: players, pending decisions, last battle.
    const players = asArray(get(state, 'players'));
    const current = asNumber(get(state, 'current'));
    const cityCount = (seat: number) => owners.filter((o, i) => o === seat && destroyed[i] !== true).length;
    const panels: Element[] = [];
    panels.push(h('div.card', h('b', `Round ${asNumber(get(state, 'round'))} — phase ${asString(get(state, 'phase'))}`),
      h('table.kv', h('tr', h('th', 'Player'), h('th', 'Race'), h('th', 'Prod'), h('th', 'Food'), h('th', 'Research'), h('th', 'Cities'), h('th', 'Units')),
        players.map((p, i) => {
          const race = get(p, 'race');
          const col = playerColour(view, i);
          const res = asArray(get(p, 'resources'));
          return h('tr', { 'data-player': i },
            h('td', h('span.seat-chip', { style: `background:${col.fill}` }), `${ctx.seatNames[i] ?? `P${i + 1}`}${i === current ? ' ▶' : ''}${ctx.seat === i ? ' (you)' : ''}`),
            h('td', typeof race === 'number' ? RACES[race]?.name ?? '?' : '—'),
            h('td', String(asNumber(res[0]))), h('td', String(asNumber(res[1]))), h('td', String(asNumber(res[2]))),
            h('td', String(cityCount(i))), h('td', String(units.filter((u) => asNumber(get(u, 'owner')) === i).length)));
        }))));
    const own = get(view, 'own_start_city_texts');
    if (Array.isArray(own)) panels.push(h('div.card', h('b', 'Your starting city: '), h('div', `Start With: ${asString(own[0])}`), h('div', `Once per Game: ${asString(own[1])}`)));
    for (const p of asArray(get(state, 'stack'))) {
      const intercept = get(p, 'intercept');
      const battle = get(p, 'battle');
      const trade = get(p, 'trade');
      if (intercept) panels.push(h('div.card.banner.warn', `Interception: ${ctx.seatNames[asNumber(get(intercept, 'mover'))] ?? 'a player'} entered ${AREAS[asNumber(get(intercept, 'area'))]?.name ?? '?'}${unitList(get(intercept, 'units'), ' with ')}; deciding: ${asArray(get(intercept, 'queue')).map((q) => ctx.seatNames[asNumber(q)] ?? q).join(', ')}`));
      if (battle) panels.push(h('div.card.banner.warn', `Battle by ${ctx.seatNames[asNumber(get(battle, 'attacker'))] ?? '?'}${unitList(get(battle, 'entering'), ' on the entering army ')}: ${asArray(get(battle, 'attackers')).length} attacking unit(s), ${asArray(get(battle, 'defenders')).length} helping army(ies) on defence; still to decide: ${asArray(get(battle, 'queue')).map((q) => ctx.seatNames[asNumber(q)] ?? q).join(', ')}`));
      const select = get(p, 'select');
      if (select && selection) panels.push(h('div.card.banner.warn', `${ctx.seatNames[selection.seat] ?? `P${selection.seat + 1}`} chooses the units ${selection.moving ? '' : 'to Exhaust '}${selection.purpose}: ${selection.chosen.length ? selection.chosen.map((x) => `u${x}`).join(', ') : 'none yet'} (ringed). Click a unit to pick it or hold it back, then confirm or withdraw.`));
      if (trade) {
        const banner = h('div.card.banner', `Trade with ${ctx.seatNames[asNumber(get(trade, 'partner'))] ?? '?'}: gives ${bundle(get(trade, 'give'))}; asks ${bundle(get(trade, 'get'))}${get(trade, 'proposed') === true ? ' — proposed, waiting for the answer' : ' — being composed'}${tradeNote(trade)}`);
        const send = ctx.sendNotation;
        if (send && get(trade, 'proposed') !== true && ctx.seat === current) banner.append(noteEditor(asString(get(trade, 'note')), send));
        panels.push(banner);
      }
    }
    const lb = get(state, 'last_battle');
    if (lb && typeof lb === 'object') panels.push(h('div.card', `Last battle: attack ${asNumber(get(lb, 'attack'))} vs defence ${asNumber(get(lb, 'defence'))} — ${get(lb, 'success') === true ? 'won' : 'held'}${asNumber(get(lb, 'destroyed')) ? `, ${asNumber(get(lb, 'destroyed'))} unit(s) destroyed` : ''}`));
    panels.push(h('p.muted', 'Units: a spear is a Soldier (Power 1), a horse head a Knight (2), claws a Monster (3), a star on a round chip a hero. Exhausted units are turned sideways with a dashed edge and counted as "Ex". City badges show the city\'s type (hut Settlement, two houses Village, house and tower Town, walls Major City, castle Capital City) and its City Strength, in the owner\'s colour. Hover or tap a unit or a city for more. Click a unit then an area to move it; an area then another to move an army (then choose which units go: all start chosen, ringed); a target area to attack it (then choose the units: all in Reach start chosen, ringed).'));
    return { board, panels };
  },
};
