// The lobby's views: a game's card (with its form), the lists of open and live games, the import.
// Each draws from the controller and calls its actions; inputs the player types into are made once
// and only the parts around them redrawn.

import { label, type OptionSpec } from '../../logic/options';
import { shownRating } from '../../logic/chart';
import { clear, h } from '../../ui/dom';
import type { CatalogGame } from '../../wire/server/CatalogGame';
import type { LobbyGame } from '../../wire/server/LobbyGame';
import type { LobbySeat } from '../../wire/server/LobbySeat';
import type { LobbyCtrl } from './ctrl';
import { AI_LEVELS, CLOCK_LABELS, CLOCKS, type GameForm, type SeatChoice } from './form';

/** A part of the page drawn once, then redrawn in place. */
export interface Drawn {
  el: HTMLElement;
  draw(): void;
}

/** A game's card: Play vs AI at a level, the form, How to play, Rules; the last create's error. */
export function cardView(ctrl: LobbyCtrl, g: CatalogGame): Drawn & { form(): FormView | null } {
  const card = h('div.card.game-card', { 'data-game': g.id });
  const formHost = h('div');
  const state = ctrl.card(g.id);
  const levelSel = h('select', { 'data-testid': `ai-level-${g.id}`, 'aria-label': 'AI level', title: 'The AI\'s strength' },
    AI_LEVELS.map(([lvl, name]) => h('option', { value: String(lvl), selected: lvl === state.level }, `Level ${lvl} — ${name}`))) as HTMLSelectElement;
  levelSel.addEventListener('change', () => ctrl.setLevel(g.id, Number(levelSel.value)));
  // The time control of a quick game against the AI (no clock at first).
  const clockSel = h('select', { 'data-testid': `ai-clock-${g.id}`, 'aria-label': 'Clock', title: 'The time control' },
    Object.keys(CLOCKS).map((k) => h('option', { value: k, selected: k === state.clock }, CLOCK_LABELS[k]))) as HTMLSelectElement;
  clockSel.addEventListener('change', () => ctrl.setClock(g.id, clockSel.value));
  card.append(
    h('h3', g.name),
    h('p.muted.blurb', { 'data-testid': `blurb-${g.id}` }, g.description),
    h('div.quick',
      h('button.primary', { 'data-testid': `play-ai-${g.id}`, onclick: () => void ctrl.quickStart(g) }, 'Play vs AI'),
      levelSel,
      clockSel,
    ),
    h(
      'div.row.more',
      h('button', { 'data-testid': `options-${g.id}`, onclick: () => ctrl.toggleForm(g) }, 'Options & friends…'),
      h('a', { href: `/learn/${g.id}`, 'data-link': '', 'data-testid': `how-to-play-${g.id}` }, 'How to play'),
      h('a', { href: `/rules/${g.id}`, 'data-link': '' }, 'Rules'),
    ),
    formHost,
  );
  let shown: { form: GameForm; view: FormView } | null = null;
  let error: HTMLElement | null = null;
  return {
    el: card,
    form: () => shown?.view ?? null,
    draw() {
      const c = ctrl.card(g.id);
      if (c.form !== shown?.form) {
        clear(formHost);
        shown = c.form ? { form: c.form, view: formView(c.form) } : null;
        if (shown) formHost.append(shown.view.el);
      }
      card.classList.toggle('open', shown !== null);
      error?.remove();
      error = c.error ? h('p.error', { 'data-testid': 'create-error' }, c.error.text) : null;
      if (error) (c.error?.inForm ? formHost : card).appendChild(error);
    },
  };
}

/** A game's form, its seats and its status (error line, rated part) redrawn apart. */
export interface FormView {
  el: HTMLElement;
  drawSeats(): void;
  drawStatus(): void;
}

