import { Group, Stack } from '@mantine/core';
import { getResource } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { useResourceRecord } from '../../api/useResourceRecord';
import { useResourceCan } from '../../components/access/useResourceCan';
import { ResourceEdit } from '../screens/ResourceEdit';
import { resourceScreens } from '../screens/resourceScreens';
import { CampaignCostButton } from './CampaignCostDialog';
import { CampaignCreatedNotice } from './CampaignCreatedNotice';
import { CampaignSimulator } from './simulator/CampaignSimulator';
import type { CampaignKind } from './simulator/useSimulation';
import { useCampaignColumns } from './useCampaignColumns';
import { useCampaignFormElements } from './useCampaignFormElements';
import { useTrackerCampaignUrl } from './useTrackerCampaignUrl';

const campaigns = getResource('campaigns');
const trackerCampaigns = getResource('tracker-campaigns');

const campaignBase = resourceScreens({
  definition: campaigns,
  useColumns: () => useCampaignColumns(campaigns),
  useFormElements: (mode) => useCampaignFormElements(campaigns, mode),
});

/** The "Simulate" tab beside the form and History, once the campaign has its id. */
function useSimulatorTab(kind: CampaignKind, externalId: unknown) {
  const { t } = useTranslation();
  if (typeof externalId !== 'string') return [];
  return [
    {
      value: 'simulate',
      label: t('resources:simulator.tab'),
      panel: <CampaignSimulator kind={kind} campaignId={externalId} />,
    },
  ];
}

function ApiCampaignEdit() {
  const { id } = useParams();
  const record = useResourceRecord(campaigns, id);
  const elements = useCampaignFormElements(campaigns, 'edit');
  const tabs = useSimulatorTab('api', record.data?.external_id);
  return <ResourceEdit definition={campaigns} elements={elements} tabs={tabs} />;
}

/** /admin/campaigns */
export const campaignScreens = { ...campaignBase, Edit: ApiCampaignEdit };

const trackerCampaignBase = resourceScreens({
  definition: trackerCampaigns,
  useColumns: () => useCampaignColumns(trackerCampaigns),
  useFormElements: (mode) => useCampaignFormElements(trackerCampaigns, mode),
});

/**
 * The tracker campaign's edit screen, with "Update cost" for those who may update it. Right
 * after the create, its campaign URL stands above the form with Copy, ready for the source.
 */
function TrackerCampaignEdit() {
  const { id } = useParams();
  const record = useResourceRecord(trackerCampaigns, id);
  const canUpdate = useResourceCan(trackerCampaigns, 'update');
  const justCreated = (useLocation().state as { created?: unknown } | null)?.created === true;
  const campaignUrl = useTrackerCampaignUrl()(record.data);
  const elements = useCampaignFormElements(trackerCampaigns, 'edit');
  const externalId = record.data?.external_id;
  const tabs = useSimulatorTab('tracker', externalId);
  return (
    <Stack gap="md">
      <ResourceEdit
        definition={trackerCampaigns}
        elements={elements}
        notice={justCreated && campaignUrl !== '' ? <CampaignCreatedNotice url={campaignUrl} /> : undefined}
        tabs={tabs}
        // With the campaign's settings, not under its history or simulator.
        formFooter={
          typeof externalId === 'string' &&
          canUpdate && (
            <Group maw={760} mt="md">
              <CampaignCostButton campaignId={externalId} />
            </Group>
          )
        }
      />
    </Stack>
  );
}

/** /tracker/campaigns */
export const trackerCampaignScreens = { ...trackerCampaignBase, Edit: TrackerCampaignEdit };
