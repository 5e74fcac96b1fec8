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

/**
 * Sanitized HTML; content with no text and no image (`<p><br></p>`, what an emptied editor sends)
 * becomes '' (§2.6: empty content counts as an empty string).
 */
export function sanitizeRichText(html: string): string {
  const clean = sanitizeHtml(html, RICH_TEXT_OPTIONS).trim();
  const text = sanitizeHtml(clean, { allowedTags: [], allowedAttributes: {} }).replace(/&nbsp;|\s/g, '');
  if (text === '' && !/<img\b/i.test(clean)) return '';
  return clean;
}
