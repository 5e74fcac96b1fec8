import { Badge, Group, Input, Stack, Switch, Text } from '@mantine/core';
import { type ConditionTrace, trafficShares } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { ConditionBuilder, ConditionLabel } from '../../condition-builder';
import { useSimulationMarks } from '../../simulation/SimulationMarks';
import { GroupStatus } from '../../simulation/Verdict';
import { Repeater } from '../Repeater';
import { TrimmedTextInput } from '../TrimmedTextInput';
import { ExpandToggle } from './ExpandToggle';
import { OptimizeFields } from './OptimizeFields';
import { usePathGroupsContext } from './PathGroupsContext';
import { PathBody, PathHeader } from './PathRow';
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
  /** Messages inside this group, keyed below it (`name`, `paths.0.weight`). */
  fieldErrors?: Record<string, string>;
}

/** Whether the group's fields are open: as toggled or as it started (§4); always while one holds a message. */
function useGroupExpanded(group: PathGroup, fieldErrors: Record<string, string> | undefined) {
  const { isOpen, setOpen, isNew, idPrefix } = usePathGroupsContext();
  // A message inside a closed group would go unseen: the group opens while it has one.
  const expanded = isOpen(group.id, () => pathGroupStartsExpanded(group, isNew(group.id))) || fieldErrors !== undefined;
  return { expanded, toggle: () => setOpen(group.id, !expanded), bodyId: `${idPrefix}-group-${group.id}` };
}

/** How the last simulated visitor fared in this group, when the editor holds a simulation. */
function useSimulatedGroup(group: PathGroup) {
  const marks = useSimulationMarks();
  const simulated = marks?.answer.groups.find((candidate) => candidate.id === group.id);
  return { simulated, chosen: simulated !== undefined && marks?.answer.path_group?.id === group.id };
}

/** Long names break anywhere rather than push the row's buttons off screen. */
const WRAP_ANYWHERE = { overflowWrap: 'anywhere' } as const;

/**
 * The first line of a path group (§2.8, §3.3): its name, status, the "all offers disabled" notice and its
 * condition read as one line, beside the button that opens its fields.
 */
export function PathGroupHeader({ group, position, fieldErrors }: PathGroupRowProps) {
  const { t } = useTranslation();
  const { flowType, offerEnabled } = usePathGroupsContext();
  const { expanded, toggle, bodyId } = useGroupExpanded(group, fieldErrors);
  const title = group.name || t('controls:pathGroups.untitledGroup', { position });
  const noticeAllDisabled = allOffersDisabled(group, offerEnabled);
  const { simulated, chosen } = useSimulatedGroup(group);

  return (
    <Group
      gap="xs"
      wrap="nowrap"
      align="flex-start"
      data-simulated={simulated ? (chosen ? 'chosen' : 'tested') : undefined}
      // The group the simulated visitor went to stands out, as in the simulator's own list.
      style={
        chosen
          ? { background: 'var(--mantine-color-teal-light)', borderRadius: 'var(--mantine-radius-sm)', padding: 4 }
          : undefined
      }
    >
      <ExpandToggle
        expanded={expanded}
        onToggle={toggle}
        label={t('controls:pathGroups.details', { name: title })}
        controls={bodyId}
      />
      <Stack gap={2} style={{ flex: 1, minInlineSize: 0 }}>
        <Group gap="xs" wrap="wrap">
          <Text fw={600} size="sm" data-testid="path-group-name" style={WRAP_ANYWHERE}>
            {title}
          </Text>
          <Badge size="sm" variant="light" color={group.enabled ? 'teal' : 'gray'}>
            {group.enabled ? t('controls:pathGroups.enabled') : t('controls:pathGroups.disabled')}
          </Badge>
          {group.optimize === 'on' && (
            <Badge size="sm" variant="light" color="violet">
              {t('optimization:badge')}
            </Badge>
          )}
          {noticeAllDisabled && (
            <Badge size="sm" variant="light" color="orange">
              {t('controls:pathGroups.allOffersDisabled')}
            </Badge>
          )}
          <Text size="xs" c="dimmed">
            {t('controls:pathGroups.pathCount', { count: group.paths.length })}
          </Text>
          {simulated && <GroupStatus group={simulated} />}
        </Group>
        <ConditionLabel
          value={group.condition}
          flowType={flowType}
          size="xs"
          c="dimmed"
          data-testid="path-group-condition"
          style={WRAP_ANYWHERE}
        />
      </Stack>
    </Group>
  );
}

/**
 * A path group's fields, under its first line across the whole row: name, switch, the condition builder
 * and the paths, each path with its share of the group's traffic.
 */
export function PathGroupBody({
  group,
  position,
  update,
  fieldErrors,
}: PathGroupRowProps & { update: (group: PathGroup) => void }) {
  const { t } = useTranslation();
  const { flowType, offers, disabled, markNew } = usePathGroupsContext();
  const { expanded, bodyId } = useGroupExpanded(group, fieldErrors);
  const title = group.name || t('controls:pathGroups.untitledGroup', { position });
  const shares = trafficShares(group.paths);
  const { simulated } = useSimulatedGroup(group);
  if (!expanded) return null;

  const createPath = (): Path => {
    const path = flowType === 'tracker' ? createTrackerPath() : createApiPath(offers[0]);
    markNew(path.id);
    return path;
  };
  const pathErrors = (index: number) => errorsUnder(fieldErrors, `paths.${index}`);

  return (
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
          style={{ flex: 1, minInlineSize: 'min(12rem, 100%)' }}
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
            // The answer's trace is the one domain traceCondition made; its schema only loosens its type.
            trace={simulated?.condition_trace as ConditionTrace | undefined}
          />
        </div>
      </Input.Wrapper>
      <OptimizeFields group={group} update={update} fieldErrors={fieldErrors} />
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
            rowTestId="path"
            renderRow={(path, index) => (
              <PathHeader
                path={path}
                position={index + 1}
                share={shares[index] ?? null}
                fieldErrors={pathErrors(index)}
              />
            )}
            renderBody={(path, index, updatePath) => (
              <PathBody path={path} update={updatePath} share={shares[index] ?? null} fieldErrors={pathErrors(index)} />
            )}
          />
        </div>
      </Input.Wrapper>
    </Stack>
  );
}
