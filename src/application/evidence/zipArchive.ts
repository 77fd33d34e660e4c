import { crc32 } from 'node:zlib';

/*
 * ZIP archives of stored (uncompressed) files: what an evidence bundle is. Stored, not deflated, so
 * that every file's bytes are in the archive as they are, any unzip reads it, and reading it back
 * needs nothing but this file. Archives of up to 65,535 files and 4 GiB (no ZIP64): a document's
 * evidence is far smaller.
 */

export interface ZipEntry {
  /** The path in the archive, `/`-separated, relative. */
  name: string;
  bytes: Uint8Array;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
/** Version 2.0; bit 11 of the flags: the names are UTF-8. */
const VERSION = 20;
const UTF8 = 0x0800;
/** 1980-01-01 00:00 in MS-DOS form: the bundle's own time is in its manifest, not in the archive. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

export function writeZip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const bytes = Buffer.from(entry.bytes);
    const crc = crc32(bytes);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(UTF8, 6);
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(bytes.length, 18);
    local.writeUInt32LE(bytes.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(VERSION, 4);
    central.writeUInt16LE(VERSION, 6);
    central.writeUInt16LE(UTF8, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(bytes.length, 20);
    central.writeUInt32LE(bytes.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, bytes);
    centrals.push(central, name);
    offset += local.length + name.length + bytes.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * The files of a ZIP archive of stored files, by name, read from its central directory. Throws,
 * saying why, on anything else: deflated or encrypted entries, a damaged archive, a file whose CRC
 * does not match its bytes, a name given twice.
 */
export function readZip(zip: Buffer): Map<string, Buffer> {
  const endAt = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0 || endAt + 22 > zip.length) throw new Error('not a ZIP archive (no end of central directory)');
  const count = zip.readUInt16LE(endAt + 10);
  let at = zip.readUInt32LE(endAt + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL) throw new Error('the central directory is damaged');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const localAt = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (method !== 0 || (flags & 1) !== 0) throw new Error(`${name}: only stored, unencrypted files are read`);
    if (localAt + 30 > zip.length || zip.readUInt32LE(localAt) !== LOCAL) throw new Error(`${name}: damaged`);
    const start = localAt + 30 + zip.readUInt16LE(localAt + 26) + zip.readUInt16LE(localAt + 28);
    if (start + size > zip.length) throw new Error(`${name}: truncated`);
    const bytes = zip.subarray(start, start + size);
    if (crc32(bytes) !== crc) throw new Error(`${name}: its bytes do not match the archive's CRC`);
    if (files.has(name)) throw new Error(`${name}: in the archive twice`);
    files.set(name, bytes);
    at += 46 + nameLength + extra;
  }
  return files;
}
