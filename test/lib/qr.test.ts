// D54: the QR encoder against published vectors (ISO/IEC 18004 Annex I, the 'HELLO WORLD' 1-M example,
// the standard's format and version information tables) and the symbol's fixed structure.
import { describe, expect, test } from 'vitest';
import { alignmentPositions, encodeQr, penalty, qrPath, versionFor } from '../../src/lib/qr';
import { formatBits, rsRemainder, versionBits } from '../../src/lib/qr-codes';

const URI = 'otpauth://totp/CRM:owner@demo.test?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=CRM&digits=6&period=30';
const bits = (s: string) => Number.parseInt(s, 2);

describe('D54 QR encoder', () => {
  test('D54 Reed–Solomon: the HELLO WORLD 1-M data codewords give the published 10 EC codewords', () => {
    const data = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17];
    expect(rsRemainder(data, 10)).toEqual([196, 35, 39, 119, 235, 215, 231, 226, 93, 23]);
  });

  test("D54 Reed–Solomon: ISO/IEC 18004 Annex I's '01234567' 1-M example", () => {
    const data = [16, 32, 12, 86, 97, 128, 236, 17, 236, 17, 236, 17, 236, 17, 236, 17];
    expect(rsRemainder(data, 10)).toEqual([165, 36, 212, 193, 237, 54, 199, 135, 44, 85]);
  });

  test('D54 format information at level M for each mask (BCH(15,5), XOR 101010000010010)', () => {
    const table = [
      '101010000010010',
      '101000100100101',
      '101111001111100',
      '101101101001011',
      '100010111111001',
      '100000011001110',
      '100111110010111',
      '100101010100000',
    ];
    expect(table.map((_, mask) => formatBits(mask))).toEqual(table.map(bits));
  });

  test('D54 version information for version 7 is 000111110010010100', () => {
    expect(versionBits(7)).toBe(bits('000111110010010100'));
    expect(alignmentPositions(7)).toEqual([6, 22, 38]);
    expect(alignmentPositions(10)).toEqual([6, 28, 50]);
  });

  test('D54 the smallest version that holds the bytes at level M; past version 10 is refused', () => {
    expect(versionFor(14)).toBe(1);
    expect(versionFor(15)).toBe(2);
    expect(versionFor(URI.length)).toBe(6);
    expect(versionFor(213)).toBe(10);
    expect(() => versionFor(214)).toThrow(RangeError);
  });

  test('D54 structure: finder patterns, timing patterns, the dark module, format information copies agree', () => {
    for (const text of ['a', URI, 'é'.repeat(100)]) {
      const m = encodeQr(text);
      const n = m.length;
      expect(n).toBe(versionFor(new TextEncoder().encode(text).length) * 4 + 17);
      const at = (x: number, y: number) => m[y]?.[x];
      for (const [ox, oy] of [
        [0, 0],
        [n - 7, 0],
        [0, n - 7],
      ] as const) {
        for (let y = 0; y < 7; y++) {
          for (let x = 0; x < 7; x++) {
            const d = Math.max(Math.abs(x - 3), Math.abs(y - 3));
            expect(at(ox + x, oy + y), `finder at ${ox},${oy}`).toBe(d !== 2);
          }
        }
      }
      for (let i = 8; i < n - 8; i++) {
        expect(at(6, i)).toBe(i % 2 === 0);
        expect(at(i, 6)).toBe(i % 2 === 0);
      }
      expect(at(8, n - 8)).toBe(true);
      // The format bits read from around the top-left finder match the copy split over the other two.
      const first = [0, 1, 2, 3, 4, 5, 7, 8].map((y) => at(8, y)).concat([7, 5, 4, 3, 2, 1, 0].map((x) => at(x, 8)));
      const second = Array.from({ length: 8 }, (_, i) => at(n - 1 - i, 8)).concat(Array.from({ length: 7 }, (_, i) => at(8, n - 7 + i)));
      expect(second).toEqual(first);
      const read = first.reduce((a, b, i) => a | (Number(b) << i), 0);
      expect(Array.from({ length: 8 }, (_, k) => formatBits(k))).toContain(read);
    }
  });

  test('D54 the chosen mask is the one with the lowest penalty', () => {
    const scores = Array.from({ length: 8 }, (_, k) => penalty(encodeQr(URI, k)));
    expect(penalty(encodeQr(URI))).toBe(Math.min(...scores));
  });

  test('D54 a version 7+ symbol carries its version information in both corners', () => {
    const m = encodeQr('x'.repeat(150)); // version 8
    const n = m.length;
    const v = versionBits(8);
    for (let i = 0; i < 18; i++) {
      const a = n - 11 + (i % 3);
      const b = Math.floor(i / 3);
      expect(m[b]?.[a]).toBe(((v >>> i) & 1) === 1);
      expect(m[a]?.[b]).toBe(((v >>> i) & 1) === 1);
    }
  });

  test('D54 the SVG path draws one square per dark module, inside a 4-module quiet zone', () => {
    const m = encodeQr('a');
    const dark = m.flat().filter(Boolean).length;
    const path = qrPath(m);
    expect(path.match(/M/g)).toHaveLength(dark);
    expect(path.startsWith('M4 4h1v1h-1z')).toBe(true);
  });
});
