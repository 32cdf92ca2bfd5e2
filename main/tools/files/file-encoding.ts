import { isAscii, isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';
import type * as Chardet from 'chardet';
import type * as Iconv from 'iconv-lite';

// Which character encoding a text file is in. UTF-8 (with or without its byte order mark) is the
// rule; a UTF-16 byte order mark, or bytes that are not UTF-8, ask a detector (chardet) for the
// encoding, and the text is decoded with it (iconv-lite). read_file names any encoding other than
// UTF-8, and write_file / patch_file refuse to write such a file unless the model passes the same
// encoding back, so a Latin-1 file is never silently rewritten as UTF-8 with its accents replaced.

export const UTF8 = 'UTF-8';

// The detector and the decoders load on first use (≈20 ms of a process's start): a UTF-8 file,
// the usual case, needs neither, so `aether tool read_file` on one never loads them.
const requireModule = createRequire(import.meta.url);
let chardetModule: typeof Chardet | undefined;
let iconvModule: typeof Iconv | undefined;
const chardet = (): typeof Chardet => (chardetModule ??= requireModule('chardet') as typeof Chardet);
const iconv = (): typeof Iconv => (iconvModule ??= requireModule('iconv-lite') as typeof Iconv);

export interface TextEncoding {
  /** As read_file reports it and write_file / patch_file take it back: UTF-8, ISO-8859-1, Shift_JIS, UTF-16LE… */
  name: string;
  /** The byte order mark the file starts with (empty for none); kept when the file is written. */
  bom: Buffer;
}

const BOMS: { bytes: Buffer; name: string }[] = [
  { bytes: Buffer.from([0xef, 0xbb, 0xbf]), name: UTF8 },
  { bytes: Buffer.from([0xff, 0xfe]), name: 'UTF-16LE' },
  { bytes: Buffer.from([0xfe, 0xff]), name: 'UTF-16BE' },
];

/** Below this confidence (0-100) the detector's guess is not taken. */
const MIN_CONFIDENCE = 10;

/**
 * The encoding of a file from its first bytes (`complete`: the sample is the whole file), or null
 * when it looks binary: a NUL byte without a UTF-16 mark, or bytes no supported encoding explains.
 */
export function sniffEncoding(sample: Uint8Array, complete: boolean): TextEncoding | null {
  const bytes = Buffer.from(sample.buffer, sample.byteOffset, sample.byteLength);
  const marked = BOMS.find(({ bytes: bom }) => bytes.subarray(0, bom.length).equals(bom));
  // FF FE 00 00 is UTF-32's mark, which is not supported: binary.
  if (marked && !(marked.name === 'UTF-16LE' && bytes.length >= 4 && bytes[2] === 0 && bytes[3] === 0))
    return { name: marked.name, bom: marked.bytes };
  if (bytes.includes(0)) return null;
  const body = complete ? bytes : withoutCutCharacter(bytes);
  if (isUtf8(body)) return { name: UTF8, bom: Buffer.alloc(0) };
  const guess = chardet()
    .analyse(body)
    .find(
      (match) =>
        match.confidence >= MIN_CONFIDENCE &&
        !/^(UTF-8|ASCII)$/i.test(match.name) &&
        iconv().encodingExists(match.name) &&
        !match.name.startsWith('UTF-32'),
    );
  if (!guess || controlShare(iconv().decode(body, guess.name)) > MAX_CONTROL_SHARE) return null;
  return { name: guess.name, bom: Buffer.alloc(0) };
}

/** Text has few control or undecodable characters; noise decoded in some encoding has many. */
const MAX_CONTROL_SHARE = 0.1;

function controlShare(text: string): number {
  if (text.length === 0) return 0;
  let controls = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const control = code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c;
    if (control || (code >= 0x7f && code < 0xa0) || code === 0xfffd) controls += 1;
  }
  return controls / text.length;
}

/** Bytes of a whole file the detector looks at around the first byte that is not UTF-8. */
const DETECT_WINDOW = 64 * 1024;

/**
 * The encoding of a whole file (write_file and patch_file read files whole). When it is not all
 * UTF-8 the detector looks at the region where it stops being UTF-8, so a Latin-1 line deep in a
 * mostly-ASCII file still names Latin-1.
 */
export function fileEncoding(bytes: Uint8Array): TextEncoding | null {
  const whole = sniffEncoding(bytes.subarray(0, DETECT_WINDOW), bytes.length <= DETECT_WINDOW);
  if (whole === null || whole.name !== UTF8 || isUtf8(bytes)) return whole;
  for (let start = 0; start < bytes.length; start += DETECT_WINDOW) {
    const window = Buffer.from(
      bytes.buffer,
      bytes.byteOffset + start,
      Math.min(DETECT_WINDOW * 2, bytes.length - start),
    );
    if (isUtf8(withoutCutCharacter(window.subarray(0, DETECT_WINDOW)))) continue;
    const found = sniffEncoding(window, start + window.length === bytes.length);
    return found && found.name !== UTF8 ? { name: found.name, bom: whole.bom } : null;
  }
  return null;
}

/** A file's chunk, raw (for the hash) and as UTF-8 text (for the lines), the byte order mark left out of the text. */
export interface DecodedChunk {
  raw: Buffer;
  text: Buffer;
}

/**
 * A file's chunks decoded to UTF-8, its encoding decided from the first chunk; null when that
 * looks binary. UTF-8 passes through untouched; any other encoding is decoded as it streams.
 */
