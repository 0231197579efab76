// D54: a QR code encoder of our own (ISO/IEC 18004), just what an otpauth:// URI needs: byte mode, error
// correction level M, versions 1–10, Reed–Solomon over GF(256), all 8 masks scored by the standard's
// penalty rules, format and version information. Returns the modules as rows of booleans (true = dark).
// It loads only with the two-step sign-in section (README: why no package).
import { BLOCKS, bit, formatBits, rsRemainder, versionBits } from './qr-codes';

export const MAX_VERSION = BLOCKS.length;

const dataCodewords = (v: number) => {
  const [, g1, d1, g2] = BLOCKS[v - 1] as (typeof BLOCKS)[number];
  return g1 * d1 + g2 * (d1 + 1);
};

/** The data and error correction codewords of `bytes` in version `v`, interleaved as they are placed. */
function codewords(bytes: Uint8Array, v: number): number[] {
  const bits: number[] = [];
  const put = (value: number, n: number) => {
    for (let i = n - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  const capacity = dataCodewords(v) * 8;
  put(0b0100, 4); // byte mode
  put(bytes.length, v < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  put(0, Math.min(4, capacity - bits.length)); // terminator
  put(0, (8 - (bits.length % 8)) % 8);
  for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8);
  const data: number[] = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));

  const [ec, g1, d1, g2] = BLOCKS[v - 1] as (typeof BLOCKS)[number];
  const blocks: number[][] = [];
  for (let i = 0, at = 0; i < g1 + g2; i++) {
    const len = i < g1 ? d1 : d1 + 1;
    blocks.push(data.slice(at, (at += len)));
  }
  const ecBlocks = blocks.map((b) => rsRemainder(b, ec));
  const out: number[] = [];
  for (let i = 0; i <= d1; i++) for (const b of blocks) if (i < b.length) out.push(b[i] as number);
  for (let i = 0; i < ec; i++) for (const b of ecBlocks) out.push(b[i] as number);
  return out;
}

/** The smallest version 1–10 that holds `length` bytes at level M; RangeError past version 10. */
export function versionFor(length: number): number {
  for (let v = 1; v <= MAX_VERSION; v++) if (4 + (v < 10 ? 8 : 16) + 8 * length <= dataCodewords(v) * 8) return v;
  throw new RangeError(`Too long for a QR code of version ${MAX_VERSION}: ${length} bytes`);
}

const MASKS: readonly ((x: number, y: number) => boolean)[] = [
  (x, y) => (x + y) % 2 === 0,
  (_, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

/** A matrix being built: the modules and which of them are function patterns (not data). */
class Grid {
  readonly dark: boolean[][];
  readonly fixed: boolean[][];
  constructor(readonly size: number) {
    this.dark = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
    this.fixed = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  }
  set(x: number, y: number, dark: boolean): void {
    if (x < 0 || y < 0 || x >= this.size || y >= this.size) return;
    (this.dark[y] as boolean[])[x] = dark;
    (this.fixed[y] as boolean[])[x] = true;
  }
}

/** Finder patterns with separators, timing patterns, alignment patterns, version information. */
function drawFunctionPatterns(g: Grid, v: number): void {
  const n = g.size;
  for (let i = 0; i < n; i++) {
    g.set(6, i, i % 2 === 0);
    g.set(i, 6, i % 2 === 0);
  }
  for (const [cx, cy] of [
    [3, 3],
    [n - 4, 3],
    [3, n - 4],
  ] as const) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const d = Math.max(Math.abs(dx), Math.abs(dy));
        g.set(cx + dx, cy + dy, d !== 2 && d !== 4);
      }
    }
  }
  const pos = alignmentPositions(v);
  for (const cy of pos) {
    for (const cx of pos) {
      if ((cx === 6 && cy === 6) || (cx === 6 && cy === n - 7) || (cx === n - 7 && cy === 6)) continue;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) g.set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }
  }
  drawFormat(g, 0); // reserves the format areas; drawn again with the chosen mask
  if (v >= 7) {
    const bits = versionBits(v);
    for (let i = 0; i < 18; i++) {
      const a = n - 11 + (i % 3);
      const b = Math.floor(i / 3);
      g.set(a, b, bit(bits, i));
      g.set(b, a, bit(bits, i));
    }
  }
}

/** The centres of the alignment patterns along each axis. */
export function alignmentPositions(v: number): number[] {
  if (v === 1) return [];
  const count = Math.floor(v / 7) + 2;
  const step = Math.ceil((v * 4 + 4) / (count * 2 - 2)) * 2;
  const out = [6];
  for (let i = 0, at = v * 4 + 10; i < count - 1; i++, at -= step) out.splice(1, 0, at);
  return out;
}

