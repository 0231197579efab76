// D46: the customer's service locations: each with its label, address, access notes (their line breaks
// kept) and a link that opens the address in a map search in a new tab; the primary one marked, and first.
// Edited in place (PartSection.tsx): add, change, remove, and 'Make primary' on the others. D56: the
// organization's location fields in the form and their set values in the view, as the customer's are.
import { useState } from 'react';
import type { CustomField } from '../../../../contract/custom-fields';
import { LOCATION_TEXT_LIMITS, MAX_LOCATIONS, type CustomerLocation } from '../../../../contract/customer-parts';
import type { CustomerPartsApi } from '../../../api/customer-parts';
import { useMutation } from '../../../query/use-query';
import { failedWords } from '../../../ui/failed-words';
import { toast } from '../../../ui/toast';
import { CustomInputs, validateCustom } from '../custom/CustomInputs';
import { CustomValueList } from '../custom/CustomValueList';
import { isHttpError } from '../../../http/errors';
import { useCustomFields } from '../../../api/custom-fields';
import { customChanges, customInput, customName, toFormValues } from '../custom/values';
import { Problem } from '../detail/failure';
import { Spinner } from '../../../ui/spinner';
import { mapHref } from './map-link';
import { PartField, PartForm, usePartForm } from './PartForm';
import { PartSection } from './PartSection';
import { changed, LOCATION_LABELS, locationInput, toValues, validateLocation, type LocationValues } from './values';

const FIELDS = Object.keys(LOCATION_LABELS) as (keyof LocationValues)[];

