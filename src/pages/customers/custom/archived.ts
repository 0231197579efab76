// D56: a save refused only for custom fields archived since the form opened: sent again without their
// values, so every other change is kept; the words say what was left out. Loaded when that happens.
import type { CustomField } from '../../../../contract/custom-fields';
import type { HttpError } from '../../../http/errors';

export async function saveTheRest<T extends object, R>(error: HttpError, body: T, send: (body: T) => Promise<R>, fields: readonly CustomField[]) {
  const d = error.data as { archived?: string[]; errors?: object };
  const out = d.archived ?? [];
  if (!out.length || out.length !== Object.keys(d.errors ?? {}).length) throw error; // another refusal too: it stays on its field
  const { custom, ...rest } = body as { custom?: object };
  const kept = Object.entries(custom ?? {}).filter(([k]) => !out.includes(`custom.${k}`));
  const saved = await send((kept.length ? { ...rest, custom: Object.fromEntries(kept) } : rest) as T);
  const labels = fields.filter((f) => out.includes(`custom.${f.key}`)).map((f) => f.label);
  return { saved, leftOut: labels.length ? `. Left out, archived meanwhile: ${labels.join(', ')}` : '' };
}
