import { ActionIcon, Badge, Box, Button, Group, Stack, Text } from '@mantine/core';
import { IconFolderPlus, IconPlus, IconTrash } from '@tabler/icons-react';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import {
  appendChild,
  type BuilderGroup,
  emptyRule,
  type NodePath,
  newGroup,
  removeNode,
  updateGroup,
} from './builderTree';
import { useConditionBuilderContext } from './ConditionBuilderContext';
import { ConditionRule } from './ConditionRule';
import { SimulationMark } from './SimulationMark';

interface ConditionGroupProps {
  group: BuilderGroup;
  path: NodePath;
  /** The top group is depth 1. */
  depth: number;
}

/**
 * A group of §2.7: Not/And/Or toggles (disabled while it is empty), add rule, add group (up to the depth
 * limit), delete (not for the top group), its children, and "All Condition" when the top group is empty.
 * Nested groups are indented on the inline-start side, so they mirror in right-to-left languages.
 */
export function ConditionGroup({ group, path, depth }: ConditionGroupProps) {
  const { t } = useTranslation();
  const { root, change, fields, maxDepth, disabled } = useConditionBuilderContext();
  const empty = group.children.length === 0;
  const atLimit = depth >= maxDepth;
  const operatorText = (condition: 'AND' | 'OR') =>
    t(`controls:conditionBuilder.${condition === 'AND' ? 'and' : 'or'}`);
  const firstField = fields[0];

  const toggle = (label: string, pressed: boolean, onClick: () => void) => (
    <Button
      size="compact-sm"
      variant={pressed ? 'filled' : 'default'}
      aria-pressed={pressed}
      disabled={empty || disabled}
      onClick={onClick}
    >
      {label}
    </Button>
  );

  return (
    <Box
      role="group"
      aria-label={t('controls:conditionBuilder.group', { depth })}
      data-depth={depth}
      style={
        depth > 1
          ? {
              borderInlineStart: '3px solid var(--mantine-color-brand-3)',
              paddingInlineStart: 'var(--mantine-spacing-sm)',
              marginInlineStart: 'var(--mantine-spacing-xs)',
            }
          : undefined
      }
    >
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <SimulationMark id={group.id} />
            {toggle(t('controls:conditionBuilder.not'), group.not, () =>
              change(updateGroup(root, path, { not: !group.not })),
            )}
            <Button.Group aria-label={t('controls:conditionBuilder.operator')}>
              {toggle(operatorText('AND'), group.condition === 'AND', () =>
                change(updateGroup(root, path, { condition: 'AND' })),
              )}
              {toggle(operatorText('OR'), group.condition === 'OR', () =>
                change(updateGroup(root, path, { condition: 'OR' })),
              )}
            </Button.Group>
          </Group>
          {!disabled && (
            <Group gap="xs">
              <Button
                size="compact-sm"
                variant="light"
                leftSection={<IconPlus size={14} aria-hidden />}
                disabled={!firstField}
                onClick={() => firstField && change(appendChild(root, path, emptyRule(firstField)))}
              >
                {t('controls:conditionBuilder.addRule')}
              </Button>
              <Button
                size="compact-sm"
                variant="light"
                leftSection={<IconFolderPlus size={14} aria-hidden />}
                disabled={atLimit}
                title={atLimit ? t('controls:conditionBuilder.depthLimit', { max: maxDepth }) : undefined}
                onClick={() => change(appendChild(root, path, newGroup()))}
              >
                {t('controls:conditionBuilder.addGroup')}
              </Button>
              {depth > 1 && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="md"
                  aria-label={t('controls:conditionBuilder.deleteGroup')}
                  title={t('controls:conditionBuilder.deleteGroup')}
                  onClick={() => change(removeNode(root, path))}
                >
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              )}
            </Group>
          )}
        </Group>
        {empty ? (
          <Text size="sm" c={depth === 1 ? undefined : 'dimmed'} fw={depth === 1 ? 500 : undefined}>
            {depth === 1 ? t('controls:conditionBuilder.allCondition') : t('controls:conditionBuilder.emptyGroup')}
          </Text>
        ) : (
          <Stack gap={6}>
            {group.children.map((child, index) => (
              <Fragment key={child.id}>
                {index > 0 && (
                  <Badge variant="light" color={group.condition === 'OR' ? 'orange' : 'brand'} size="sm" aria-hidden>
                    {operatorText(group.condition)}
                  </Badge>
                )}
                {child.type === 'group' ? (
                  <ConditionGroup group={child} path={[...path, index]} depth={depth + 1} />
                ) : (
                  <ConditionRule rule={child} path={[...path, index]} />
                )}
              </Fragment>
            ))}
          </Stack>
        )}
        {atLimit && !disabled && (
          <Text size="xs" c="dimmed">
            {t('controls:conditionBuilder.depthLimit', { max: maxDepth })}
          </Text>
        )}
      </Stack>
    </Box>
  );
}
