// D56: a record's set custom values with their labels, in the fields' order (archived fields are not in
// the record's answer, nor among the active fields).
import { Fragment } from 'react';
import type { CustomField, CustomValues } from '../../../../contract/custom-fields';
import { customText } from './text';

/** The fields of `fields` that hold a value in `custom`. */
export const setFields = (fields: readonly CustomField[], custom: CustomValues | undefined) => fields.filter((f) => customText(f, custom?.[f.key]) !== '');

export function CustomValueList({ fields, custom, className = 'detail-list' }: { fields: readonly CustomField[]; custom: CustomValues | undefined; className?: string }) {
  const shown = setFields(fields, custom);
  if (shown.length === 0) return null;
  return (
    <dl className={className}>
      {shown.map((f) => (
        <Fragment key={f.id}>
          <dt>{f.label}</dt>
          <dd className={f.type === 'long_text' ? 'part-text' : undefined}>{customText(f, custom?.[f.key])}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