function formView(form: GameForm): FormView {
  const g = form.game;
  const errors = h('div.error');
  const seatsBox = h('div');
  const clockSel = h('select', { name: 'clock', onchange: () => { form.clock = clockSel.value; } },
    Object.keys(CLOCKS).map((k) => h('option', { value: k, selected: k === form.clock }, CLOCK_LABELS[k]))) as HTMLSelectElement;
  const publicBox = h('input', { type: 'checkbox', checked: form.isPublic, onchange: () => { form.isPublic = publicBox.checked; } }) as HTMLInputElement;
  // Rated: only for a signed-in creator with one seat, the others for people (the box says why not).
  const ratedBox = h('input', { type: 'checkbox', name: 'rated', 'data-testid': 'rated', onchange: () => form.setRated(ratedBox.checked) }) as HTMLInputElement;
  const ratedWhy = h('small', { 'data-testid': 'rated-why' });
  const range = (name: string, set: (v: string) => void) =>
    h('input', { type: 'number', name, placeholder: 'any', step: 50, min: 0, max: 5000, size: 6, oninput: (e: Event) => set((e.target as HTMLInputElement).value) });
  const rangeRow = h('label.range', 'Opponents rated from ', range('rating_min', (v) => { form.rangeMin = v; }), ' to ',
    range('rating_max', (v) => { form.rangeMax = v; }), h('small', 'Optional: who may join this rated game.'));

  const drawStatus = () => {
    const why = form.ratedBlock();
    ratedBox.disabled = why !== null;
    ratedBox.checked = form.isRated();
    ratedWhy.textContent = why ?? 'Ratings change when the game ends; every seat is a signed-in player.';
    rangeRow.hidden = !ratedBox.checked;
    errors.textContent = form.error;
  };
  const drawSeats = () => {
    clear(seatsBox);
    seatsBox.appendChild(h('h4', 'Seats'));
    seatsBox.appendChild(h('p.muted', 'Choose "Me (this device)" for several seats to play hot-seat: the players take turns at this device, which asks to be passed on before it shows hidden cards or setups.'));
    form.seatNames.forEach((name, i) => {
      const sel = h(
        'select',
        { 'data-seat': i, onchange: (e: Event) => form.setSeat(i, (e.target as HTMLSelectElement).value as SeatChoice) },
        h('option', { value: 'me' }, 'Me (this device)'),
        h('option', { value: 'friend' }, 'A friend (by link)'),
        h('option', { value: 'open' }, 'Anyone (open seat in the lobby)'),
        AI_LEVELS.map(([lvl, lname]) => h('option', { value: `ai${lvl}` }, `AI level ${lvl} — ${lname}`)),
      ) as HTMLSelectElement;
      sel.value = form.seatChoices[i] ?? 'ai3';
      seatsBox.appendChild(h('label', `${name}: `, sel));
    });
    drawStatus();
  };

  const el = h('div.card',
    g.options.length ? h('h4', 'Options') : h('p.muted', 'This game has no options.'),
    g.options.map((spec) => optionInput(spec, form)),
    seatsBox,
    h('label', 'Clock: ', clockSel),
    h('label', publicBox, ' List in the lobby (others may watch or join open seats)'),
    h('label', ratedBox, ' Rated', ratedWhy),
    rangeRow,
    errors,
    h('button.primary', { onclick: () => form.submit() }, 'Create game'),
  );
  drawSeats();
  return { el, drawSeats, drawStatus };
}

function optionInput(spec: OptionSpec, form: GameForm): HTMLElement {
  const set = (raw: string | boolean) => void form.setOption(spec, raw);
  const value = form.values[spec.name];
  let input: HTMLElement;
  if (spec.type === 'bool') {
    input = h('input', { type: 'checkbox', name: spec.name, checked: value === true, onchange: (e: Event) => set((e.target as HTMLInputElement).checked) });
  } else if (spec.type === 'int') {
    input = h('input', { type: 'number', name: spec.name, min: spec.min, max: spec.max, value, onchange: (e: Event) => set((e.target as HTMLInputElement).value) });
  } else {
    const sel = h('select', { name: spec.name, onchange: (e: Event) => set((e.target as HTMLSelectElement).value) }, spec.values.map((v) => h('option', { value: v }, v.replace(/_/g, ' ')))) as HTMLSelectElement;
    sel.value = String(value);
    input = sel;
  }
  return h('label', `${label(spec.name)} `, input, h('small', spec.description));
}

/** The open games (with a Join button per open seat), the live ones (Watch), Refresh; or the error. */
export function listsView(ctrl: LobbyCtrl): HTMLElement[] {
  const data = ctrl.lists;
  if (!data) {
    return ctrl.listsError
      ? [h('h2', 'Open and live games'), h('p.error', ctrl.listsError)]
      : [h('h2', 'Open and live games'), h('p.muted', 'Loading…')];
  }
  return [
    h('h2', 'Open games'),
    data.open.length
      ? h('ul', data.open.map((g) => h('li', { 'data-id': g.id }, lobbyLine(g),
          g.seats.filter((s) => s.kind === 'human' && s.open === true && !s.joined).map((s) =>
            h('button', { onclick: () => void ctrl.claim(g.id, s.seat) }, `Join as ${s.name}`)))))
      : h('p.muted', 'No open games. Create one above and choose "Anyone" for a seat.'),
    h('h2', 'Live games'),
    data.live.length
      ? h('ul', data.live.map((g) => h('li', { 'data-id': g.id }, lobbyLine(g), ' ', h('a', { href: `/watch/${g.id}`, 'data-link': '' }, 'Watch'))))
      : h('p.muted', 'No live public games right now.'),
    h('button', { onclick: () => void ctrl.refreshLists() }, 'Refresh'),
    ...ctrl.joinErrors.map((e) => h('p.error', e)),
  ];
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

/** Import a record: the file input (made once) and the refusal's line. */
export function importView(ctrl: LobbyCtrl): Drawn {
  const msg = h('p');
  const file = h('input', {
    type: 'file',
    accept: 'application/json,.json',
    'data-testid': 'import-file',
    onchange: async (e: Event) => {
      const f = (e.target as HTMLInputElement).files?.[0];
      if (f) await ctrl.importRecord(await f.text());
    },
  });
  return {
    el: h('section.card', h('h2', 'Import a record'), h('p.muted', 'Open a game record (JSON) to replay it.'), file, msg),
    draw() {
      if (!ctrl.importError) return;
      msg.className = 'error';
      msg.textContent = ctrl.importError;
    },
  };
}