/** Both copies of the format information, and the dark module. */
function drawFormat(g: Grid, mask: number): void {
  const bits = formatBits(mask);
  const n = g.size;
  for (let i = 0; i <= 5; i++) g.set(8, i, bit(bits, i));
  g.set(8, 7, bit(bits, 6));
  g.set(8, 8, bit(bits, 7));
  g.set(7, 8, bit(bits, 8));
  for (let i = 9; i < 15; i++) g.set(14 - i, 8, bit(bits, i));
  for (let i = 0; i < 8; i++) g.set(n - 1 - i, 8, bit(bits, i));
  for (let i = 8; i < 15; i++) g.set(8, n - 15 + i, bit(bits, i));
  g.set(8, n - 8, true);
}

/** The codewords' bits in the two-column zigzag, from the bottom right, skipping function modules. */
function drawCodewords(g: Grid, data: readonly number[]): void {
  const n = g.size;
  let i = 0;
  for (let right = n - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5; // the vertical timing pattern
    const upward = ((right + 1) & 2) === 0;
    for (let vert = 0; vert < n; vert++) {
      const y = upward ? n - 1 - vert : vert;
      for (let j = 0; j < 2; j++) {
        const x = right - j;
        if ((g.fixed[y] as boolean[])[x]) continue;
        (g.dark[y] as boolean[])[x] = i < data.length * 8 && bit(data[i >>> 3] as number, 7 - (i & 7));
        i++;
      }
    }
  }
}

function applyMask(g: Grid, mask: number): void {
  const test = MASKS[mask] as (x: number, y: number) => boolean;
  for (let y = 0; y < g.size; y++) {
    const row = g.dark[y] as boolean[];
    for (let x = 0; x < g.size; x++) if (!(g.fixed[y] as boolean[])[x] && test(x, y)) row[x] = !row[x];
  }
}

/** The standard's penalty: runs of 5+, 2×2 blocks, finder-like patterns (light beyond the edge), balance. */
export function penalty(m: readonly (readonly boolean[])[]): number {
  const n = m.length;
  const lines: boolean[][] = [];
  for (let i = 0; i < n; i++) {
    lines.push([...(m[i] as boolean[])]);
    lines.push(m.map((row) => row[i] as boolean));
  }
  let score = 0;
  const finder = [true, false, true, true, true, false, true];
  const light4 = [false, false, false, false];
  const patterns = [[...finder, ...light4].join(), [...light4, ...finder].join()];
  for (const line of lines) {
    for (let i = 0, run = 0; i <= n; i++) {
      if (i < n && i > 0 && line[i] === line[i - 1]) run++;
      else {
        if (run >= 5) score += 3 + run - 5;
        run = 1;
      }
    }
    const padded = [...light4, ...line, ...light4];
    for (let i = 0; i + 11 <= padded.length; i++) if (patterns.includes(padded.slice(i, i + 11).join())) score += 40;
  }
  let dark = 0;
  for (let y = 0; y < n; y++) {
    const row = m[y] as boolean[];
    const below = m[y + 1];
    for (let x = 0; x < n; x++) {
      if (row[x]) dark++;
      if (below && x + 1 < n && row[x] === row[x + 1] && row[x] === below[x] && row[x] === below[x + 1]) score += 3;
    }
  }
  const total = n * n;
  return score + (Math.ceil(Math.abs(dark * 20 - total * 10) / total) - 1) * 10;
}

/** The QR code of `text` (UTF-8, byte mode, level M): rows of modules, true for dark; `mask` forces one. */
export function encodeQr(text: string, mask?: number): boolean[][] {
  const bytes = new TextEncoder().encode(text);
  const v = versionFor(bytes.length);
  const g = new Grid(v * 4 + 17);
  drawFunctionPatterns(g, v);
  drawCodewords(g, codewords(bytes, v));
  let best = mask ?? 0;
  if (mask === undefined) {
    let lowest = Number.POSITIVE_INFINITY;
    for (let k = 0; k < MASKS.length; k++) {
      applyMask(g, k);
      drawFormat(g, k);
      const score = penalty(g.dark);
      if (score < lowest) [lowest, best] = [score, k];
      applyMask(g, k); // XOR again: undone
    }
  }
  applyMask(g, best);
  drawFormat(g, best);
  return g.dark;
}

/** The dark modules as one SVG path (one unit per module), for a viewBox with a 4-module quiet zone. */
export function qrPath(m: readonly (readonly boolean[])[]): string {
  let d = '';
  m.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) d += `M${x + 4} ${y + 4}h1v1h-1z`;
    });
  });
  return d;
}
