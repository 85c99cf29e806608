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
import { LEGENDS, SYBA_TRADE_NOTE_MAX } from '../wire/legends';
import { animateByIdentity, cellMarks, cellState } from './board';
import type { Renderer, RenderContext } from './types';
import type { Bundle } from '../wire/syba/Bundle';
import type { Syba } from '../wire/syba/Syba';
import type { SybaView } from '../wire/syba/SybaView';
import type { UnitKind } from '../wire/syba/UnitKind';

interface Area { id: string; name: string; code: string; pos: number[]; city?: string }
const AREAS: Area[] = (mapData as unknown as { areas: Area[] }).areas;
const LINKS: string[][] = (mapData as unknown as { links: string[][] }).links;
const CITIES: { name: string; level: string }[] = (citiesData as unknown as { cities: { name: string; level: string }[] }).cities;
const RACES: { name: string; colour: string; soldier: string; knight: string; monster: string }[] = (racesData as unknown as { races: never[] }).races;
const HEROES: { name: string }[] = (heroesData as unknown as { heroes: never[] }).heroes;
/** The engine's legend: each chip unit's and hero's Power ("Power 2"), each city level's name and City
 * Strength ("Major City, City Strength 4 (gives 4 resources)"). */
const LEGEND = LEGENDS.syba ?? {};
const RACE_FILL: Record<string, string> = { blue: '#2f6db5', red: '#b3261e', orange: '#e07b16', green: '#2e8b3e', white: '#f4f1ea', black: '#26231f' };

const R = 46;
const pos = (a: Area) => ({ x: R * Math.sqrt(3) * (a.pos[0] + 0.5 * (a.pos[1] & 1)) + R * 1.2, y: R * 1.5 * a.pos[1] + R * 1.2 });

function hexPts(x: number, y: number, r: number): string {
  return Array.from({ length: 6 }, (_, k) => {
    const a = (Math.PI / 180) * (60 * k - 30);
    return `${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`;
  }).join(' ');
}

/** A seat's race, once chosen. */
function raceOf(view: SybaView, seat: number): number | null {
  return view.state.players[seat]?.race ?? null;
}

function playerColour(view: SybaView, seat: number): { fill: string; ink: string } {
  const race = raceOf(view, seat);
  const colour = race === null ? undefined : RACES[race]?.colour;
  if (colour && RACE_FILL[colour]) return { fill: RACE_FILL[colour], ink: colour === 'white' || colour === 'orange' ? '#1d1b19' : '#fff' };
  return { fill: seatColour(seat), ink: seatInk(seat) };
}

/** The pending unit selection, if any: who chooses, for what, whether the chosen units move (an army
 * move) or are Exhausted (attack, interception, help), and the chosen unit ids. */
export function selectionOf(state: Pick<Syba, 'stack'>): { seat: number; purpose: string; moving: boolean; chosen: number[] } | null {
  const top = state.stack[state.stack.length - 1];
  if (!top || !('select' in top)) return null;
  const sel = top.select;
  const purpose = sel.purpose;
  let what = 'to help the attack';
  let moving = false;
  if (typeof purpose === 'object') {
    if ('move' in purpose) {
      moving = true;
      what = `to move together from ${AREAS[purpose.move.from]?.name ?? '?'} to ${AREAS[purpose.move.to]?.name ?? '?'}`;
    } else if ('attack' in purpose) {
      const target = purpose.attack;
      if ('army' in target) what = `to attack P${target.army.owner + 1}'s army in ${AREAS[target.army.area]?.name ?? '?'}`;
      else what = `to attack ${CITIES[target.city]?.name ?? '?'}`;
    } else {
      what = `to intercept P${purpose.intercept.mover + 1}'s army entering ${AREAS[purpose.intercept.area]?.name ?? '?'}`;
    }
  }
  return { seat: sel.seat, purpose: what, moving, chosen: [...sel.chosen] };
}

