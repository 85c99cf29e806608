// The hidden-setup editor (Cyvasse): the draft's starting point, the swap mode, Ready, the server's
// reasons for refusing the last setup sent, and the listed setups to start from.

import { setupLabel } from '../../../logic/setup';
import { h } from '../../../ui/dom';
import type { GameCtrl } from '../ctrl';

export function setupView(ctrl: GameCtrl): Node[] {
  const ed = ctrl.setup;
  const model = ctrl.model;
  if (!ed.codec || !model) return [];
  const modeButton = (mode: 'pieces' | 'terrain') =>
    h(ed.mode === mode ? 'button.primary' : 'button', { onclick: () => { ed.setMode(mode); ctrl.redraw(); } }, mode);
  return [
    h('div', { 'data-testid': 'setup-editor' },
      h('p', h('b', 'Your hidden setup. '), 'Click a cell of your half, then another, to swap what they hold. Your opponent cannot see it; theirs stays covered until both are ready.'),
      ed.codec.terrain ? h('div.row', 'Swap: ', modeButton('pieces'), modeButton('terrain')) : null,
      h('p.muted', `Starting point: ${ed.source}`),
      h('div.row', h('button.primary', {
        'data-notation': 'ready', 'data-testid': 'setup-ready',
        onclick: () => ctrl.sendSetup(),
        disabled: ctrl.sent.pending,
      }, 'Ready — commit this setup')),
      ed.error ? h('div.banner.warn', { 'data-testid': 'setup-error', 'data-stale': ed.stale ? '1' : '0', role: 'alert' },
        h('b', ed.stale ? 'The server refused the setup you sent before these changes:' : 'The server refused this setup:'),
        h('ul', ed.error.map((r) => h('li', r))),
        h('div', ed.stale ? 'Press Ready to send the changed setup.' : 'Swap pieces or terrain to fix it, then press Ready again.')) : null,
      h('p', h('b', 'Start from a listed setup (presets, random):'))),
    // Each listed setup's notation names where it comes from (a preset, a random setup): the buttons
    // say so (the full notation is the tooltip).
    h('div.actions', model.legal.map((a, i) =>
      h('button', { title: a.notation, 'data-testid': 'setup-listed', onclick: () => ctrl.pickSetup(a, i) }, setupLabel(a.notation, i)))),
  ];
}
