// A tiny DOM builder: h('div.class', {attrs}, children).

type Child = Node | string | number | null | undefined | false | Child[];
export type Attrs = Record<string, unknown>;

const SVG_NS = 'http://www.w3.org/2000/svg';

function append(el: Element, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child) append(el, c);
  } else if (child instanceof Node) {
    el.appendChild(child);
  } else {
    el.appendChild(document.createTextNode(String(child)));
  }
}

function applyAttrs(el: Element, attrs: Attrs | undefined): void {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2).toLowerCase(), v as EventListener);
    } else if (k === 'class' && Array.isArray(v)) {
      el.setAttribute('class', v.filter(Boolean).join(' '));
    } else if (k === 'value' && el instanceof HTMLInputElement) {
      el.value = String(v);
    } else if (k === 'checked' && el instanceof HTMLInputElement) {
      el.checked = Boolean(v);
    } else if (k === 'style' && (el instanceof HTMLElement || el instanceof SVGElement)) {
      // Through the CSSOM, not a `style` attribute: the server's Content-Security-Policy allows
      // styles from its own stylesheets only (no inline `style="…"`), and the CSSOM is not inline.
      el.style.cssText = String(v);
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
}

function parseTag(tag: string): { name: string; classes: string[]; id?: string } {
  const [head, ...classes] = tag.split('.');
  const [name, id] = head.split('#');
  return { name: name || 'div', classes, id };
}

function isAttrs(x: unknown): x is Attrs {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && !(x instanceof Node);
}

/** An HTML element. */
export function h(tag: string, attrs?: Attrs | Child, ...children: Child[]): HTMLElement {
  const { name, classes, id } = parseTag(tag);
  const el = document.createElement(name);
  if (classes.length) el.className = classes.join(' ');
  if (id) el.id = id;
  if (isAttrs(attrs)) applyAttrs(el, attrs);
  else append(el, attrs as Child);
  append(el, children);
  return el;
}

/** An SVG element. */
export function s(tag: string, attrs?: Attrs | Child, ...children: Child[]): SVGElement {
  const { name, classes } = parseTag(tag);
  const el = document.createElementNS(SVG_NS, name) as SVGElement;
  if (classes.length) el.setAttribute('class', classes.join(' '));
  if (isAttrs(attrs)) applyAttrs(el, attrs);
  else append(el, attrs as Child);
  append(el, children);
  return el;
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}
