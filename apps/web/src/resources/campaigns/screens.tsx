import { getResource } from '@switchyard/domain';
import { resourceScreens } from '../screens/resourceScreens';
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

/** /tracker/campaigns */
export const trackerCampaignScreens = resourceScreens({
  definition: trackerCampaigns,
  useColumns: () => useCampaignColumns(trackerCampaigns),
  useFormElements: (mode) => useCampaignFormElements(trackerCampaigns, mode),
});
