import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg viewBox="0 0 32 32" width={size} height={size} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="var(--mantine-color-brand-6)" />
      <path
        d="M7 10h8l4 6h6M7 22h8l4-6"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="25" cy="16" r="2.4" fill="#fff" />
    </svg>
  );
}

/** §2.4: the logo links to /. */
export function Logo() {
  const { t } = useTranslation();
  return (
    // Named by its text, which a phone's width hides: the label keeps the name there too.
    <Anchor component={Link} to="/" className="sy-logo" underline="never" aria-label={t('app.name')}>
      <LogoMark />
      <span className="sy-logo-text">{t('app.name')}</span>
    </Anchor>
  );
}
