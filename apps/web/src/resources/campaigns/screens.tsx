import { Group, Stack } from '@mantine/core';
import { getResource } from '@switchyard/domain';
import { useParams } from 'react-router';
import { useResourceRecord } from '../../api/useResourceRecord';
import { useResourceCan } from '../../components/access/useResourceCan';
import { resourceScreens } from '../screens/resourceScreens';
import { CampaignCostButton } from './CampaignCostDialog';
import { useCampaignColumns } from './useCampaignColumns';
import { useCampaignFormElements } from './useCampaignFormElements';

const campaigns = getResource('campaigns');
const trackerCampaigns = getResource('tracker-campaigns');

/** /admin/campaigns */
export const campaignScreens = resourceScreens({
  definition: campaigns,
  useColumns: () => useCampaignColumns(campaigns),
  useFormElements: (mode) => useCampaignFormElements(campaigns, mode),
});

const trackerCampaignBase = resourceScreens({
  definition: trackerCampaigns,
  useColumns: () => useCampaignColumns(trackerCampaigns),
  useFormElements: (mode) => useCampaignFormElements(trackerCampaigns, mode),
});

/** The tracker campaign's edit screen, with "Update cost" (issue 20) for those who may update it. */
function TrackerCampaignEdit() {
  const { id } = useParams();
  const record = useResourceRecord(trackerCampaigns, id);
  const canUpdate = useResourceCan(trackerCampaigns, 'update');
  const externalId = record.data?.external_id;
  const BaseEdit = trackerCampaignBase.Edit;
  return (
    <Stack gap="md">
      <BaseEdit />
      {typeof externalId === 'string' && canUpdate && (
        <Group maw={760}>
          <CampaignCostButton campaignId={externalId} />
        </Group>
      )}
    </Stack>
  );
}

/** /tracker/campaigns */
export const trackerCampaignScreens = { ...trackerCampaignBase, Edit: TrackerCampaignEdit };