const LEVEL_EMBLEM: Record<string, string> = { settlement: 'settlement', village: 'village', town: 'citytown', major: 'major', capital: 'citycapital' };

/** A unit's emblem, its name (the race's own name for the chip, or the hero's) and its type in words. */
function unitLabel(kind: UnitKind, race: number | null): { emblem: string; name: string; type: string } {
  if (typeof kind === 'string') {
    const r = race === null ? undefined : RACES[race];
    const own = r ? (r as unknown as Record<string, unknown>)[kind] : undefined;
    const type = kind.charAt(0).toUpperCase() + kind.slice(1);
    const words = LEGEND[kind];
    return { emblem: kind, name: typeof own === 'string' && own ? own : type, type: `${type}${words ? `, ${words}` : ''}` };
  }
  const hero = kind.hero;
  const hd = HEROES[hero];
  const words = hd ? LEGEND[hd.name] : undefined;
  return { emblem: 'hero', name: hd?.name ?? `hero ${hero}`, type: `Hero${words ? `, ${words}` : ''}` };
}

/** A unit in the rule book's words, for its tooltip and tap. */
export function unitInfo(id: string, name: string, type: string, owner: string, exhausted: boolean, picked: boolean): string {
  const state = exhausted
    ? 'Exhausted (used this turn; Rest it with 1 Food)'
    : 'Rested (may be Exhausted to move again, attack or use a hero action)';
  return `${id}: ${name} (${type}) of ${owner}, ${state}${picked ? '; chosen' : ''}`;
}

/** A city in the rule book's words: its type with its City Strength and the resources it gives (the
 * engine's legend), its strength with its buildings when it has any (`built`: the view's current
 * strength), and its owner. */
export function cityInfo(city: string, level: string, built: number | null, owner: string | null, destroyed: boolean): string {
  const withBuildings = built === null ? '' : `; with its buildings City Strength ${built}`;
  return `${city}: ${LEGEND[level] ?? level}${withBuildings}${owner ? `, owned by ${owner}` : ', unowned'}${destroyed ? ', destroyed' : ''}`;
}

/** A trade bundle in words: `2 production, u17, Kaul`. */
export function bundle(b: Bundle): string {
  const names = ['production', 'food', 'research'];
  const parts: string[] = [];
  b.resources.forEach((n, i) => {
    if (n > 0) parts.push(`${n} ${names[i] ?? '?'}`);
  });
  for (const u of b.units) parts.push(`u${u}`);
  for (const c of b.cities) parts.push(CITIES[c]?.name ?? `city ${c}`);
  return parts.length ? parts.join(', ') : 'nothing';
}

/** The most characters a trade note may have: the engine's limit, generated into the wire. */
export const TRADE_NOTE_MAX = SYBA_TRADE_NOTE_MAX;

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
export function unitList(ids: readonly number[] | undefined, lead: string): string {
  const v = (ids ?? []).map((x) => `u${x}`);
  return v.length ? `${lead}${v.join(', ')}` : '';
}

/** A trade proposal's note of non-binding promises, as shown after the trade (empty when none). */
export function tradeNote(trade: { note?: string }): string {
  const note = trade.note;
  return note ? `. Promises (not binding): “${note}”` : '';
}

/** Where the game stands before (and after) the rounds, in words. */
const SYBA_PHASE: Record<string, string> = {
  starting_player: 'Drawing who goes first', race: 'Choosing races', city: 'Choosing starting cities', over: 'Game over',
};

