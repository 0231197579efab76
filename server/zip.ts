// D67: a ZIP file written as it goes, with Node's own zlib: each entry deflated while its text is produced,
// its CRC-32 and sizes in a data descriptor after it (the local header cannot know them yet), the central
// directory at the end. Memory stays flat however large the entries; the writer waits whenever the
// destination is full. No ZIP64: an organization's data is far below 4 GiB per entry.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { constants, crc32, createDeflateRaw } from 'node:zlib';

const LOCAL = 0x04034b50;
const DESCRIPTOR = 0x08074b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
/** Bit 3: sizes and CRC in a descriptor after the data; bit 11: names are UTF-8. */
const FLAGS = 0x0808;
const DEFLATE = 8;
const VERSION = 20;

interface Entry {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** MS-DOS time and date, as ZIP headers carry them (local time is not known here: UTC). */
function dosTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((Math.max(at.getUTCFullYear(), 1980) - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

export interface ZipWriter {
  /** One file of the archive: `produce` writes its text piece by piece (each write may wait). */
  entry(name: string, produce: (write: (text: string) => Promise<void>) => Promise<void>): Promise<void>;
  /** The central directory; the archive is complete once this resolves. */
  end(): Promise<void>;
}

export function zipWriter(out: Writable, at: Date): ZipWriter {
  const entries: Entry[] = [];
  const { time, date } = dosTime(at);
  let offset = 0;
  const closed = new Promise<void>((resolve) => out.once('close', resolve));
  const put = async (buf: Buffer) => {
    offset += buf.length;
    if (!out.write(buf)) await Promise.race([once(out, 'drain'), closed]);
  };
  return {
    async entry(fileName, produce) {
      const name = Buffer.from(fileName, 'utf8');
      const e: Entry = { name, crc: 0, compressed: 0, size: 0, offset };
      const header = Buffer.alloc(30);
      header.writeUInt32LE(LOCAL, 0);
      header.writeUInt16LE(VERSION, 4);
      header.writeUInt16LE(FLAGS, 6);
      header.writeUInt16LE(DEFLATE, 8);
      header.writeUInt16LE(time, 10);
      header.writeUInt16LE(date, 12);
      header.writeUInt16LE(name.length, 26); // CRC and sizes (14–25) stay 0: the descriptor has them
      await put(Buffer.concat([header, name]));
      const z = createDeflateRaw({ level: constants.Z_DEFAULT_COMPRESSION });
      const done = once(z, 'end');
      z.on('data', (chunk: Buffer) => {
        e.compressed += chunk.length;
        if (!out.write(chunk)) {
          z.pause();
          Promise.race([once(out, 'drain'), closed]).then(() => z.resume());
        }
      });
      await produce(async (text) => {
        const buf = Buffer.from(text, 'utf8');
        e.crc = crc32(buf, e.crc);
        e.size += buf.length;
        if (!z.write(buf)) await Promise.race([once(z, 'drain'), closed]);
      });
      z.end();
      await Promise.race([done, closed]);
      offset += e.compressed;
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(DESCRIPTOR, 0);
      descriptor.writeUInt32LE(e.crc >>> 0, 4);
      descriptor.writeUInt32LE(e.compressed, 8);
      descriptor.writeUInt32LE(e.size, 12);
      await put(descriptor);
      entries.push(e);
    },
    async end() {
      const start = offset;
      for (const e of entries) {
        const c = Buffer.alloc(46);
        c.writeUInt32LE(CENTRAL, 0);
        c.writeUInt16LE(VERSION, 4);
        c.writeUInt16LE(VERSION, 6);
        c.writeUInt16LE(FLAGS, 8);
        c.writeUInt16LE(DEFLATE, 10);
        c.writeUInt16LE(time, 12);
        c.writeUInt16LE(date, 14);
        c.writeUInt32LE(e.crc >>> 0, 16);
        c.writeUInt32LE(e.compressed, 20);
        c.writeUInt32LE(e.size, 24);
        c.writeUInt16LE(e.name.length, 28);
        c.writeUInt32LE(e.offset, 42);
        await put(Buffer.concat([c, e.name]));
      }
      const end = Buffer.alloc(22);
      end.writeUInt32LE(END, 0);
      end.writeUInt16LE(entries.length, 8);
      end.writeUInt16LE(entries.length, 10);
      end.writeUInt32LE(offset - start, 12);
      end.writeUInt32LE(start, 16);
      await put(end);
    },
  };
}
