// D56: what the custom-field routes accept (definitions), and the static shape of a record's `custom`
// object; the values are then checked by type against the organization's definitions (values.ts).
import {
  CUSTOM_FIELD_KINDS,
  CUSTOM_FIELD_TYPES,
  CUSTOM_HELP_MAX,
  CUSTOM_KEY_MAX,
  CUSTOM_KEY_SHAPE,
  CUSTOM_LABEL_MAX,
  CUSTOM_OPTION_ID_SHAPE,
  CUSTOM_OPTION_LABEL_MAX,
  CUSTOM_OPTIONS_MAX,
  CUSTOM_FIELD_LIMITS,
} from '../../../contract/custom-fields';
import { fieldError } from '../../http';
import { bool, describeCheck, int, list, oneOf, optional, text, withDefault, type Check } from '../../schema';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const KEY_WORDS = 'must be lower-case letters, digits and _, starting with a letter';
const optionId = text({ max: 20, pattern: CUSTOM_OPTION_ID_SHAPE, patternMessage: 'must be lower-case letters, digits and _' });
const optionLabel = text({ max: CUSTOM_OPTION_LABEL_MAX });

/** An option as sent: `{label}` for a new one, `{id, label}` for one the field has. */
export interface OptionInput {
  id: string | null;
  label: string;
}
const option: Check<OptionInput> = describeCheck(
  (value, field) => {
    if (!isObject(value)) throw fieldError(field, 'must be an object with a label');
    for (const key of Object.keys(value)) if (key !== 'id' && key !== 'label') throw fieldError(`${field}.${key}`, 'is not a known option field', 'unknown_field');
    return { id: optional(optionId)(value.id, `${field}.id`), label: optionLabel(value.label, `${field}.label`) };
  },
  { kind: 'object', keys: ['id', 'label'] },
);

/** D56: ≤ 100 options, their labels unique regardless of case. */
const optionList = list(option, { max: CUSTOM_OPTIONS_MAX });
const options: Check<OptionInput[]> = describeCheck(
  (value, field) => {
    const all = optionList(value, field);
    const seen = new Set<string>();
    all.forEach((o, i) => {
      if (seen.has(o.label.toLowerCase())) throw fieldError(`${field}[${i}].label`, `has "${o.label}" twice`);
      seen.add(o.label.toLowerCase());
    });
    return all;
  },
  { kind: 'list', max: CUSTOM_OPTIONS_MAX, item: { kind: 'object', keys: ['id', 'label'], required: true } },
);

const definitionFields = {
  label: text({ max: CUSTOM_LABEL_MAX }),
  help: optional(text({ max: CUSTOM_HELP_MAX })),
  required: withDefault(bool(), false),
  unique: withDefault(bool(), false),
};

/** POST /v1/custom-fields/: the key is made from the label when not given. */
export const createFieldBody = {
  record_kind: withDefault(oneOf(CUSTOM_FIELD_KINDS), 'customer'),
  key: optional(text({ max: CUSTOM_KEY_MAX, pattern: CUSTOM_KEY_SHAPE, patternMessage: KEY_WORDS })),
  type: oneOf(CUSTOM_FIELD_TYPES),
  ...definitionFields,
  options: withDefault(options, [] as OptionInput[]),
};

/** PATCH /v1/custom-fields/{id}/: any of these; options by id (one left out is removed). */
export const updateFieldBody = { ...definitionFields, required: bool(), unique: bool(), type: oneOf(CUSTOM_FIELD_TYPES), options };

/** PUT /v1/custom-fields/order/: every field of the kind, by id, in the order wanted. */
export const orderBody = {
  record_kind: withDefault(oneOf(CUSTOM_FIELD_KINDS), 'customer'),
  ids: list(int({ min: 1 }), { max: Math.max(...Object.values(CUSTOM_FIELD_LIMITS)) }),
};
