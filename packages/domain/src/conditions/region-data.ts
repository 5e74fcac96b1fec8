// The regions' data, handed to regions.ts. The domain's index imports this module, so Node (the server,
// the tests) always has it; the dashboard's build leaves it out of that import (apps/web/vite.config.ts)
// and imports `@switchyard/domain/region-data` from the screens that check or name regions.
import { allCountries } from 'country-region-data';
import { iso31662 } from 'iso-3166';
import { REGION_ENGLISH_NAMES } from './region-english-names.js';
import { provideRegionData } from './regions.js';

provideRegionData(allCountries, iso31662, REGION_ENGLISH_NAMES);
