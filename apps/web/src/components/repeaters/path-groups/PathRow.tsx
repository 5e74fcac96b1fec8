import { Badge, Box, Group, NumberInput, Select, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { REDIRECT_MODES } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { SelectOfferControl } from '../../form/controls/SelectOfferControl';
import { TrimmedTextInput } from '../TrimmedTextInput';
import { ExpandToggle } from './ExpandToggle';
import { usePathGroupsContext } from './PathGroupsContext';
import { type ApiPath, type Path, pathStartsExpanded, type TrackerPath } from './pathGroupRows';
import { LanderRows, OfferRows } from './RouteRows';
import { TrafficShare } from './TrafficShare';

interface PathRowProps {
  path: Path;
  /** This path's share of its group's traffic (`trafficShares`); null when it is disabled. */
  share: number | null;
  /** Messages inside this path (`weight`, `offers.0.offer_external_id`). */
  fieldErrors?: Record<string, string>;
}

/** Empty reads as 0: caps and weights are whole numbers the server requires. */
const wholeNumber = (value: number | string) => (typeof value === 'number' ? value : Number(value) || 0);

/** Whether the path's fields are open: as toggled or as it started (§4); always while one holds a message. */
function usePathExpanded(path: Path, fieldErrors: Record<string, string> | undefined) {
  const { isOpen, setOpen, isNew, idPrefix } = usePathGroupsContext();
  const expanded = isOpen(path.id, () => pathStartsExpanded(path, isNew(path.id))) || fieldErrors !== undefined;
  return { expanded, toggle: () => setOpen(path.id, !expanded), bodyId: `${idPrefix}-path-${path.id}` };
}

/** The first line of a path (§3.4): name, status, weight and what it sends to, and its share of the group. */
export function PathHeader({ path, position, share, fieldErrors }: PathRowProps & { position: number }) {
  const { t } = useTranslation();
  const { offers } = usePathGroupsContext();
  const { expanded, toggle, bodyId } = usePathExpanded(path, fieldErrors);
  const title = path.name || t('controls:pathGroups.untitledPath', { position });
  const isTracker = 'offers' in path;
  const offerName = isTracker
    ? undefined
    : (offers.find((offer) => offer.value === path.offer_external_id)?.label ?? t('controls:pathGroups.noOffer'));

  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <ExpandToggle
        expanded={expanded}
        onToggle={toggle}
        label={t('controls:pathGroups.details', { name: title })}
        controls={bodyId}
      />
      <Group gap="xs" wrap="wrap" style={{ flex: 1, minInlineSize: 0 }} mt={4}>
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Text>
        <Badge size="xs" variant="light" color={path.enabled ? 'teal' : 'gray'}>
          {path.enabled ? t('controls:pathGroups.enabled') : t('controls:pathGroups.disabled')}
        </Badge>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {isTracker
            ? t('controls:pathGroups.trackerPathSummary', {
                weight: path.weight,
                offers: path.offers.length,
                landers: path.landers.length,
              })
            : t('controls:pathGroups.apiPathSummary', { weight: path.weight, offer: offerName })}
        </Text>
        <TrafficShare share={share} hint={t('controls:pathGroups.pathShareHint')} />
      </Group>
    </Group>
  );
}

