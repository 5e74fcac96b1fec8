import { ZTrackerOfferForm } from './offers.js';
import { defineResource } from './types.js';

export const trackerOffers = defineResource({
  name: 'tracker-offers',
  apiPath: 'tracker/offers',
  route: '/tracker/offers',
  idField: 'external_id',
  permission: { section: 'tracker', resource: 'offer' },
  archivable: true,
  menuSection: 'tracker',
  lookup: { value: 'external_id', label: 'name' },
  form: ZTrackerOfferForm,
  references: [
    { field: 'affiliate_network_external_id', resource: 'affiliate-networks' },
    { field: 'backup_offer_external_id', resource: 'tracker-offers' },
  ],
  richTextFields: ['description'],
});
