// Sign up, sign in, and the account's settings (change the password, sign out, delete the account).
// The server's own error messages are shown as they are (a taken name, a weak or wrong password, too
// many attempts).

import { changePassword, currentSession, deleteAccount, signIn, signOut } from '../account';
import { navigate } from '../router';
import { showDialog } from '../ui/dialog';
import { clear, h } from '../ui/dom';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The page a form sends the player to afterwards: `?next=/path` of this site, or My games. */
function nextPath(): string {
  const next = new URLSearchParams(location.search).get('next') ?? '';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/me';
}

/** `/signin` and `/signup`. */
export function signInPage(root: HTMLElement, create: boolean): void {
  clear(root);
  const name = h('input', { name: 'name', autocomplete: 'username', required: true, minlength: 3, maxlength: 20, pattern: '[A-Za-z0-9_\\-]{3,20}' }) as HTMLInputElement;
  const password = h('input', {
    name: 'password', type: 'password', required: true, minlength: create ? 8 : undefined, maxlength: 128,
    autocomplete: create ? 'new-password' : 'current-password',
  }) as HTMLInputElement;
  const error = h('p.error', { 'data-testid': 'account-error', role: 'alert' });
  const submit = h('button.primary', { type: 'submit' }, create ? 'Create account' : 'Sign in') as HTMLButtonElement;
  const form = h('form.account-form', { 'data-testid': create ? 'signup-form' : 'signin-form' },
    h('label', 'Name', name, create ? h('small', '3–20 letters, digits, - or _') : null),
    h('label', 'Password', password, create ? h('small', '8–128 characters, not your name') : null),
    error,
    submit,
  ) as HTMLFormElement;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    submit.disabled = true;
    try {
      await signIn(name.value.trim(), password.value, create);
      navigate(nextPath());
    } catch (err) {
      error.textContent = message(err);
      submit.disabled = false;
    }
  });
  const other = create
    ? h('p', 'Have an account? ', h('a', { href: '/signin', 'data-link': '' }, 'Sign in'))
    : h('p', 'No account? ', h('a', { href: '/signup', 'data-link': '' }, 'Create one'), ' — no e-mail needed.');
  root.append(h('section.card.narrow',
    h('h2', create ? 'Create an account' : 'Sign in'),
    h('p.muted', 'Accounts are optional: anyone can play without one. With an account your games follow you to every device, and you can play rated games.'),
    form,
    other,
  ));
  if (currentSession()) {
    form.before(h('p.banner', `You are signed in as ${currentSession()?.name}.`));
  }
  name.focus();
}

/** `/account`: the signed-in player's settings. */
export function settingsPage(root: HTMLElement): void {
  clear(root);
  const s = currentSession();
  if (!s) {
    root.append(h('section.card.narrow', h('h2', 'Account'), h('p', h('a', { href: '/signin?next=/account', 'data-link': '' }, 'Sign in'), ' to change your account.')));
    return;
  }
  const current = h('input', { type: 'password', name: 'current', autocomplete: 'current-password', required: true }) as HTMLInputElement;
  const next = h('input', { type: 'password', name: 'new', autocomplete: 'new-password', required: true, minlength: 8, maxlength: 128 }) as HTMLInputElement;
  const pwMsg = h('p', { 'data-testid': 'password-message', role: 'status' });
  const pwForm = h('form.account-form', { 'data-testid': 'password-form' },
    h('label', 'Current password', current),
    h('label', 'New password', next, h('small', '8–128 characters, not your name. Your other devices are signed out.')),
    pwMsg,
    h('button.primary', { type: 'submit' }, 'Change password'),
  ) as HTMLFormElement;
  pwForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    pwMsg.className = '';
    pwMsg.textContent = '';
    try {
      await changePassword(current.value, next.value);
      pwMsg.className = 'ok';
      pwMsg.textContent = 'Password changed.';
      pwForm.reset();
    } catch (err) {
      pwMsg.className = 'error';
      pwMsg.textContent = message(err);
    }
  });

  const delPassword = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true }) as HTMLInputElement;
  const delMsg = h('p.error', { 'data-testid': 'delete-message', role: 'alert' });
  const delForm = h('form.account-form', { 'data-testid': 'delete-form' },
    h('p.muted', 'Deleting the account deletes its ratings, its history and its sessions on every device. Its games stay; the seats this browser holds still play them. Your name becomes free for anyone.'),
    h('label', 'Password', delPassword),
    delMsg,
    h('button.danger', { type: 'submit' }, 'Delete account…'),
  ) as HTMLFormElement;
  delForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    delMsg.textContent = '';
    const sure = await showDialog('Delete your account?', `The account ${s.name} and its ratings are deleted for good.`, [
      { label: 'Delete', value: 'yes', primary: true },
      { label: 'Cancel', value: 'no' },
    ]);
    if (sure !== 'yes') return;
    try {
      await deleteAccount(delPassword.value);
      navigate('/');
    } catch (err) {
      delMsg.textContent = message(err);
    }
  });

  const outMsg = h('p.error');
  root.append(
    h('section.card.narrow',
      h('h2', 'Account'),
      h('p', 'Signed in as ', h('a', { href: `/@/${encodeURIComponent(s.name)}`, 'data-link': '' }, s.name), '.'),
      h('button', {
        'data-testid': 'sign-out',
        onclick: async () => {
          try {
            await signOut();
            navigate('/');
          } catch (err) {
            outMsg.textContent = message(err);
          }
        },
      }, 'Sign out'),
      outMsg,
    ),
    h('section.card.narrow', h('h3', 'Change password'), pwForm),
    h('section.card.narrow', h('h3', 'Delete account'), delForm),
  );
}
