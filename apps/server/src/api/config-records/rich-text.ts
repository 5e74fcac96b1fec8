import sanitizeHtml from 'sanitize-html';

/** What the rich-text editor's toolbar can make (§2.6); anything else is dropped. */
const RICH_TEXT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['b', 'strong', 'i', 'em', 'u', 'a', 'blockquote', 'code', 'pre', 'img', 'ol', 'ul', 'li', 'p', 'br'],
  allowedAttributes: { a: ['href'], img: ['src', 'alt'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/** Relative image URLs are resolved against this stand-in for the dashboard's origin. */
const DASHBOARD_BASE = 'https://dashboard.invalid';

/**
 * Whether an image may stay: a `data:` image, or one from the dashboard's own origin (a relative URL, or
 * an absolute one on `ownOrigin`, SWITCHYARD_PUBLIC_URL's origin). Any other image would be fetched
 * from its host each time an operator opens the record: a tracking pixel on the operator.
 */
function isOwnImage(src: string, ownOrigin: string | undefined): boolean {
  // The URL parser resolves the tricks (`//host`, `/\host`, tabs inside the scheme) as a browser does.
  let url: URL;
  try {
    url = new URL(src, DASHBOARD_BASE);
  } catch {
    return false;
  }
  if (url.protocol === 'data:') return /^image\//i.test(url.pathname);
  return url.origin === new URL(DASHBOARD_BASE).origin || (ownOrigin !== undefined && url.origin === ownOrigin);
}

export interface SanitizedRichText {
  html: string;
  /** The `src` of each image dropped for not being the dashboard's own (in order, repeats kept once). */
  removedImages: string[];
}

/**
 * Sanitized HTML without foreign images; content with no text and no image (`<p><br></p>`, what an
 * emptied editor sends) becomes '' (§2.6: empty content counts as an empty string).
 */
export function sanitizeRichText(html: string, ownOrigin?: string): SanitizedRichText {
  const removed = new Set<string>();
  const clean = sanitizeHtml(html, {
    ...RICH_TEXT_OPTIONS,
    exclusiveFilter: (frame) => {
      if (frame.tag !== 'img') return false;
      const src = frame.attribs.src;
      // An image whose src the schemes above already removed shows nothing and is dropped quietly.
      if (src === undefined || src === '') return true;
      if (isOwnImage(src, ownOrigin)) return false;
      removed.add(src);
      return true;
    },
  }).trim();
  const removedImages = [...removed];
  const text = sanitizeHtml(clean, { allowedTags: [], allowedAttributes: {} }).replace(/&nbsp;|\s/g, '');
  if (text === '' && !/<img\b/i.test(clean)) return { html: '', removedImages };
  return { html: clean, removedImages };
}
