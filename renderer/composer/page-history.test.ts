import { describe, expect, it } from 'vitest';
import { dropPagePrompts, pageHistoryKey, pagePrompts, type PageStorage } from './page-history.ts';

// What an older version left in the page's storage: read within the history's bounds, a damaged
// entry read as none, and removed only when asked (after the host has saved what it held).

function storage(entries: Record<string, string>): PageStorage & { entries: Record<string, string> } {
  return {
    entries,
    getItem: (key) => entries[key] ?? null,
    removeItem: (key) => void delete entries[key],
  };
}

describe("an older version's prompts in the page's storage", () => {
  it('reads the workspace’s own, oldest first, without slash commands or what is not text', () => {
    const page = storage({
      [pageHistoryKey('/work/a')]: JSON.stringify(['first', 42, '/help', 'second', 'first']),
      [pageHistoryKey('/work/b')]: JSON.stringify(['other workspace']),
    });
    expect(pagePrompts('/work/a', page)).toEqual(['second', 'first']);
    expect(pagePrompts('/work/c', page)).toBeNull();
    expect(pagePrompts('', page)).toBeNull();
  });

  it('reads a damaged entry as holding nothing, and a page without storage as having none', () => {
    expect(pagePrompts('/w', storage({ [pageHistoryKey('/w')]: '["cut' }))).toEqual([]);
    expect(pagePrompts('/w', storage({ [pageHistoryKey('/w')]: '{"a":1}' }))).toEqual([]);
    expect(pagePrompts('/w', null)).toBeNull();
    const refusing: PageStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(pagePrompts('/w', refusing)).toBeNull();
    expect(() => dropPagePrompts('/w', refusing)).not.toThrow();
  });

  it('removes only that workspace’s entry', () => {
    const page = storage({ [pageHistoryKey('/a')]: '["x"]', [pageHistoryKey('/b')]: '["y"]' });
    dropPagePrompts('/a', page);
    expect(Object.keys(page.entries)).toEqual([pageHistoryKey('/b')]);
  });
});
