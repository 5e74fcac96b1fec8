// The event journal: every click and lead is appended to a file in the data directory, with one write()
// for all the events of an event-loop turn, before any of their answers goes out. What write() has
// handed to the kernel survives a kill -9 of the process; a power loss can take what the kernel has not
// flushed yet, at most `fsyncIntervalMs` of events (0: every write waits for the disk). At start, what
// the journal holds is replayed into the database, where an event already stored is skipped; a segment
// is deleted once the database holds every event in it durably.
//
// A segment is a run of chunks, one per write: `J{bytes} {crc32}\n` and then the events as the writer
// thread takes them too (eventPayload: `{c|l}{length}:{event line}` each, c a click and l a lead).
// A chunk cut off by a crash or a full disk, or whose checksum is wrong, ends the segment's replay: what
// follows is reported in the log, never a failed start.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';

export interface JournalLog {
  info(object: unknown, message: string): void;
  warn(object: unknown, message: string): void;
  error(object: unknown, message: string): void;
}

export interface JournalOptions {
  dir: string;
  /** How often written events are flushed to the disk; 0 flushes every write before its answers. */
  fsyncIntervalMs: number;
  /** A segment is closed (and a new one begun) past this size, or when it is older than `segmentMs`. */
  segmentBytes?: number;
  segmentMs?: number;
  log: JournalLog;
}

const SEGMENT = /^events-(\d+)-(\d+)-(\d+)(?:-[0-9a-f]+)?\.journal$/;
/** The writer's process id in a segment's name (after its time). */
const SEGMENT_PID = /^(events-\d+-)\d+-/;
/** Segments written by journals of this process: never another's to replay (tests run several apps). */
const OWN_SEGMENTS = new Set<string>();
/**
 * A running process touches `alive-{pid}` in the journal's directory this often. Another process's
 * segments are left alone only while their process is running and its file is fresh: a process id
 * taken over by something else after a crash (a container restarted) does not hide a dead node's events.
 */
const ALIVE_EVERY_MS = 2000;
const ALIVE_FOR_MS = 10_000;

interface Segment {
  file: string;
  fd: number;
  bytes: number;
  openedAt: number;
  /** Events handed on when the segment was closed: it can go once that many are stored. */
  handedThrough: number;
  /** Kept for the next start whatever is stored (see pinAll). */
  pinned?: boolean;
}

/** The longest head a chunk can have: `J`, a byte count, a space, eight hex digits and a newline. */
const HEAD_ROOM = 1 + String(Number.MAX_SAFE_INTEGER).length + 1 + 8 + 1;
/**
 * A write's buffer is kept for the next up to this size (a turn's events are a few to tens of KB);
 * larger chunks get one of their own. Measuring each payload, then encoding it into a buffer of its own,
 * was a measurable part of a click's time (bench/README.md).
 */
const KEPT_BUFFER_BYTES = 1024 * 1024;

export class JournalWriteError extends Error {}

export class Journal {
  private active: Segment | null = null;
  private readonly closed: Segment[] = [];
  private sequence = 0;
  private dirty = false;
  private syncTimer: NodeJS.Timeout | null = null;
  private readonly aliveTimer: NodeJS.Timeout;
  private readonly aliveFile: string;
  private readonly segmentBytes: number;
  private readonly segmentMs: number;
  private kept = Buffer.allocUnsafeSlow(64 * 1024);

  constructor(private readonly options: JournalOptions) {
    this.segmentBytes = options.segmentBytes ?? 32 * 1024 * 1024;
    this.segmentMs = options.segmentMs ?? 30_000;
    fs.mkdirSync(options.dir, { recursive: true });
    this.aliveFile = path.join(options.dir, `alive-${process.pid}`);
    this.touchAlive();
    this.aliveTimer = setInterval(() => this.touchAlive(), ALIVE_EVERY_MS);
    this.aliveTimer.unref();
    if (options.fsyncIntervalMs > 0) {
      this.syncTimer = setInterval(() => this.syncSoon(), options.fsyncIntervalMs);
      this.syncTimer.unref();
    }
  }

