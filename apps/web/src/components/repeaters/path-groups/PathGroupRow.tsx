import { Badge, Group, Input, Stack, Switch, Text } from '@mantine/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConditionBuilder, ConditionLabel } from '../../condition-builder';
import { Repeater } from '../Repeater';
import { TrimmedTextInput } from '../TrimmedTextInput';
import { ExpandToggle } from './ExpandToggle';
import { usePathGroupsContext } from './PathGroupsContext';
import { PathRow } from './PathRow';
import {
  allOffersDisabled,
  createApiPath,
  createTrackerPath,
  duplicatePath,
  errorsUnder,
  type Path,
  type PathGroup,
  pathGroupStartsExpanded,
} from './pathGroupRows';

interface PathGroupRowProps {
  group: PathGroup;
  /** 1-based, as the labels say it. */
  position: number;
  update: (group: PathGroup) => void;
  /** Messages inside this group, keyed below it (`name`, `paths.0.weight`). */
  fieldErrors?: Record<string, string>;
}

/**
 * One path group (§2.8, §3.3). The header always shows its name, status, the "all offers disabled" notice
 * and its condition read as one line; the fields, the condition builder and the paths open below it.
 */
export function PathGroupRow({ group, position, update, fieldErrors }: PathGroupRowProps) {
  const { t } = useTranslation();
  const { flowType, offers, offerEnabled, disabled, isNew, markNew } = usePathGroupsContext();
  const [opened, setOpened] = useState(() => pathGroupStartsExpanded(group, isNew(group.id)));
  // A message inside a closed group would go unseen: the group opens while it has one.
  const expanded = opened || fieldErrors !== undefined;
  const bodyId = useId();
  const title = group.name || t('controls:pathGroups.untitledGroup', { position });
  const noticeAllDisabled = allOffersDisabled(group, offerEnabled);

  const createPath = (): Path => {
    const path = flowType === 'tracker' ? createTrackerPath() : createApiPath(offers[0]);
    markNew(path.id);
    return path;
  };

  return (
    <Stack gap="xs" data-testid="path-group">
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <ExpandToggle
          expanded={expanded}
          onToggle={() => setOpened(!expanded)}
          label={t('controls:pathGroups.details', { name: title })}
          controls={bodyId}
        />
        <Stack gap={2} style={{ flex: 1, minInlineSize: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={600} size="sm" data-testid="path-group-name">
              {title}
            </Text>
            <Badge size="sm" variant="light" color={group.enabled ? 'teal' : 'gray'}>
              {group.enabled ? t('controls:pathGroups.enabled') : t('controls:pathGroups.disabled')}
            </Badge>
            {noticeAllDisabled && (
              <Badge size="sm" variant="light" color="orange">
                {t('controls:pathGroups.allOffersDisabled')}
              </Badge>
            )}
            <Text size="xs" c="dimmed">
              {t('controls:pathGroups.pathCount', { count: group.paths.length })}
            </Text>
          </Group>
          <ConditionLabel
            value={group.condition}
            flowType={flowType}
            size="xs"
            c="dimmed"
            data-testid="path-group-condition"
          />
        </Stack>
      </Group>
      {expanded && (
        <Stack gap="sm" id={bodyId}>
          <Group gap="sm" align="flex-end" wrap="wrap">
            <TrimmedTextInput
              size="xs"
              label={t('controls:pathGroups.groupName')}
              value={group.name}
              onChange={(name) => update({ ...group, name })}
              error={fieldErrors?.name}
              maxLength={255}
              disabled={disabled}
              style={{ flex: 1, minInlineSize: '12rem' }}
            />
            <Switch
              size="sm"
              mb={6}
              label={t('controls:pathGroups.groupEnabled')}
              checked={group.enabled}
              onChange={(event) => update({ ...group, enabled: event.currentTarget.checked })}
              disabled={disabled}
            />
          </Group>
          <Input.Wrapper labelElement="div" label={t('controls:pathGroups.condition')} error={fieldErrors?.condition}>
            <div style={{ marginBlockStart: 'var(--mantine-spacing-xs)' }}>
              <ConditionBuilder
                value={group.condition}
                onChange={(condition) => update({ ...group, condition })}
                flowType={flowType}
                disabled={disabled}
              />
            </div>
          </Input.Wrapper>
          <Input.Wrapper labelElement="div" label={t('controls:pathGroups.paths')} error={fieldErrors?.paths}>
            <div style={{ marginBlockStart: 'var(--mantine-spacing-xs)' }}>
              <Repeater<Path>
                rows={group.paths}
                onChange={(paths) => update({ ...group, paths })}
                createRow={createPath}
                duplicateRow={(path) => {
                  const copy = duplicatePath(path);
                  markNew(copy.id);
                  return copy;
                }}
                label={t('controls:pathGroups.pathsOf', { name: title })}
                addLabel={t('controls:pathGroups.addPath')}
                emptyText={t('controls:pathGroups.emptyPaths')}
                disabled={disabled}
                renderRow={(path, index, updatePath) => (
                  <PathRow
                    path={path}
                    position={index + 1}
                    update={updatePath}
                    fieldErrors={errorsUnder(fieldErrors, `paths.${index}`)}
                  />
                )}
              />
            </div>
          </Input.Wrapper>
        </Stack>
      )}
    </Stack>
  );
}
