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
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
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
