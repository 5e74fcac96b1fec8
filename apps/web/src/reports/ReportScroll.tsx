import type { ReactNode } from 'react';

/**
 * A wide table's own sideways scroll (at a phone's width): a named region that takes the keyboard's focus,
 * so it can be scrolled without a mouse.
 */
export function ReportScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
    <section className="sy-report-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
