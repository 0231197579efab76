// D56: what the customers list needs of the organization's custom fields: the columns chosen (active
// fields only, in the order chosen), the state the API is asked for (conditions and a sort that name no
// active field left out, so an old link or a field archived since still shows the list), and the sorts by
// field that the phone-width 'Sort by' menu offers.
import { customSortOf } from '../../../../contract/custom-list';
import { DEFAULT_CUSTOMER_SORT } from '../../../../contract/customers';
import { useCustomFields } from '../../../api/custom-fields';
import type { ListState } from '../list-params';
import { liveConditions, liveSort } from './custom-params';

export function useCustomList(state: ListState) {
  const { fields, query } = useCustomFields('customer');
  const live = fields ?? [];
  const columns = state.columns.flatMap((k) => live.filter((f) => f.key === k));
  const needsFields = state.custom.length > 0 || customSortOf(state.sort) !== null;
  const asked: ListState = {
    ...state,
    custom: liveConditions(state.custom, live),
    sort: customSortOf(state.sort) && !liveSort(state.sort, live) ? DEFAULT_CUSTOMER_SORT : state.sort,
  };
  const sorts = columns
    .filter((f) => liveSort(`cf.${f.key}`, live))
    .flatMap((f) => [
      { value: `cf.${f.key}`, label: `${f.label}, first to last` },
      { value: `-cf.${f.key}`, label: `${f.label}, last to first` },
    ]);
  // Until the fields are known, a URL naming them waits rather than asking the server blind.
  return { fields: live, columns, asked, sorts, ready: !needsFields || fields !== undefined || query.status === 'error' };
}
