import { type BoxProps, Typography } from '@mantine/core';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';

export interface SafeHtmlProps extends BoxProps {
  /** Stored HTML, e.g. an offer description from the rich-text editor. */
  html: string | null | undefined;
}

/** Shows stored HTML after DOMPurify has stripped anything that could run (scripts, `on…` handlers, `javascript:` links). */
export function SafeHtml({ html, ...boxProps }: SafeHtmlProps) {
  const clean = useMemo(() => DOMPurify.sanitize(html ?? ''), [html]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by DOMPurify just above.
  return <Typography {...boxProps} dangerouslySetInnerHTML={{ __html: clean }} />;
}
