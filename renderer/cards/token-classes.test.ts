// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { tokenLook } from './token-classes.ts';

// Highlighted tokens share one class per set of colours, its rule in the page's style sheet.

const rulesText = () =>
  [...document.querySelectorAll<HTMLStyleElement>('style[data-tokens]')].flatMap((element) =>
    [...(element.sheet?.cssRules ?? [])].map((rule) => rule.cssText),
  );

describe('token colours', () => {
  it('are one class for every token of the same colours, defined once', () => {
    const keyword = { '--shiki-light': '#cf222e', '--shiki-dark': '#ff7b72' };
    const first = tokenLook({ content: 'const', htmlStyle: keyword });
    const again = tokenLook({
      content: 'export',
      htmlStyle: { '--shiki-dark': '#ff7b72', '--shiki-light': '#cf222e' },
    });
    const other = tokenLook({ content: 'name', htmlStyle: { '--shiki-light': '#0550ae', '--shiki-dark': '#79c0ff' } });
    expect(first.className).toMatch(/^tk\d+$/);
    expect(again).toEqual(first);
    expect(other.className).not.toBe(first.className);
    const rules = rulesText();
    expect(
      rules.filter((rule) => rule.startsWith(`.${first.className} `) || rule.startsWith(`.${first.className}{`)),
    ).toHaveLength(1);
    expect(rules.join('\n')).toContain('#cf222e');
  });

  it('leave a token without colours plain, and one whose style is not a plain colour as its own style', () => {
    expect(tokenLook({ content: 'x' })).toEqual({});
    const odd = { '--shiki-light': 'url(x);}body{color:red' };
    expect(tokenLook({ content: 'x', htmlStyle: odd })).toEqual({ style: odd });
  });
});