export async function decodedChunks(
  source: AsyncIterable<Buffer>,
  chunkBytes: number,
): Promise<{ encoding: TextEncoding; chunks: AsyncIterable<DecodedChunk> } | null> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  const sample = first.done ? Buffer.alloc(0) : first.value;
  const encoding = sniffEncoding(sample, sample.length < chunkBytes);
  if (encoding === null) return null;
  const decoder = encoding.name === UTF8 ? null : textDecoder(encoding.name);
  const convert = (raw: Buffer): Buffer => (decoder ? Buffer.from(decoder.write(raw), 'utf8') : raw);
  async function* chunks(): AsyncIterable<DecodedChunk> {
    if (first.done) return;
    yield { raw: sample, text: convert(sample.subarray(encoding!.bom.length)) };
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      yield { raw: next.value, text: convert(next.value) };
    const rest = decoder?.end();
    if (rest) yield { raw: Buffer.alloc(0), text: Buffer.from(rest, 'utf8') };
  }
  return { encoding, chunks: chunks() };
}

/** The byte order mark of UTF-16 in the given byte order. */
export function utf16Bom(name: string): Buffer {
  return /be$/i.test(name) ? Buffer.from([0xfe, 0xff]) : Buffer.from([0xff, 0xfe]);
}

/** Whether write_file / patch_file may take `name`: one iconv-lite knows. */
export function knownEncoding(name: string): boolean {
  return iconv().encodingExists(name);
}

/** The bytes after the byte order mark, decoded. */
export function decodeText(bytes: Uint8Array, encoding: TextEncoding): string {
  // UTF-8 (the usual case, a large file included) is decoded by Node itself, in one step; ASCII
  // (checked at memory speed) reads the same as Latin-1, which is a plain copy, not a decode.
  if (encoding.name === UTF8) {
    const body = Buffer.from(
      bytes.buffer,
      bytes.byteOffset + encoding.bom.length,
      bytes.byteLength - encoding.bom.length,
    );
    return body.toString(isAscii(body) ? 'latin1' : 'utf8');
  }
  return iconv().decode(Buffer.from(bytes).subarray(encoding.bom.length), encoding.name, { stripBOM: false });
}

/** A streaming decoder to UTF-8 text, for reading a file in chunks (the mark is skipped by the caller). */
export function textDecoder(name: string): { write(chunk: Buffer): string; end(): string } {
  const decoder = iconv().getDecoder(name, { stripBOM: false });
  return { write: (chunk) => decoder.write(chunk), end: () => decoder.end() ?? '' };
}

/**
 * `text` in the encoding, after its byte order mark; or the first character the encoding cannot
 * hold (iconv would write it as `?`).
 */
export function encodeText(
  text: string,
  encoding: TextEncoding,
): { ok: true; bytes: Buffer } | { ok: false; character: string } {
  // Every well-formed string has UTF-8 bytes: only a lone surrogate needs the round trip below.
  if (encoding.name === UTF8 && text.isWellFormed())
    return { ok: true, bytes: Buffer.concat([encoding.bom, Buffer.from(text, 'utf8')]) };
  const body = iconv().encode(text, encoding.name, { addBOM: false });
  const back = iconv().decode(body, encoding.name, { stripBOM: false });
  if (back === text) return { ok: true, bytes: Buffer.concat([encoding.bom, body]) };
  let index = 0;
  while (index < text.length && text.codePointAt(index) === back.codePointAt(index))
    index += text.codePointAt(index)! > 0xffff ? 2 : 1;
  return { ok: false, character: String.fromCodePoint(text.codePointAt(index) ?? 0xfffd) };
}

/** A sample ending inside a UTF-8 character is cut before that character, so it is not taken for invalid. */
function withoutCutCharacter(bytes: Buffer): Buffer {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}

/**
 * Why a write to a file now holding `bytes` (in `current`) must not go ahead with the encoding the
 * call gave, or null when it may: a file that is not UTF-8 needs its own encoding passed back, and
 * a given encoding must read the file exactly as its own does.
 */
export function encodingRefusal(
  bytes: Uint8Array,
  current: TextEncoding,
  given: string | undefined,
  shown: string,
  tool: string,
): string | null {
  const name = current.name;
  if (given === undefined) {
    if (name === UTF8) return null;
    return (
      `${shown} is encoded in ${name}, not UTF-8 (read_file says so), so ${tool} leaves it alone unless told its encoding: ` +
      `pass "encoding": ${JSON.stringify(name)} to change it in ${name}.`
    );
  }
  if (!knownEncoding(given))
    return `"${given}" is not an encoding ${tool} knows. Pass the name read_file reported for ${shown} (${name}).`;
  if (decodeText(bytes, { name: given, bom: current.bom }) !== decodeText(bytes, current))
    return `${shown} is encoded in ${name}, but "encoding" says ${given}, which reads it differently. Pass "encoding": ${JSON.stringify(name)}.`;
  return null;
}

/** `text` as a file's bytes in the encoding, or why it cannot be: a character the encoding has no byte for. */
export function encodeOrRefuse(
  text: string,
  encoding: TextEncoding,
  shown: string,
): { ok: true; bytes: Buffer } | { ok: false; error: string } {
  const encoded = encodeText(text, encoding);
  if (encoded.ok) return encoded;
  return {
    ok: false,
    error: `The new text of ${shown} has a character ${encoding.name} cannot hold: ${JSON.stringify(encoded.character)}. Write it with characters ${encoding.name} has (for example an escape the file's language understands).`,
  };
}
