// Tiny DOM helpers. Text always goes in as textContent, never as markup, so a player's name
// like "<b>Ada</b>" is shown exactly as typed.

const SVG_NS = 'http://www.w3.org/2000/svg';

// h('button', {class: 'primary', onclick: f, dataset: {testid: 'x'}}, 'Label', child, ...)
export function h(tag, props = {}, ...children) {
  return fill(document.createElement(tag), props, children);
}

export function s(tag, props = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), props, children);
}

function fill(node, props, children) {
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) listen(node, key.slice(2), value);
    // Through the CSSOM: the page's Content-Security-Policy refuses style attributes (style-src).
    else if (key === 'style') node.style.cssText = String(value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Listeners are kept on the node as well, so that `morph` can hand a redrawn node's listeners
// to the node it keeps in its place.
const LISTENERS = Symbol('listeners');
function listen(node, type, handler) {
  node.addEventListener(type, handler);
  (node[LISTENERS] ??= []).push([type, handler]);
}

// Draws `fresh` (nodes just built) into `box` while keeping every node that is still there:
// an element of the same tag and test id takes the fresh one's attributes, listeners and
// children in place, so a button that has the focus keeps it when its part is drawn again
// (a countdown redraws the room's actions every second). Everything else is replaced.
export function morph(box, fresh) {
  const old = [...box.childNodes];
  let from = 0;
  const wanted = fresh.filter((node) => node !== null && node !== undefined && node !== false).map((item) => {
    const node = item instanceof Node ? item : document.createTextNode(String(item));
    for (let i = from; i < old.length; i += 1) {
      if (!sameKind(old[i], node)) continue;
      from = i + 1;
      const kept = old[i];
      old[i] = null;
      patch(kept, node);
      return kept;
    }
    return node;
  });
  for (const node of old) node?.remove();
  // What is left is kept, in order: the fresh nodes go in between without moving any of it.
  let next = box.firstChild;
  for (const node of wanted) {
    if (node === next) next = next.nextSibling;
    else box.insertBefore(node, next);
  }
  return box;
}

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  return a.namespaceURI === b.namespaceURI && a.tagName === b.tagName
    && (a.dataset?.testid ?? '') === (b.dataset?.testid ?? '');
}

function patch(kept, node) {
  if (kept.nodeType !== Node.ELEMENT_NODE) {
    if (kept.nodeValue !== node.nodeValue) kept.nodeValue = node.nodeValue;
    return;
  }
  for (const { name } of [...kept.attributes]) if (!node.hasAttribute(name)) kept.removeAttribute(name);
  for (const { name, value } of node.attributes) {
    if (kept.getAttribute(name) === value) continue;
    // Through the CSSOM: the Content-Security-Policy refuses style attributes.
    if (name === 'style') kept.style.cssText = node.style.cssText;
    else kept.setAttribute(name, value);
  }
  for (const [type, handler] of kept[LISTENERS] ?? []) kept.removeEventListener(type, handler);
  kept[LISTENERS] = [];
  for (const [type, handler] of node[LISTENERS] ?? []) listen(kept, type, handler);
  // A kept form control keeps what the person chose in it (a level picked, not yet confirmed).
  morph(kept, [...node.childNodes]);
}

export function clear(node) {
  node.replaceChildren();
  return node;
}

// A short-lived message in the page's message area (errors, notices).
export function toast(text, kind = 'error') {
  const area = document.getElementById('messages');
  const item = h('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status',
    dataset: { testid: kind === 'error' ? 'error' : 'notice' } }, text);
  area.append(item);
  setTimeout(() => item.remove(), kind === 'error' ? 6000 : 3500);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
