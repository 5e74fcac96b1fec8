// The static files a landing page is made of, by extension. Nothing else is stored, and nothing
// stored is ever run on the server: a lander is served as bytes with its content type, and PHP (the usual
// "lander with a backend") is refused outright with a message saying so.

const TEXT = 'charset=utf-8';

/** Extension (lower case, no dot) → content type. */
const STATIC_TYPES: Readonly<Record<string, string>> = {
  html: `text/html; ${TEXT}`,
  htm: `text/html; ${TEXT}`,
  css: `text/css; ${TEXT}`,
  js: `text/javascript; ${TEXT}`,
  mjs: `text/javascript; ${TEXT}`,
  json: `application/json; ${TEXT}`,
  map: `application/json; ${TEXT}`,
  txt: `text/plain; ${TEXT}`,
  xml: `application/xml; ${TEXT}`,
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  eot: 'application/vnd.ms-fontobject',
  mp4: 'video/mp4',
  webm: 'video/webm',
  ogv: 'video/ogg',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
};

/** Files the editor may change, and whose `{offer}` and macros are filled when served (HTML only). */
const TEXT_EXTENSIONS = new Set(['html', 'htm', 'css', 'js', 'mjs', 'json', 'map', 'txt', 'xml', 'svg']);
const HTML_EXTENSIONS = new Set(['html', 'htm']);
const PHP = /^(php\d?|phtml|phar|phps)$/;

function extension(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export type FileKind = { ok: true; contentType: string } | { ok: false; php: boolean };

export function fileKind(path: string): FileKind {
  const ext = extension(path);
  const type = STATIC_TYPES[ext];
  if (type) return { ok: true, contentType: type };
  return { ok: false, php: PHP.test(ext) };
}

export function isTextFile(path: string): boolean {
  return TEXT_EXTENSIONS.has(extension(path));
}

export function isHtmlFile(path: string): boolean {
  return HTML_EXTENSIONS.has(extension(path));
}

/** What archivers add beside the files (macOS resource forks, Finder and Explorer metadata): left out. */
export function isArchiverJunk(path: string): boolean {
  return (
    path.startsWith('__MACOSX/') ||
    /(^|\/)\.DS_Store$/.test(path) ||
    /(^|\/)Thumbs\.db$/i.test(path) ||
    /(^|\/)desktop\.ini$/i.test(path)
  );
}
