// D54: the QR encoder's codes (ISO/IEC 18004): level M's block structure for versions 1–10, Reed–Solomon
// over GF(256), and the BCH codes of the format and version information. The matrix is qr.ts.

/** Level M for versions 1–10: [EC codewords per block, blocks, data codewords in each of the first group]. */
export const BLOCKS: readonly (readonly [number, number, number, number])[] = [
  // [ec per block, blocks in group 1, data per block in group 1, blocks in group 2 (one more data codeword)]
  [10, 1, 16, 0],
  [16, 1, 28, 0],
  [26, 1, 44, 0],
  [18, 2, 32, 0],
  [24, 2, 43, 0],
  [16, 4, 27, 0],
  [18, 4, 31, 0],
  [22, 2, 38, 2],
  [22, 3, 36, 2],
  [26, 4, 43, 1],
];
/** Level M's two format bits (ISO/IEC 18004 table 12) and the mask XORed over format information. */
const LEVEL_M = 0b00;
const FORMAT_MASK = 0b101010000010010;

export const bit = (x: number, i: number) => ((x >>> i) & 1) !== 0;

// GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D).
function gfMul(x: number, y: number): number {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z;
}

/** The Reed–Solomon error correction codewords of `data` (the remainder by the generator of `degree`). */
export function rsRemainder(data: readonly number[], degree: number): number[] {
  // The generator polynomial (x - α^0)(x - α^1)…(x - α^(degree-1)), leading 1 left out.
  const gen = new Array<number>(degree).fill(0);
  gen[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      gen[j] = gfMul(gen[j] ?? 0, root) ^ (gen[j + 1] ?? 0);
    }
    root = gfMul(root, 0x02);
  }
  const rem = new Array<number>(degree).fill(0);
  for (const b of data) {
    const factor = b ^ (rem.shift() ?? 0);
    rem.push(0);
    for (let i = 0; i < degree; i++) rem[i] = (rem[i] ?? 0) ^ gfMul(gen[i] ?? 0, factor);
  }
  return rem;
}

/** The 15 format bits for level M and `mask` (BCH(15,5), then XORed with 101010000010010). */
export function formatBits(mask: number): number {
  const data = (LEVEL_M << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  return ((data << 10) | rem) ^ FORMAT_MASK;
}

/** The 18 version bits (BCH(18,6)), for versions 7 and up. */
export function versionBits(version: number): number {
  let rem = version;
  for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
  return (version << 12) | rem;
}
