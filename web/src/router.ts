// A minimal history router: links marked data-link navigate without reloading.

type Handler = (path: string) => void;
let handler: Handler = () => {};

export function onRoute(h: Handler): void {
  handler = h;
  window.addEventListener('popstate', () => handler(location.pathname));
  document.addEventListener('click', (e) => {
    const a = (e.target as Element | null)?.closest?.('a[data-link]');
    if (a instanceof HTMLAnchorElement && a.origin === location.origin && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      navigate(a.pathname);
    }
  });
}

export function navigate(path: string): void {
  if (location.pathname !== path) history.pushState(null, '', path);
  handler(path);
}