export const sybaRenderer: Renderer<SybaView> = {
  // An army move or an attack opens a selection with every unit that can go chosen: all of them go.
  followUp(view, legal, seat) {
    const sel = selectionOf(view.state);
    return sel && sel.seat === seat ? legal.find((a) => a.notation === 'confirm') ?? null : null;
  },
  otherWays: 'The next move or attack you click opens the choice of the units that go (to hold some back) instead of sending them all',
  seatColour(view, seat) {
    return raceOf(view, seat) === null ? null : playerColour(view, seat).fill;
  },
  render(ctx: RenderContext<SybaView>) {
    const view = ctx.view;
    const state = view.state;
    const targets = ctx.selection.targets();
    const owners = state.city_owner;
    const destroyed = state.city_destroyed;
    const layer: SVGElement[] = [];
    const byId = new Map(AREAS.map((a) => [a.id, a]));
    for (const [a, b] of LINKS) {
      const pa = byId.get(a), pb = byId.get(b);
      if (!pa || !pb) continue;
      const A = pos(pa), B = pos(pb);
      layer.push(s('line', { x1: A.x, y1: A.y, x2: B.x, y2: B.y, stroke: '#b8a88a', 'stroke-width': 3, 'stroke-dasharray': '2 4' }));
    }
    const units = state.units;
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
      // The city's current strength (its level and its buildings), as the engine counts it.
      const strength = cityIdx >= 0 ? view.city_strength[cityIdx] : undefined;
      const built = cityIdx >= 0 && state.cards.some((c) => typeof c === 'object' && 'building' in c && c.building === cityIdx);
      const g = s('g', { class: `cell area${st.target ? ' target' : ''}`, 'data-cell': area.id },
        s('title', `${area.name}${cityIdx >= 0 ? ` — ${level} (strength ${strength ?? '?'})${typeof owner === 'number' ? `, owned by ${ctx.seatNames[owner] ?? `P${owner + 1}`}` : ', unowned'}${gone ? ', destroyed' : ''}` : ''}`),
        s('polygon', { points: hexPts(x, y, R * 0.98), fill: cityIdx >= 0 && !gone ? PALETTE.light : PALETTE.neutral, stroke: st.target ? 'var(--hi)' : PALETTE.line, 'stroke-width': st.target ? 4 : 1.2 }),
        s('text', { x, y: y - R * 0.55, 'text-anchor': 'middle', 'font-size': 9, 'font-weight': 700, fill: '#3b2a1a' }, area.name.length > 14 ? area.code : area.name));
      if (cityIdx >= 0 && !gone) {
        const oc = typeof owner === 'number' ? playerColour(view, owner) : { fill: '#fff', ink: '#333' };
        const info = cityInfo(area.city ?? area.name, level, built ? strength ?? null : null, typeof owner === 'number' ? ctx.seatNames[owner] ?? `P${owner + 1}` : null, false);
        g.appendChild(s('g', { class: 'city-badge', transform: `translate(${x - R * 0.7},${y - R * 0.36})`, 'data-info': info },
          s('title', info),
          s('rect', { width: 30, height: 16, rx: 3, fill: oc.fill, stroke: '#3b2a1a' }),
          emblemUse(LEVEL_EMBLEM[level] ?? 'settlement', 8.5, 8, 13, oc.ink),
          s('text', { x: 22.5, y: 12.5, 'text-anchor': 'middle', 'font-size': 11, 'font-weight': 700, fill: oc.ink }, `${strength ?? '?'}`)));
      }
      // Units in this area, each a chip (a hero is round), drawn above every area.
      const here = units.filter((u) => u.area === ai);
      const ug = s('g');
      here.forEach((u, k) => {
        const id = `u${u.id}`;
        const ust = cellState(ctx, id, targets);
        const o = u.owner;
        const col = playerColour(view, o);
        const ex = u.exhausted;
        const picked = chosen.has(u.id);
        const { emblem, name, type } = unitLabel(u.kind, raceOf(view, o));
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
        const ex = here.filter((u) => u.exhausted).length;
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
    const players = state.players;
    const current = state.current;
    const cityCount = (seat: number) => owners.filter((o, i) => o === seat && destroyed[i] !== true).length;
    const panels: Element[] = [];
    panels.push(h('div.card', h('b', { 'data-testid': 'syba-round' }, state.phase === 'play' ? `Round ${state.round}` : SYBA_PHASE[state.phase] ?? ''),
      h('table.kv', h('tr', h('th', 'Player'), h('th', 'Race'), h('th', 'Prod'), h('th', 'Food'), h('th', 'Research'), h('th', 'Cities'), h('th', 'Units')),
        players.map((p, i) => {
          const race = p.race;
          const col = playerColour(view, i);
          const res = p.resources;
          return h('tr', { 'data-player': i },
            h('td', h('span.seat-chip', { style: `background:${col.fill}` }), `${ctx.seatNames[i] ?? `P${i + 1}`}${i === current ? ' ▶' : ''}${ctx.seat === i ? ' (you)' : ''}`),
            h('td', race === null ? '—' : RACES[race]?.name ?? '?'),
            h('td', String(res[0])), h('td', String(res[1])), h('td', String(res[2])),
            h('td', String(cityCount(i))), h('td', String(units.filter((u) => u.owner === i).length)));
        }))));
    const own = view.own_start_city_texts;
    if (own) panels.push(h('div.card', h('b', 'Your starting city: '), h('div', `Start With: ${own[0]}`), h('div', `Once per Game: ${own[1]}`)));
    for (const p of state.stack) {
      if ('intercept' in p) {
        const intercept = p.intercept;
        panels.push(h('div.card.banner.warn', `Interception: ${ctx.seatNames[intercept.mover] ?? 'a player'} entered ${AREAS[intercept.area]?.name ?? '?'}${unitList(intercept.units, ' with ')}; deciding: ${intercept.queue.map((q) => ctx.seatNames[q] ?? q).join(', ')}`));
      }
      if ('battle' in p) {
        const battle = p.battle;
        panels.push(h('div.card.banner.warn', `Battle by ${ctx.seatNames[battle.attacker] ?? '?'}${unitList(battle.entering, ' on the entering army ')}: ${battle.attackers.length} attacking unit(s), ${battle.defenders.length} helping army(ies) on defence; still to decide: ${battle.queue.map((q) => ctx.seatNames[q] ?? q).join(', ')}`));
      }
      if ('select' in p && selection) panels.push(h('div.card.banner.warn', `${ctx.seatNames[selection.seat] ?? `P${selection.seat + 1}`} chooses the units ${selection.moving ? '' : 'to Exhaust '}${selection.purpose}: ${selection.chosen.length ? selection.chosen.map((x) => `u${x}`).join(', ') : 'none yet'} (ringed). Click a unit to pick it or hold it back, then confirm or withdraw.`));
      if ('trade' in p) {
        const trade = p.trade;
        const banner = h('div.card.banner', `Trade with ${ctx.seatNames[trade.partner] ?? '?'}: gives ${bundle(trade.give)}; asks ${bundle(trade.get)}${trade.proposed ? ' — proposed, waiting for the answer' : ' — being composed'}${tradeNote(trade)}`);
        const send = ctx.sendNotation;
        if (send && !trade.proposed && ctx.seat === current) banner.append(noteEditor(trade.note, send));
        panels.push(banner);
      }
    }
    const lb = state.last_battle;
    if (lb) panels.push(h('div.card', `Last battle: attack ${lb.attack} vs defence ${lb.defence} — ${lb.success ? 'won' : 'held'}${lb.destroyed ? `, ${lb.destroyed} unit(s) destroyed` : ''}`));
    panels.push(h('p.muted', 'Units: a spear is a Soldier (Power 1), a horse head a Knight (2), claws a Monster (3), a star on a round chip a hero. Exhausted units are turned sideways with a dashed edge and counted as "Ex". City badges show the city\'s type (hut Settlement, two houses Village, house and tower Town, walls Major City, castle Capital City) and its City Strength, in the owner\'s colour. Hover or tap a unit or a city for more. Click a unit then an area to move it; an area then another to move an army (then choose which units go: all start chosen, ringed); a target area to attack it (then choose the units: all in Reach start chosen, ringed).'));
    return { board, panels };
  },
};