  /**
   * Writes one chunk of events (eventPayload) and returns once write() has taken it all, or throws
   * JournalWriteError with nothing of the chunk left in the file (a full disk, a failing device).
   */
  write(payload: string, handedBefore: number): void {
    // The payload is encoded once, straight into a buffer kept between writes, after room for the
    // longest head: the head (which holds the byte count) then goes right before it.
    const most = HEAD_ROOM + payload.length * 3;
    const buffer = most <= KEPT_BUFFER_BYTES ? this.scratch(most) : Buffer.allocUnsafe(most);
    const bytes = buffer.write(payload, HEAD_ROOM, 'utf8');
    const end = HEAD_ROOM + bytes;
    const head = `J${bytes} ${crc32(buffer.subarray(HEAD_ROOM, end)).toString(16).padStart(8, '0')}\n`;
    const start = HEAD_ROOM - head.length;
    buffer.write(head, start, 'latin1');
    const segment = this.segmentFor(handedBefore);
    try {
      let written = start;
      while (written < end) written += fs.writeSync(segment.fd, buffer, written, end - written);
      if (this.options.fsyncIntervalMs <= 0) fs.fdatasyncSync(segment.fd);
    } catch (error) {
      // Nothing half-written stays behind: the next chunk starts where this one would have.
      try {
        fs.ftruncateSync(segment.fd, segment.bytes);
      } catch {
        // The replay stops at the cut-off chunk and reports it.
      }
      throw new JournalWriteError(`event journal not written: ${(error as Error).message}`, { cause: error });
    }
    segment.bytes += end - start;
    this.dirty = true;
  }

  /** The buffer kept for writes, grown to hold `bytes`. */
  private scratch(bytes: number): Buffer {
    if (this.kept.length < bytes) this.kept = Buffer.allocUnsafeSlow(2 ** Math.ceil(Math.log2(bytes)));
    return this.kept;
  }

  /** Segments closed before `storedThrough` events were stored: the database holds all their events. */
  deletable(storedThrough: number): string[] {
    return this.closed
      .filter((segment) => segment.handedThrough <= storedThrough && !segment.pinned)
      .map((segment) => segment.file);
  }

  /**
   * Keeps every segment written so far until the next start (which replays them): the writer lost events
   * that were handed to it, and only the journal still has them. Later segments go as usual.
   */
  pinAll(handedThrough: number): void {
    this.rotate(handedThrough);
    for (const segment of this.closed) segment.pinned = true;
  }

  /** Closes the active segment when it is old, so that it can be deleted once its events are stored. */
  rotateIfOld(handedThrough: number): void {
    if (this.active && this.active.bytes > 0 && Date.now() - this.active.openedAt >= this.segmentMs) {
      this.rotate(handedThrough);
    }
  }

  /**
   * Deletes segments whose events the database holds durably, off the event loop: unlinking a full
   * segment can take the kernel over ten milliseconds (freeing its blocks), and every click waiting in
   * that turn would wait as long. A segment a crash leaves undeleted is replayed at the next start, and
   * its events, already stored, are stored once.
   */
  async delete(files: readonly string[]): Promise<void> {
    for (const file of files) {
      const index = this.closed.findIndex((segment) => segment.file === file);
      if (index >= 0) this.closed.splice(index, 1);
    }
    await Promise.all(
      files.map(async (file) => {
        await rm(file, { force: true });
        // Ours until it is gone: another journal of this process replays only segments that are not.
        OWN_SEGMENTS.delete(file);
      }),
    );
  }

  /** Every segment that may go, the active one too: at a graceful close, once everything is stored. */
  closeAll(handedThrough: number): string[] {
    if (this.syncTimer) clearInterval(this.syncTimer);
    this.syncTimer = null;
    clearInterval(this.aliveTimer);
    fs.rmSync(this.aliveFile, { force: true });
    this.rotate(handedThrough, true);
    // Closed for good: what is left of them is the next start's to replay.
    for (const segment of this.closed) OWN_SEGMENTS.delete(segment.file);
    return this.closed.filter((segment) => !segment.pinned).map((segment) => segment.file);
  }

  private segmentFor(handedBefore: number): Segment {
    if (this.active && this.active.bytes >= this.segmentBytes) this.rotate(handedBefore);
    if (!this.active) {
      this.sequence += 1;
      const unique = randomBytes(4).toString('hex');
      const file = path.join(
        this.options.dir,
        `events-${Date.now()}-${process.pid}-${this.sequence}-${unique}.journal`,
      );
      OWN_SEGMENTS.add(file);
      this.active = { file, fd: fs.openSync(file, 'a'), bytes: 0, openedAt: Date.now(), handedThrough: 0 };
      this.syncDirectory();
    }
    return this.active;
  }

  /** `now`: at the last close, the segment is flushed and closed before this returns. */
  private rotate(handedThrough: number, now = false): void {
    const segment = this.active;
    if (!segment) return;
    this.active = null;
    segment.handedThrough = handedThrough;
    this.closed.push(segment);
    if (now) {
      try {
        fs.fdatasyncSync(segment.fd);
      } catch {
        // As below: what a failed flush loses is what a power loss would.
      }
      fs.closeSync(segment.fd);
      return;
    }
    // Flushed and closed off the event loop; a segment is deleted only after the database is durable.
    fs.fdatasync(segment.fd, () => fs.close(segment.fd, () => undefined));
  }

