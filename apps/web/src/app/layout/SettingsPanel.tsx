import { Drawer, Radio, SegmentedControl, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LAYOUT_WIDTHS, LAYOUTS, type LayoutSettings, SIDEBAR_STYLES, TOPBAR_STYLES } from '../settings/layoutSettings';
import { useLayoutSettings } from '../settings/useLayoutSettings';

interface ChoiceProps<K extends keyof LayoutSettings> {
  setting: K;
  choices: readonly LayoutSettings[K][];
  label: string;
  hint?: string;
  disabled?: boolean;
}

function Choice<K extends keyof LayoutSettings>({ setting, choices, label, hint, disabled }: ChoiceProps<K>) {
  const { t } = useTranslation();
  const { settings, update } = useLayoutSettings();
  return (
    <Radio.Group
      label={label}
      description={hint}
      value={settings[setting]}
      onChange={(value) => update({ [setting]: value } as Partial<LayoutSettings>)}
    >
      <Stack gap={6} mt={8}>
        {choices.map((choice) => (
          <Radio key={choice} value={choice} label={t(`settings.${choice}`)} disabled={disabled} />
        ))}
      </Stack>
    </Radio.Group>
  );
}

/** §2.4: the right-hand settings panel; every choice is remembered in local storage. */
export function SettingsPanel() {
  const { t } = useTranslation();
  const { settings, update, panelOpened, closePanel } = useLayoutSettings();
  const vertical = settings.layout === 'vertical';
  return (
    <Drawer
      opened={panelOpened}
      onClose={closePanel}
      position="right"
      size={300}
      title={<Text fw={600}>{t('settings.title')}</Text>}
      closeButtonProps={{ 'aria-label': t('notify.close') }}
    >
      <Stack gap="lg">
        <div>
          <Text size="sm" fw={500} mb={6}>
            {t('settings.layout')}
          </Text>
          <SegmentedControl
            fullWidth
            value={settings.layout}
            onChange={(value) => update({ layout: value as LayoutSettings['layout'] })}
            data={LAYOUTS.map((value) => ({ value, label: t(`settings.${value}`) }))}
            aria-label={t('settings.layout')}
          />
        </div>
        <Choice setting="width" choices={LAYOUT_WIDTHS} label={t('settings.width')} />
        <Choice
          setting="sidebar"
          choices={SIDEBAR_STYLES}
          label={t('settings.sidebar')}
          hint={t('settings.sidebarHint')}
          disabled={!vertical}
        />
        <Choice
          setting="topbar"
          choices={TOPBAR_STYLES}
          label={t('settings.topbar')}
          hint={t('settings.topbarHint')}
          disabled={vertical}
        />
      </Stack>
    </Drawer>
  );
}
