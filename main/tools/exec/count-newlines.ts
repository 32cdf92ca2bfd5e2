// Counting the newlines of command output, which `exec` does for every byte it captures (the line
// total of the result, and the line limit that decides when output goes to its file). One
// `Buffer.indexOf` per line costs a native call per line, which on short lines is most of the
// capture's own time; a WebAssembly SIMD loop compares 16 bytes per step instead. Where
// WebAssembly SIMD is not available (a runtime without it, or one started with --jitless), the
// portable loop below gives the same count.

const NEWLINE = 0x0a;

/** Newlines (0x0a) in `bytes`, one native call per line. */
export function countNewlinesPortable(bytes: Uint8Array): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let count = 0;
  for (let index = buffer.indexOf(NEWLINE); index !== -1; index = buffer.indexOf(NEWLINE, index + 1)) count += 1;
  return count;
}

/*
 * The module, as WebAssembly text:
 *
 * (module
 *   (memory (export "memory") 2)
 *   ;; Newlines in the first `vectors` × 16 bytes of memory.
 *   (func (export "count") (param $vectors i32) (result i32)
 *     (local $at i32) (local $end i32) (local $blockEnd i32) (local $total i32) (local $acc v128) (local $sums v128)
 *     (local.set $end (i32.shl (local.get $vectors) (i32.const 4)))
 *     (block $done
 *       (loop $blocks
 *         (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
 *         ;; At most 255 vectors per block, so no byte lane of $acc overflows.
 *         (local.set $blockEnd (select (i32.add (local.get $at) (i32.const 4080)) (local.get $end)
 *                                      (i32.lt_u (i32.add (local.get $at) (i32.const 4080)) (local.get $end))))
 *         (local.set $acc (v128.const i32x4 0 0 0 0))
 *         (loop $vectors
 *           ;; A lane equal to 10 compares as -1: subtracting it adds one.
 *           (local.set $acc (i8x16.sub (local.get $acc)
 *                             (i8x16.eq (v128.load (local.get $at)) (i8x16.splat (i32.const 10)))))
 *           (br_if $vectors (i32.lt_u (local.tee $at (i32.add (local.get $at) (i32.const 16))) (local.get $blockEnd))))
 *         (local.set $sums (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $acc))))
 *         (local.set $total (i32.add (local.get $total)
 *           (i32.add (i32.add (i32x4.extract_lane 0 (local.get $sums)) (i32x4.extract_lane 1 (local.get $sums)))
 *                    (i32.add (i32x4.extract_lane 2 (local.get $sums)) (i32x4.extract_lane 3 (local.get $sums))))))
 *         (br $blocks)))
 *     (local.get $total)))
 */

const I32 = 0x7f;
const V128 = 0x7b;
const op = {
  block: 0x02,
  loop: 0x03,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  select: 0x1b,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Const: 0x41,
  i32LtU: 0x49,
  i32GeU: 0x4f,
  i32Add: 0x6a,
  i32Shl: 0x74,
  simd: 0xfd,
} as const;
const simd = {
  v128Load: 0x00,
  v128Const: 0x0c,
  i8x16Splat: 0x0f,
  i32x4ExtractLane: 0x1b,
  i8x16Eq: 0x23,
  i8x16Sub: 0x71,
  i16x8ExtaddPairwiseI8x16U: 0x7d,
  i32x4ExtaddPairwiseI16x8U: 0x7f,
} as const;

/** Locals of `count`, by index (0 is the parameter). */
const local = { vectors: 0, at: 1, end: 2, blockEnd: 3, total: 4, acc: 5, sums: 6 } as const;
const VECTORS_PER_BLOCK_BYTES = 255 * 16;
/** Pages of 64 KiB: one slice of input and the zeros that pad its last vector. */
const MEMORY_PAGES = 2;
const SLICE_BYTES = 64 * 1024;

function unsignedLeb(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  do {
    const low = rest & 0x7f;
    rest >>>= 7;
    bytes.push(rest === 0 ? low : low | 0x80);
  } while (rest !== 0);
  return bytes;
}

/** Small non-negative i32 constants only (below 2^20), which is all `count` needs. */
function i32Const(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  for (;;) {
    const low = rest & 0x7f;
    rest >>= 7;
    if (rest === 0 && (low & 0x40) === 0) return [op.i32Const, ...bytes, low];
    bytes.push(low | 0x80);
  }
}

function name(text: string): number[] {
  return [...unsignedLeb(text.length), ...Buffer.from(text, 'utf8')];
}

function section(id: number, contents: number[]): number[] {
  return [id, ...unsignedLeb(contents.length), ...contents];
}

