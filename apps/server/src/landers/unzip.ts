// A lander's ZIP unpacked in memory, safely, before anything is written: every name checked
// (no `..`, no absolute path, no link), every file of a static type, at most `maxFiles` files and
// `maxBytes` unpacked. Sizes are the ones counted while inflating: the declared sizes are checked first
// (a cheap refusal of an honest bomb), and yauzl's validateEntrySizes stops an entry the moment it
// inflates past what it declared, so a lying header is caught too.
import { type Entry, fromBuffer, type ZipFile } from 'yauzl';
import type { LanderLimits } from '../config.js';
import { ValidationError } from '../errors.js';
import { fileKind, isArchiverJunk } from './file-types.js';

export interface UnpackedFile {
  path: string;
  contentType: string;
  bytes: Buffer;
}

/** A path a lander may hold: relative, plain segments, printable, and short enough to be a URL. */
export const PATH_MAX = 512;

/** Why `path` cannot name a lander's file, or null when it can. */
export function pathProblem(path: string): string | null {
  if (path.length === 0 || path.length > PATH_MAX)
    return `${path.slice(0, 80)}: a file name of 1 to ${PATH_MAX} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\u007f\\]/.test(path))
    return `${JSON.stringify(path)}: control characters or backslashes in the name`;
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return `${path}: an absolute path is not allowed`;
  const segments = path.split('/');
  if (segments.includes('..')) return `${path}: a path with ".." is not allowed`;
  if (segments.some((segment) => segment === '' || segment === '.')) return `${path}: an empty or "." folder name`;
  return null;
}

/** yauzl's own name checks (it stops at the first), reworded to name the file as ours do. */
function nameError(message: string): string | null {
  const match = /^(absolute path|invalid relative path|invalid characters in fileName): (.*)$/s.exec(message);
  if (!match) return null;
  const [, kind, name] = match;
  if (kind === 'absolute path') return `${name}: an absolute path is not allowed`;
  if (kind === 'invalid relative path') return `${name}: a path with ".." is not allowed`;
  return `${name}: control characters or backslashes in the name`;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function refuse(message: string): never {
  throw new ValidationError({ file: [message] }, 'The ZIP cannot be used as a lander');
}

function open(zip: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true, decodeStrings: true }, (error, file) =>
      error ? reject(error) : resolve(file),
    );
  });
}

function inflate(zipfile: ZipFile, entry: Entry, budget: number, path: string, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, (error, stream) => {
      if (error) return reject(error);
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > budget) {
          stream.destroy();
          reject(new ValidationError({ file: [tooBig(path, maxBytes)] }, 'The ZIP cannot be used as a lander'));
          return;
        }
        chunks.push(chunk);
      });
      // yauzl stops an entry that inflates past its declared size (validateEntrySizes): a lying header.
      stream.on('error', (streamError: Error) =>
        reject(
          /too many bytes/.test(streamError.message)
            ? new ValidationError(
                { file: [`${path}: inflates past the size it declares (a ZIP bomb?)`] },
                'The ZIP cannot be used as a lander',
              )
            : streamError,
        ),
      );
      stream.on('end', () => resolve(Buffer.concat(chunks, size)));
    });
  });
}

function tooBig(path: string, maxBytes: number): string {
  return `${path}: the lander would unpack to more than ${maxBytes} bytes`;
}

/** The ZIP's files, checked; a ValidationError (400, `errors.file` naming the file) for anything refused. */
export async function unpackLander(zip: Buffer, limits: LanderLimits): Promise<UnpackedFile[]> {
  let zipfile: ZipFile;
  try {
    zipfile = await open(zip);
  } catch {
    refuse('The upload is not a readable ZIP file');
  }
  try {
    return await readAll(zipfile, limits);
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const named = nameError(message);
    if (named) refuse(named);
    refuse(`The ZIP is damaged: ${message}`);
  } finally {
    zipfile.close();
  }
}

async function readAll(zipfile: ZipFile, limits: LanderLimits): Promise<UnpackedFile[]> {
  const files: UnpackedFile[] = [];
  const seen = new Set<string>();
  let declared = 0;
  let inflated = 0;
  let entries = 0;
  for (;;) {
    const entry = await new Promise<Entry | null>((resolve, reject) => {
      const onEntry = (next: Entry) => done(next);
      const onEnd = () => done(null);
      const onError = (error: Error) => {
        cleanup();
        reject(error);
      };
      const cleanup = () => {
        zipfile.off('entry', onEntry);
        zipfile.off('end', onEnd);
        zipfile.off('error', onError);
      };
      const done = (value: Entry | null) => {
        cleanup();
        resolve(value);
      };
      zipfile.on('entry', onEntry);
      zipfile.on('end', onEnd);
      zipfile.on('error', onError);
      zipfile.readEntry();
    });
    if (!entry) break;
    const name = entry.fileName;
    // Folders and archivers' extras do not count as files, but a directory of millions of them is refused.
    entries += 1;
    if (entries > limits.maxFiles * 2 + 100)
      refuse(`${name}: the ZIP holds more than ${limits.maxFiles * 2 + 100} entries`);
    const mode = (entry.externalFileAttributes >>> 16) & 0xffff;
    if ((mode & S_IFMT) === S_IFLNK) refuse(`${name}: a symbolic link is not allowed`);
    const problem = pathProblem(name.endsWith('/') ? name.slice(0, -1) || '/' : name);
    if (problem) refuse(problem);
    if (name.endsWith('/') || isArchiverJunk(name)) continue;
    const kind = fileKind(name);
    if (!kind.ok) {
      refuse(
        kind.php
          ? `${name}: PHP landers are refused. PHP is never executed here: a hosted lander is static files only (HTML, CSS, JS, images, fonts)`
          : `${name}: not a static file type a landing page uses (HTML, CSS, JS, JSON, text, images, fonts, SVG, audio or video)`,
      );
    }
    if (entry.isEncrypted()) refuse(`${name}: an encrypted file cannot be read`);
    if (seen.has(name)) refuse(`${name}: the ZIP holds this path twice`);
    seen.add(name);
    if (files.length + 1 > limits.maxFiles) refuse(`${name}: a lander holds at most ${limits.maxFiles} files`);
    declared += entry.uncompressedSize;
    if (declared > limits.maxBytes) refuse(tooBig(name, limits.maxBytes));
    const bytes = await inflate(zipfile, entry, limits.maxBytes - inflated, name, limits.maxBytes);
    inflated += bytes.length;
    files.push({ path: name, contentType: kind.contentType, bytes });
  }
  if (files.length === 0) refuse('The ZIP holds no files');
  // `a` and `a/b` cannot both be files: one would have to be a folder when written out.
  for (const file of files) {
    const segments = file.path.split('/');
    for (let depth = 1; depth < segments.length; depth += 1) {
      const folder = segments.slice(0, depth).join('/');
      if (seen.has(folder)) refuse(`${folder}: a file and a folder of the same name`);
    }
  }
  return withoutCommonFolder(files);
}

/** `site/index.html`, `site/css/a.css` → `index.html`, `css/a.css`: archivers often zip the folder itself. */
function withoutCommonFolder(files: UnpackedFile[]): UnpackedFile[] {
  const first = files[0]!.path.split('/')[0]!;
  if (!files.every((file) => file.path.startsWith(`${first}/`))) return files;
  return files.map((file) => ({ ...file, path: file.path.slice(first.length + 1) }));
}
