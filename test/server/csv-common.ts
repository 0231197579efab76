// What the CSV and ZIP test files share: a strict RFC 4180 reader, and a ZIP reader that checks every entry's
// CRC-32 and sizes (D27 D67), so a file the server writes is read back as a spreadsheet or an unzip tool would.
import { crc32, inflateRawSync } from 'node:zlib';

/** RFC 4180 strictly: only CRLF ends a record outside quotes, so a bare line break there shows up as a wrong cell. */
export function parseRfc4180(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') cell += ch;
      else if (text[i + 1] === '"') (cell += '"'), i++;
      else quoted = false;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') row.push(cell), (cell = '');
    else if (ch === '\r' && text[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else cell += ch;
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows;
}

/** The files of a ZIP archive by name, each inflated and checked against its central directory entry. */
export function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`central entry ${i} has no signature`);
    const [method, crc, compressed, size, nameLength, extraLength, commentLength, offset] = [
      zip.readUInt16LE(at + 10),
      zip.readUInt32LE(at + 16),
      zip.readUInt32LE(at + 20),
      zip.readUInt32LE(at + 24),
      zip.readUInt16LE(at + 28),
      zip.readUInt16LE(at + 30),
      zip.readUInt16LE(at + 32),
      zip.readUInt32LE(at + 42),
    ];
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (zip.readUInt32LE(offset) !== 0x04034b50) throw new Error(`${name}: no local header at ${offset}`);
    const dataAt = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
    const raw = zip.subarray(dataAt, dataAt + compressed);
    const data = method === 8 ? inflateRawSync(raw) : raw;
    if (data.length !== size) throw new Error(`${name}: ${data.length} bytes, the directory says ${size}`);
    if (crc32(data) !== crc) throw new Error(`${name}: CRC-32 does not match`);
    files.set(name, data);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
