import { Checkbox, Fieldset, Input, Stack, Table } from '@mantine/core';
import {
  covers,
  normalizePermissions,
  PERMISSION_CATALOGUE,
  permissionString,
  ROOT_PERMISSION,
  SECTIONS,
  type Section,
} from '@switchyard/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The action columns, in this order, of each section's table: only those one of its resources has. */
const ACTION_ORDER = ['get', 'create', 'update', 'archive', 'money'] as const;

function actionsOf(section: Section): string[] {
  const held = new Set(Object.values(PERMISSION_CATALOGUE[section]).flatMap((actions): string[] => [...actions]));
  return ACTION_ORDER.filter((action) => held.has(action));
}

export interface PermissionChecklistProps {
  /** The permission strings held (§6), as the API takes them. */
  value: readonly string[];
  onChange: (value: string[]) => void;
  label?: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  disabled?: boolean;
  /** Only these (and what they cover) can be ticked: an API token's choice among its user's own rights. */
  grantable?: readonly string[];
}

/**
 * §6's permissions as labelled checkboxes: everything, each section, and per section a table
 * of its resources, the whole resource or each action. What a checked box above grants shows checked
 * and locked below it; the value keeps only the most general strings (`normalizePermissions`).
 */
export function PermissionChecklist({
  value,
  onChange,
  label,
  description,
  error,
  disabled,
  grantable,
}: PermissionChecklistProps) {
  const { t } = useTranslation('resources');
  const inherited = (permission: string) => value.some((held) => held !== permission && covers(held, permission));

  const box = (permission: string, name: string, shown?: string) => {
    const fromAbove = inherited(permission);
    return (
      <Checkbox
        label={shown}
        aria-label={shown ? undefined : name}
        title={permission}
        checked={fromAbove || value.includes(permission)}
        disabled={
          disabled || fromAbove || (grantable !== undefined && !grantable.some((held) => covers(held, permission)))
        }
        onChange={(event) =>
          onChange(
            event.currentTarget.checked
              ? normalizePermissions([...value, permission])
              : value.filter((held) => held !== permission),
          )
        }
      />
    );
  };

  return (
    <Input.Wrapper label={label} description={description} error={error} labelElement="div">
      <Stack gap="sm" mt="xs" role="group" aria-label={typeof label === 'string' ? label : undefined}>
        {box(ROOT_PERMISSION, t('permissions.root'), t('permissions.root'))}
        {SECTIONS.map((section) => {
          const sectionLabel = t(`permissions.sections.${section}`);
          const actions = actionsOf(section);
          const all = t('permissions.actions.all');
          return (
            <Fieldset key={section} legend={sectionLabel} variant="filled" p="sm">
              {box(
                permissionString(section),
                t('permissions.sectionAll', { section: sectionLabel }),
                t('permissions.sectionAll', { section: sectionLabel }),
              )}
              <Table.ScrollContainer minWidth={420} mt="xs">
                <Table withRowBorders={false} verticalSpacing={4} horizontalSpacing="xs">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('permissions.resource')}</Table.Th>
                      <Table.Th>{all}</Table.Th>
                      {actions.map((action) => (
                        <Table.Th key={action}>{t(`permissions.actions.${action}`)}</Table.Th>
                      ))}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {Object.entries(PERMISSION_CATALOGUE[section]).map(([resource, resourceActions]) => {
                      const resourceLabel = t(`permissions.resources.${resource}`);
                      const name = (action: string) =>
                        t('permissions.checkbox', { section: sectionLabel, resource: resourceLabel, action });
                      const has = new Set<string>(resourceActions);
                      return (
                        <Table.Tr key={resource}>
                          <Table.Td>{resourceLabel}</Table.Td>
                          <Table.Td>{box(permissionString(section, resource), name(all))}</Table.Td>
                          {actions.map((action) => (
                            <Table.Td key={action}>
                              {has.has(action) &&
                                box(
                                  permissionString(section, resource, action),
                                  name(t(`permissions.actions.${action}`)),
                                )}
                            </Table.Td>
                          ))}
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Fieldset>
          );
        })}
      </Stack>
    </Input.Wrapper>
  );
}