/** A path's fields (§3.4), under its first line: name, weight with its share, caps and subaff, then where it sends. */
export function PathBody({ path, share, update, fieldErrors }: PathRowProps & { update: (path: Path) => void }) {
  const { t } = useTranslation();
  const { disabled } = usePathGroupsContext();
  const { expanded, bodyId } = usePathExpanded(path, fieldErrors);
  if (!expanded) return null;
  const isTracker = 'offers' in path;

  return (
    <Stack gap="xs" id={bodyId}>
      {/* The offer on a line of its own, as wide as the path, so its name reads whole. */}
      {!isTracker && <ApiPathOffer path={path} update={update} error={fieldErrors?.offer_external_id} />}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 5 }} spacing="xs">
        <TrimmedTextInput
          size="xs"
          label={t('controls:pathGroups.pathName')}
          value={path.name}
          onChange={(name) => update({ ...path, name })}
          error={fieldErrors?.name}
          maxLength={255}
          disabled={disabled}
        />
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <NumberInput
            size="xs"
            label={t('controls:pathGroups.weight')}
            value={path.weight}
            onChange={(weight) => update({ ...path, weight: wholeNumber(weight) })}
            error={fieldErrors?.weight}
            min={0}
            allowDecimal={false}
            disabled={disabled}
            style={{ flex: 1, minInlineSize: 0 }}
          />
          <Box mb={6}>
            <TrafficShare share={share} hint={t('controls:pathGroups.pathShareHint')} />
          </Box>
        </Group>
        <TrimmedTextInput
          size="xs"
          label={t('controls:pathGroups.subaff')}
          value={path.subaff}
          onChange={(subaff) => update({ ...path, subaff })}
          error={fieldErrors?.subaff}
          maxLength={255}
          disabled={disabled}
        />
        {isTracker && (
          <Select
            size="xs"
            label={t('delivery:fields.path_redirect_mode')}
            data={[
              { value: '', label: t('delivery:fields.campaign_mode') },
              ...REDIRECT_MODES.map((mode) => ({ value: mode, label: t(`delivery:modes.${mode}.label`) })),
            ]}
            value={(path as TrackerPath).redirect_mode ?? ''}
            onChange={(mode) =>
              update({ ...path, redirect_mode: mode ? (mode as TrackerPath['redirect_mode']) : null })
            }
            error={fieldErrors?.redirect_mode}
            allowDeselect={false}
            disabled={disabled}
          />
        )}
        {/* Regs Daily Cap counts API leads only; a tracker click never takes from it. */}
        {!isTracker && (
          <NumberInput
            size="xs"
            label={t('controls:pathGroups.dailyCap')}
            value={path.daily_cap}
            onChange={(cap) => update({ ...path, daily_cap: wholeNumber(cap) })}
            error={fieldErrors?.daily_cap}
            min={0}
            allowDecimal={false}
            disabled={disabled}
          />
        )}
        <NumberInput
          size="xs"
          label={t('controls:pathGroups.postbackDailyCap')}
          value={path.postback_daily_cap}
          onChange={(cap) => update({ ...path, postback_daily_cap: wholeNumber(cap) })}
          error={fieldErrors?.postback_daily_cap}
          min={0}
          allowDecimal={false}
          disabled={disabled}
        />
      </SimpleGrid>
      <Switch
        size="sm"
        label={t('controls:pathGroups.pathEnabled')}
        checked={path.enabled}
        onChange={(event) => update({ ...path, enabled: event.currentTarget.checked })}
        disabled={disabled}
      />
      {isTracker && <TrackerPathRoutes path={path} update={update} fieldErrors={fieldErrors} />}
    </Stack>
  );
}

/** §4: choosing an offer sets the path's enabled flag from the offer's, in the same change as the choice. */
function ApiPathOffer({ path, update, error }: { path: ApiPath; update: (path: Path) => void; error?: string }) {
  const { t } = useTranslation();
  const { offerEnabled, disabled } = usePathGroupsContext();
  return (
    <SelectOfferControl
      element={{ name: 'offer_external_id', type: 'select-offer', input: { size: 'xs' } }}
      value={path.offer_external_id || null}
      onChange={(chosen) => {
        const offer = typeof chosen === 'string' ? chosen : '';
        update({ ...path, offer_external_id: offer, enabled: offerEnabled(offer) ?? path.enabled });
      }}
      label={t('controls:pathGroups.offer')}
      error={error}
      required
      disabled={disabled}
      placeholder={t('controls:pathGroups.chooseOffer')}
    />
  );
}

function TrackerPathRoutes({
  path,
  update,
  fieldErrors,
}: {
  path: TrackerPath;
  update: (path: Path) => void;
  fieldErrors?: Record<string, string>;
}) {
  return (
    <SimpleGrid cols={{ base: 1, xl: 2 }} spacing="sm">
      <OfferRows rows={path.offers} onChange={(offers) => update({ ...path, offers })} fieldErrors={fieldErrors} />
      <LanderRows rows={path.landers} onChange={(landers) => update({ ...path, landers })} fieldErrors={fieldErrors} />
    </SimpleGrid>
  );
}
