// A page of the client: mounted into the main element by the router, unmounted when the route changes
// (its sockets, timers and listeners go with it).

export interface Page {
  mount(root: HTMLElement): void;
  unmount(): void;
}

/** A page with nothing to tear down, drawn by `draw` (errors reported by `fail`). */
export function simplePage(draw: (root: HTMLElement) => Promise<void> | void, fail: (e: unknown) => void): Page {
  return {
    mount(root) {
      try {
        const done = draw(root);
        if (done instanceof Promise) done.catch(fail);
      } catch (e) {
        fail(e);
      }
    },
    unmount() {},
  };
}
