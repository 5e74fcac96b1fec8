import type { Reader, Response } from 'maxmind';

// The search tree of a MaxMind-format IPv4 file, walked whole: every leaf is a range of addresses and
// the record they share (or none). place-table.ts turns the leaves into sorted ranges, which a click
// searches in a few steps instead of reading 32 nodes spread over 60 MB.

/** A leaf's pointer when its addresses have no record. */
export const NO_RECORD = 0;

/**
 * Calls `leaf` for every range of the tree in address order: its first address and the tree's pointer
 * to its record (NO_RECORD for none). Returns false when the file is not an IPv4 tree this reads.
 */
export function walkIpv4Tree(
  reader: Reader<Response>,
  db: Buffer,
  leaf: (start: number, pointer: number) => void,
): boolean {
  const { ipVersion, nodeCount, nodeByteSize, recordSize } = reader.metadata;
  const read = recordReader(db, recordSize);
  if (ipVersion !== 4 || !read) return false;
  // Depth-first, left before right, so leaves come in address order. An entry is a record (a node or a
  // leaf), its depth and its first address; at most two per level wait.
  const records = new Float64Array(66);
  const depths = new Uint8Array(66);
  const starts = new Float64Array(66);
  let top = 0;
  const push = (record: number, depth: number, start: number) => {
    records[top] = record;
    depths[top] = depth;
    starts[top] = start;
    top += 1;
  };
  push(0, 0, 0);
  while (top > 0) {
    top -= 1;
    const record = records[top]!;
    const depth = depths[top]!;
    const start = starts[top]!;
    if (record >= nodeCount || depth === 32) {
      // nodeCount itself means "no data"; anything past it points into the data section.
      leaf(start, record > nodeCount ? record : NO_RECORD);
      continue;
    }
    const offset = record * nodeByteSize;
    push(read(offset, 1), depth + 1, start + 2 ** (31 - depth));
    push(read(offset, 0), depth + 1, start);
  }
  return true;
}

/** Reads the left (side 0) or right (side 1) record of the node at `offset`, for the file's record size. */
function recordReader(db: Buffer, recordSize: number): ((offset: number, side: number) => number) | null {
  const three = (at: number) => (db[at]! << 16) | (db[at + 1]! << 8) | db[at + 2]!;
  switch (recordSize) {
    case 24:
      return (offset, side) => three(offset + side * 3);
    case 28:
      return (offset, side) =>
        side === 0
          ? ((db[offset + 3]! & 0xf0) << 20) | three(offset)
          : ((db[offset + 3]! & 0x0f) << 24) | three(offset + 4);
    case 32:
      return (offset, side) => db.readUInt32BE(offset + side * 4);
    default:
      return null;
  }
}
