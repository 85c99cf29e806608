// Modal dialogs (the native <dialog>), resolving with the chosen button's value.

import { h } from './dom';

export function showDialog(
  title: string,
  body: Node | string,
  buttons: { label: string; value: string; primary?: boolean }[],
): Promise<string> {
  return new Promise((resolve) => {
    const dlg = h('dialog') as HTMLDialogElement;
    const done = (v: string) => {
      dlg.close();
      dlg.remove();
      resolve(v);
    };
    dlg.append(
      h('h2', title),
      typeof body === 'string' ? h('p', body) : body,
      h('div.row', buttons.map((b) => h(b.primary ? 'button.primary' : 'button', { 'data-value': b.value, onclick: () => done(b.value) }, b.label))),
    );
    dlg.addEventListener('cancel', () => done('cancel'));
    document.body.appendChild(dlg);
    dlg.showModal();
  });
}
