// D56: the organization's active fields of one record kind, read once through the query cache and shared
// by the forms and the customer page (an organization without fields is asked once too: `[]` is cached).
import { useMemo } from 'react';
import type { CustomFieldKind } from '../../../../contract/custom-fields';
import { activeFields, useCustomFieldsApi } from '../../../api/custom-fields';
import { useQuery } from '../../../query/use-query';

export function useCustomFields(kind: CustomFieldKind) {
  const query = useQuery(useCustomFieldsApi().list());
  const fields = useMemo(() => (query.data ? activeFields(query.data, kind) : undefined), [query.data, kind]);
  return { fields, query };
}