  private touchAlive(): void {
    try {
      fs.writeFileSync(this.aliveFile, '');
    } catch {
      // A full disk: the segments' own writes report it.
    }
  }

  /** The directory's entry for a new segment, flushed too: without it a power loss may forget the file. */
  private syncDirectory(): void {
    fs.open(this.options.dir, 'r', (error, fd) => {
      if (error) return;
      fs.fsync(fd, () => fs.close(fd, () => undefined));
    });
  }

  private syncSoon(): void {
    if (!this.dirty || !this.active) return;
    this.dirty = false;
    const { fd } = this.active;
    fs.fdatasync(fd, (error) => {
      if (error && error.code !== 'EBADF') this.options.log.error({ err: error }, 'event journal not flushed to disk');
    });
  }
}

/** Every segment in `dir`, oldest first, with the process that wrote it. */
export function segmentFiles(dir: string): { file: string; pid: number }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const found: { file: string; pid: number; time: number; sequence: number }[] = [];
  for (const name of names) {
    const match = SEGMENT.exec(name);
    if (!match) continue;
    found.push({
      file: path.join(dir, name),
      pid: Number(match[2]),
      time: Number(match[1]),
      sequence: Number(match[3]),
    });
  }
  found.sort((a, b) => a.time - b.time || a.sequence - b.sequence);
  return found.map(({ file, pid }) => ({ file, pid }));
}

/**
 * The segments left by earlier runs in `dir`, oldest first (not those of another live process), each
 * claimed first: renamed as this process's own, which only one process can do. Workers of one primary
 * (and nodes sharing a data directory) that start together never replay the same segment, and a
 * claimed segment of a process that died while replaying it is claimed again by the next.
 */
export function leftSegments(dir: string, log: JournalLog): string[] {
  const left: string[] = [];
  const dead = new Set<number>();
  for (const { file, pid } of segmentFiles(dir)) {
    if (OWN_SEGMENTS.has(file)) continue;
    if (pid !== process.pid && processAlive(pid) && aliveRecently(dir, pid)) {
      log.warn({ file: path.basename(file), pid }, 'event journal segment of another running process left for it');
      continue;
    }
    if (pid === process.pid) {
      left.push(file);
      continue;
    }
    const claimed = path.join(dir, path.basename(file).replace(SEGMENT_PID, `$1${process.pid}-`));
    try {
      fs.renameSync(file, claimed);
    } catch (error) {
      // Another process claimed it first: it is that one's to replay.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    dead.add(pid);
    left.push(claimed);
  }
  for (const pid of dead) fs.rmSync(path.join(dir, `alive-${pid}`), { force: true });
  return left;
}

function aliveRecently(dir: string, pid: number): boolean {
  try {
    return Date.now() - fs.statSync(path.join(dir, `alive-${pid}`)).mtimeMs < ALIVE_FOR_MS;
  } catch {
    return false;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The events of one segment, one chunk's payload (eventPayload) at a time, read up to its last whole
 * chunk; a cut-off or damaged tail is reported to `log`. Yields nothing for a file that cannot be read
 * (logged).
 */
export function* readSegment(file: string, log: JournalLog): Generator<string> {
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (error) {
    log.error({ err: error, file }, 'event journal segment could not be read; left in place');
    return;
  }
  yield* segmentPayloads(data, file, log);
}

/** The payloads of a segment's contents `data` (read from `file`), as readSegment. */
export function* segmentPayloads(data: Buffer, file: string, log: JournalLog): Generator<string> {
  let at = 0;
  while (at < data.length) {
    const chunk = chunkAt(data, at);
    if (typeof chunk === 'string') {
      log.warn(
        { file, at, bytes: data.length - at },
        `event journal cut off (${chunk}): replayed up to its last whole record, the rest is not`,
      );
      return;
    }
    yield data.toString('utf8', chunk.start, chunk.end);
    at = chunk.end;
  }
}

/** Where the chunk at `at` holds its events, or what is wrong with it. */
function chunkAt(data: Buffer, at: number): { start: number; end: number } | string {
  if (data[at] !== 0x4a /* J */) return 'no chunk where one should begin';
  const space = data.indexOf(0x20, at);
  const newline = data.indexOf(0x0a, at);
  if (space < 0 || newline < 0 || newline !== space + 9) return 'a chunk head cut off';
  const bytes = Number(data.toString('latin1', at + 1, space));
  if (!Number.isSafeInteger(bytes) || bytes < 0) return 'a chunk head that is not a length';
  const start = newline + 1;
  const end = start + bytes;
  if (end > data.length) return 'a chunk cut off';
  const crc = Number.parseInt(data.toString('latin1', space + 1, newline), 16);
  if (crc32(data.subarray(start, end)) !== crc) return 'a chunk whose checksum is wrong';
  return { start, end };
}
