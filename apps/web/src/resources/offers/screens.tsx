import { getResource } from '@switchyard/domain';
import { resourceScreens } from '../screens/resourceScreens';
import { useOfferColumns } from './useOfferColumns';
import { useOfferFormElements } from './useOfferFormElements';

const offers = getResource('offers');
const trackerOffers = getResource('tracker-offers');

/** /admin/offers */
export const offerScreens = resourceScreens({
  definition: offers,
  useColumns: () => useOfferColumns(offers),
  useFormElements: (mode) => useOfferFormElements(offers, mode),
});

/** /tracker/offers */
export const trackerOfferScreens = resourceScreens({
  definition: trackerOffers,
  useColumns: () => useOfferColumns(trackerOffers),
  useFormElements: (mode) => useOfferFormElements(trackerOffers, mode),
});
