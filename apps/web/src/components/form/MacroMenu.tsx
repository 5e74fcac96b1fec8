import { Button, NavLink, Popover, ScrollArea, SimpleGrid, Stack, Text } from '@mantine/core';
import { macroToken, URL_MACROS, UTM_MACRO_PREFIX } from '@switchyard/domain';
import { IconBraces } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** What the list shows for `utm_…`: one example, since any `utm_` parameter of the click is a macro. */
const UTM_EXAMPLE = `${UTM_MACRO_PREFIX}source`;

/** Each macro of the list with its description's i18n key and values. */
function macroEntries(): { name: string; key: string; values?: Record<string, unknown> }[] {
  return [
    ...URL_MACROS.map((name) => {
      const varNumber = /^var(\d+)$/.exec(name)?.[1];
      return varNumber
        ? { name, key: 'controls:controls.macros.about.var', values: { number: varNumber } }
        : { name, key: `controls:controls.macros.about.${name}` };
    }),
    { name: UTM_EXAMPLE, key: 'controls:controls.macros.about.utm' },
  ];
}

export interface MacroMenuProps {
  /** Called with `{name}` when a macro is chosen; the field puts it at its cursor. */
  onInsert: (token: string) => void;
  disabled?: boolean;
}

/**
 * "Macros" under a URL field: every macro the engine fills (`URL_MACROS` of the
 * domain, the server's own list), each a button that inserts it into the field.
 */
export function MacroMenu({ onInsert, disabled }: MacroMenuProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <div>
      <Popover opened={opened} onChange={setOpened} position="bottom-start" shadow="md" width={460} withinPortal>
        <Popover.Target>
          <Button
            variant="subtle"
            size="compact-xs"
            mt={4}
            leftSection={<IconBraces size={14} aria-hidden />}
            onClick={() => setOpened((open) => !open)}
            disabled={disabled}
            aria-expanded={opened}
          >
            {t('controls:controls.macros.button')}
          </Button>
        </Popover.Target>
        <Popover.Dropdown maw="calc(100vw - 24px)">
          <Stack gap="xs">
            <Text size="xs">{t('controls:controls.macros.intro')}</Text>
            <ScrollArea.Autosize mah={320} type="auto" offsetScrollbars>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={4} verticalSpacing={4}>
                {macroEntries().map(({ name, key, values }) => (
                  <NavLink
                    key={name}
                    component="button"
                    type="button"
                    onClick={() => {
                      onInsert(macroToken(name));
                      setOpened(false);
                    }}
                    aria-label={t('controls:controls.macros.insert', { macro: macroToken(name) })}
                    label={
                      <Text size="sm" ff="monospace" dir="ltr" span>
                        {macroToken(name)}
                      </Text>
                    }
                    description={t(key, values)}
                    py={4}
                  />
                ))}
              </SimpleGrid>
            </ScrollArea.Autosize>
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </div>
  );
}

/**
 * `text` with `token` put in place of its selection `[start, end)` (the end of the text without one), as
 * typing it there would.
 */
export function insertAt(text: string, token: string, start: number | null, end: number | null): string {
  const from = start ?? text.length;
  const to = end ?? from;
  return text.slice(0, from) + token + text.slice(to);
}