/** The address lines that are filled in: street; city, region and postal code; country. */
export function locationLines(l: CustomerLocation): string[] {
  const place = [l.city, [l.region, l.postal_code].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [l.address_line, place, l.country].filter((s): s is string => Boolean(s));
}

/** A location in a sentence: its label, else its address (as the server's audit entries name it). */
export const locationName = (l: CustomerLocation): string => l.label ?? ([l.address_line, l.city].filter(Boolean).join(', ') || 'Location');

/** D46: one primary location; making another primary un-primaries this one (the server does both). */
function MakePrimary({ location: l, api, focusRow }: { location: CustomerLocation; api: CustomerPartsApi; focusRow: () => void }) {
  const update = useMutation(api.locations.update);
  const [error, setError] = useState<string | null>(null);
  const name = locationName(l);
  if (l.primary) return null;
  const makePrimary = async () => {
    if (update.status === 'pending') return;
    setError(null);
    try {
      await update.mutate({ id: l.id, changes: { primary: true } });
    } catch (e) {
      return setError(failedWords(e, `make ${name} the primary location`));
    }
    toast.success(`${name} is now the primary location`);
    focusRow(); // its Make primary button is gone
  };
  return (
    <>
      <button
        type="button"
        className="link-btn"
        aria-label={`Make primary: ${name}`}
        aria-disabled={update.status === 'pending' || undefined}
        onClick={() => void makePrimary()}
      >
        Make primary
      </button>
      <Problem text={error} />
    </>
  );
}

function LocationView({ location: l }: { location: CustomerLocation }) {
  const fields = useCustomFields('location').fields ?? [];
  const lines = locationLines(l);
  const name = locationName(l);
  const map = mapHref(lines);
  return (
    <>
      <h3 className="part-title">
        {name}
        {l.primary && <span className="part-badge">Primary</span>}
      </h3>
      {lines.length > 0 && (
        <address className="detail-address">
          {lines.map((line, i) => (
            <span key={i}>{line}</span>
          ))}
        </address>
      )}
      {l.access_notes && (
        <div className="part-notes">
          <span className="part-notes-label">Access notes</span>
          <p className="part-text">{l.access_notes}</p>
        </div>
      )}
      <CustomValueList fields={fields} custom={l.custom} className="detail-list part-custom" />
      {map && (
        <a className="part-map" href={map} target="_blank" rel="noopener noreferrer">
          Open map<span className="sr-only"> of {name} in OpenStreetMap (opens in a new tab)</span>
        </a>
      )}
    </>
  );
}

type FormProps = { customerId: number; location: CustomerLocation | null; api: CustomerPartsApi; done: () => void };

/** D56: the form opens with the location fields (read once for the page; a failed read leaves them out). */
function LocationForm(props: FormProps) {
  const defs = useCustomFields('location');
  if (!defs.fields && defs.query.status === 'pending') return <Spinner label="Loading the form…" />;
  return <LocationFields {...props} fields={defs.fields ?? []} refetch={defs.query.refetch} />;
}

function LocationFields({ customerId, location, api, done, fields, refetch }: FormProps & { fields: CustomField[]; refetch?: () => unknown }) {
  const add = useMutation(api.locations.add);
  const update = useMutation(api.locations.update);
  const saved = location?.custom;
  const { form, draft } = usePartForm<LocationValues & Record<string, string | readonly string[]>>({
    draftKey: `location:${customerId}:${location?.id ?? 'new'}`,
    customerId,
    initial: { ...toValues<LocationValues>(FIELDS, location), ...toFormValues(fields, saved) },
    labels: { ...LOCATION_LABELS, ...Object.fromEntries(fields.map((f) => [customName(f), f.label])) },
    noun: 'location',
    validate: (v) => ({ ...validateLocation(v), ...validateCustom(fields, v, location ? (saved ?? {}) : null) }),
    async save(v) {
      const input = locationInput(toValues<LocationValues>(FIELDS, v));
      const custom = location ? customChanges(fields, v, saved) : customInput(fields, v);
      const withCustom = Object.keys(custom).length > 0 ? { custom } : {};
      // D56: a location field archived since the form opened is left out, the rest saved, and the toast says so.
      const { leftOut } = location
        ? await leavingArchived({ ...changed(input, location), ...withCustom }, (changes) => update.mutate({ id: location.id, changes }), fields)
        : await leavingArchived({ ...input, primary: false, ...withCustom }, (body) => add.mutate(body), fields);
      if (leftOut) void refetch?.();
      toast.success(`${location ? `Saved ${input.label ?? 'the location'}` : `Added ${input.label ?? 'the location'}`}${leftOut}`);
    },
    onSaved: done,
  });
  const field = (name: keyof LocationValues, extra: { multiline?: boolean } = {}) => (
    <PartField form={form} name={name} label={LOCATION_LABELS[name]} max={LOCATION_TEXT_LIMITS[name]} {...extra} />
  );
  return (
    <PartForm
      label={location ? `Edit ${locationName(location)}` : 'New location'}
      form={form}
      offer={draft.offer}
      saveLabel={location ? 'Save location' : 'Add location'}
      onCancel={() => (draft.discard(), done())}
    >
      {field('label')}
      {field('address_line')}
      <div className="part-grid">
        {field('city')}
        {field('region')}
        {field('postal_code')}
        {field('country')}
      </div>
      {field('access_notes', { multiline: true })}
      <CustomInputs form={form} fields={fields} saved={saved} />
    </PartForm>
  );
}

/** D56: a save; refused only for fields archived since the form opened, the rest is sent again (archived.ts, loaded then). */
async function leavingArchived<T extends object, R>(body: T, send: (body: T) => Promise<R>, fields: readonly CustomField[]) {
  try {
    return { saved: await send(body), leftOut: '' };
  } catch (error) {
    if (!isHttpError(error, 400) || !(error.data as { archived?: unknown }).archived) throw error;
    return (await import('../custom/archived')).saveTheRest(error, body, send, fields);
  }
}

export function Locations({ customerId, locations, canEdit, api }: { customerId: number; locations: CustomerLocation[]; canEdit: boolean; api: CustomerPartsApi }) {
  return (
    <PartSection
      title="Service locations"
      noun="location"
      max={MAX_LOCATIONS}
      items={locations}
      canEdit={canEdit}
      empty="No service locations yet."
      name={locationName}
      remove={api.locations.remove}
      view={(l) => <LocationView location={l} />}
      action={(l, focusRow) => <MakePrimary location={l} api={api} focusRow={focusRow} />}
      form={(l, done) => <LocationForm customerId={customerId} location={l} api={api} done={done} />}
    />
  );
}