function extractLane(lane: number): number[] {
  return [op.localGet, local.sums, op.simd, simd.i32x4ExtractLane, lane];
}

function moduleBytes(): Uint8Array {
  const atPlusBlock = [op.localGet, local.at, ...i32Const(VECTORS_PER_BLOCK_BYTES), op.i32Add];
  const body = [
    ...[2, 4, I32, 2, V128], // locals: 4 × i32, 2 × v128
    ...[op.localGet, local.vectors, ...i32Const(4), op.i32Shl, op.localSet, local.end],
    ...[op.block, 0x40, op.loop, 0x40],
    ...[op.localGet, local.at, op.localGet, local.end, op.i32GeU, op.brIf, 1],
    ...[...atPlusBlock, op.localGet, local.end, ...atPlusBlock, op.localGet, local.end, op.i32LtU, op.select],
    ...[op.localSet, local.blockEnd],
    ...[op.simd, simd.v128Const, ...new Array<number>(16).fill(0), op.localSet, local.acc],
    ...[op.loop, 0x40],
    ...[op.localGet, local.acc, op.localGet, local.at, op.simd, simd.v128Load, 4, 0],
    ...[...i32Const(0x0a), op.simd, simd.i8x16Splat, op.simd, simd.i8x16Eq, op.simd, simd.i8x16Sub],
    ...[op.localSet, local.acc],
    ...[op.localGet, local.at, ...i32Const(16), op.i32Add, op.localTee, local.at],
    ...[op.localGet, local.blockEnd, op.i32LtU, op.brIf, 0, op.end],
    ...[op.localGet, local.acc, op.simd, simd.i16x8ExtaddPairwiseI8x16U, op.simd, simd.i32x4ExtaddPairwiseI16x8U],
    ...[op.localSet, local.sums],
    ...[...extractLane(0), ...extractLane(1), op.i32Add, ...extractLane(2), op.i32Add, ...extractLane(3), op.i32Add],
    ...[op.localGet, local.total, op.i32Add, op.localSet, local.total],
    ...[op.br, 0, op.end, op.end],
    ...[op.localGet, local.total, op.end],
  ];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 1, I32, 1, I32]), // type 0: (i32) -> i32
    ...section(3, [1, 0]), // one function, of type 0
    ...section(5, [1, 0x00, MEMORY_PAGES]), // one memory, no maximum
    ...section(7, [2, ...name('memory'), 0x02, 0, ...name('count'), 0x00, 0]),
    ...section(10, [1, ...unsignedLeb(body.length), ...body]),
  ]);
}

interface Counter {
  memory: Uint8Array;
  count: (vectors: number) => number;
}

/** The part of the WebAssembly API used here: main/ compiles without the DOM library that declares it. */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => {
    exports: { memory?: { buffer: ArrayBuffer }; count?: (vectors: number) => number };
  };
}

function simdCounter(): Counter | null {
  try {
    const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
    if (!wasm) return null;
    const { memory, count } = new wasm.Instance(new wasm.Module(moduleBytes())).exports;
    return memory && count ? { memory: new Uint8Array(memory.buffer), count } : null;
  } catch {
    return null;
  }
}

let counter: Counter | null | undefined;

/** From now on this process counts with the portable loop: what the bench measures the SIMD loop against. */
export function usePortableNewlineCounter(): void {
  counter = null;
}

/** Which loop `countNewlines` runs here: 'simd' wherever WebAssembly SIMD compiles. */
export function newlineCounterKind(): 'simd' | 'portable' {
  if (counter === undefined) counter = simdCounter();
  return counter ? 'simd' : 'portable';
}

/** Newlines (0x0a) in `bytes`: 16 bytes per step where WebAssembly SIMD runs, else one call per line. */
export function countNewlines(bytes: Uint8Array): number {
  if (counter === undefined) counter = simdCounter();
  if (!counter || bytes.length < 64) return countNewlinesPortable(bytes);
  if (bytes.length <= SLICE_BYTES) return countSlice(counter, bytes);
  let total = 0;
  for (let start = 0; start < bytes.length; start += SLICE_BYTES) {
    total += countSlice(counter, bytes.subarray(start, Math.min(bytes.length, start + SLICE_BYTES)));
  }
  return total;
}

function countSlice({ memory, count }: Counter, slice: Uint8Array): number {
  memory.set(slice, 0);
  // The last vector reads up to 15 bytes past the slice: zeros, never a newline.
  memory.fill(0, slice.length, slice.length + 16);
  return count((slice.length + 15) >>> 4);
}
