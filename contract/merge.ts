// D49: merging two customers and undoing a merge, shared by the app's merge screen and the server.
import type { Customer } from './customers';

/** D49: fields the person chooses between when merging; everything else is combined. */
export const MERGE_FIELDS = [
  'name',
  'company',
  'email',
  'phone',
  'address_line',
  'city',
  'region',
  'postal_code',
  'country',
  'status',
  'type',
  'lead_source',
  'do_not_service',
] as const; // do_not_service carries do_not_service_reason with it
export type MergeField = (typeof MERGE_FIELDS)[number];
export type MergeChoice = 'survivor' | 'merged';
export interface MergeRequest {
  survivor_id: number;
  merged_id: number;
  fields: Partial<Record<MergeField, MergeChoice>>;
} // missing field = 'survivor'
export interface MergePreview {
  survivor: Customer;
  merged: Customer;
  moves: { notes: number; locations: number; contacts: number; tags: string[] };
}
export const MERGE_UNDO_DAYS = 30;
