import { useTranslation } from 'react-i18next';

/** The 500 image of §2.2: a server rack with a warning sign. */
export function ServerErrorIllustration() {
  const { t } = useTranslation();
  return (
    <svg viewBox="0 0 240 160" width="240" height="160" role="img" aria-label={t('errors.serverError')}>
      <ellipse cx="120" cy="146" rx="92" ry="8" fill="var(--mantine-color-gray-2)" />
      <rect x="62" y="22" width="116" height="116" rx="10" fill="var(--mantine-color-brand-1)" />
      {[34, 68, 102].map((y) => (
        <g key={y}>
          <rect x="74" y={y} width="92" height="26" rx="5" fill="var(--mantine-color-white)" />
          <circle cx="88" cy={y + 13} r="4" fill="var(--mantine-color-brand-4)" />
          <rect x="100" y={y + 10} width="52" height="6" rx="3" fill="var(--mantine-color-gray-3)" />
        </g>
      ))}
      <path
        d="M172 64 L204 120 L140 120 Z"
        fill="var(--mantine-color-red-6)"
        stroke="var(--mantine-color-white)"
        strokeWidth="4"
        strokeLinejoin="round"
      />
      <rect x="169" y="82" width="6" height="20" rx="3" fill="var(--mantine-color-white)" />
      <circle cx="172" cy="110" r="3.5" fill="var(--mantine-color-white)" />
    </svg>
  );
}
