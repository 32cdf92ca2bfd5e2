import type { CSSProperties } from 'react';
import type { HighlightToken } from './highlight.ts';

// A highlighted token's colours as a class rather than a style of its own: thousands of spans with
// inline custom properties each get a computed style of their own, while spans of one class share
// theirs, so a card of code mounts with far less style work. Each distinct set of colours becomes
// one rule (`.tk3{--shiki-light:#cf222e;--shiki-dark:#ff7b72}`) in a style sheet of the page.

const NAME = /^--[\w-]+$/;
const VALUE = /^[#\w\s().,%-]+$/;

const classes = new Map<string, string>();
let sheet: CSSStyleSheet | null = null;

function rules(): CSSStyleSheet | null {
  if (sheet || typeof document === 'undefined') return sheet;
  const element = document.createElement('style');
  element.dataset['tokens'] = '';
  document.head.append(element);
  sheet = element.sheet;
  return sheet;
}

/** How a token's span is coloured: a shared class when its colours can be one, else its own style. */
export function tokenLook(token: HighlightToken): { className?: string; style?: CSSProperties } {
  const style = token.htmlStyle;
  if (!style) return {};
  const entries = Object.entries(style).sort(([a], [b]) => (a < b ? -1 : 1));
  const key = entries.map(([name, value]) => `${name}:${value}`).join(';');
  const known = classes.get(key);
  if (known) return { className: known };
  const target = rules();
  if (!target || !entries.every(([name, value]) => NAME.test(name) && VALUE.test(value)))
    return { style: style as CSSProperties };
  const className = `tk${classes.size}`;
  try {
    target.insertRule(`.${className}{${key}}`, target.cssRules.length);
  } catch {
    return { style: style as CSSProperties };
  }
  classes.set(key, className);
  return { className };
}
