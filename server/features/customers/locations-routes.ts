// D46: GET/POST /v1/customers/{id}/locations/, PATCH/DELETE /v1/customers/{id}/locations/{location_id}/.
import type { CustomerLocation, LocationInput } from '../../../contract/customer-parts';
import { addLocation, listLocations, locationName, removeLocation, updateLocation } from './locations-repo';
import { partRoutes } from './parts-routes';
import { locationBody, locationPatch } from './parts-schema';

export const locationRoutes = partRoutes<CustomerLocation, LocationInput>({
  plural: 'locations',
  noun: 'location',
  body: locationBody,
  patch: locationPatch,
  actions: { added: 'location.added', updated: 'location.updated', removed: 'location.removed' },
  list: listLocations,
  add: addLocation,
  update: updateLocation,
  remove: removeLocation,
  name: locationName,
  custom: true, // D56
});
