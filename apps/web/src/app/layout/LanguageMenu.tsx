import { ActionIcon, Menu } from '@mantine/core';
import { LANGUAGES } from '@switchyard/domain';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, directionOf, LANGUAGE_NAMES } from '../../i18n';

/** §2.4: switches the interface language; each language is listed under its own name. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          className="sy-topbar-action"
          aria-label={t('topbar.language')}
        >
          <IconLanguage size={20} stroke={1.6} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {LANGUAGES.map((language) => (
          <Menu.Item
            key={language}
            lang={language}
            dir={directionOf(language)}
            onClick={() => void changeLanguage(language)}
            rightSection={i18n.language === language ? <IconCheck size={14} aria-hidden /> : null}
          >
            {LANGUAGE_NAMES[language]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
