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

/** Goes to `path` in the page. A new page opens at its top (a phone would otherwise keep the previous
 * page's scroll, e.g. the lobby's Create button near its bottom, and open the game scrolled down). */
export function navigate(path: string): void {
  const moved = location.pathname !== path;
  if (moved) history.pushState(null, '', path);
  handler(path);
  if (moved) window.scrollTo(0, 0);
}
