import { describe, expect, it } from 'vitest';
import { decodeText, encodeText, UTF8 } from './file-encoding.ts';

// UTF-8 files are decoded and encoded by Node directly; what cannot be UTF-8 is still refused.

const utf8 = { name: UTF8, bom: Buffer.alloc(0) };
const withBom = { name: UTF8, bom: Buffer.from([0xef, 0xbb, 0xbf]) };

describe('UTF-8 text', () => {
  it('decodes after the byte order mark and encodes with it, byte for byte', () => {
    const bytes = Buffer.concat([withBom.bom, Buffer.from('héllo 😀\n')]);
    const text = decodeText(bytes, withBom);
    expect(text).toBe('héllo 😀\n');
    expect(encodeText(text, withBom)).toEqual({ ok: true, bytes });
  });

  it('refuses a lone surrogate, which has no UTF-8 bytes, naming it', () => {
    const encoded = encodeText('ok \ud800 not', utf8);
    expect(encoded).toEqual({ ok: false, character: '\ud800' });
  });
});
