/**
 * The one way the panel makes DOM: `el(tag, props, ...children)`, where every string
 * child becomes a text node. Nothing in the panel assigns innerHTML, so a table name,
 * key or message from AWS or from code is always shown as text and never parsed.
 */
type Child = Node | string | number | null | undefined | false;
type Props = {
  class?: string;
  /** Attributes (aria-*, role, title, data-*, …), set with setAttribute. */
  attrs?: Record<string, string | number | boolean | null | undefined>;
  on?: Partial<Record<string, (e: Event) => void>>;
};

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props,
  ...children: Child[]
): HTMLElementTagNameMap[K];
export function el(tag: string, props?: Props, ...children: Child[]): HTMLElement;
export function el(tag: string, props: Props = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  if (props.class) node.className = props.class;
  for (const [k, v] of Object.entries(props.attrs ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    // href/src are never set from data: the panel has no links to follow, only buttons.
    if (/^(href|src|srcdoc|on)/i.test(k)) throw new Error(`refusing to set ${k}`);
    node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const [name, fn] of Object.entries(props.on ?? {})) if (fn) node.addEventListener(name, fn);
  append(node, ...children);
  return node;
}

export function append(node: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces a container's content. */
export function fill(node: Element, ...children: Child[]): void {
  node.replaceChildren();
  append(node, ...children);
}

export const fmt = (x: number | null | undefined, digits = 0): string =>
  x === null || x === undefined ? '—' : x.toLocaleString('en-US', { maximumFractionDigits: digits });

/** A vscode-button (from @vscode-elements) with a click handler. */
export function button(
  label: string,
  onClick: () => void,
  opts: { secondary?: boolean; id?: string; title?: string } = {},
) {
  return el(
    'vscode-button',
    { attrs: { secondary: opts.secondary, id: opts.id, title: opts.title }, on: { click: onClick } },
    label,
  );
}
