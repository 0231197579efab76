// SPEC §2: Add Customer and Edit Customer share this one form. Its fields are not specified yet.
import { Link } from '../../router/Link';
import { Page } from '../../ui/page';

export type CustomerFormProps = { mode: 'add' } | { mode: 'edit'; customerId: number };

export function CustomerForm(props: CustomerFormProps) {
  const back = props.mode === 'edit' ? `/customers/${props.customerId}` : '/customers';
  return (
    <Page
      title={props.mode === 'add' ? 'Add Customer' : 'Edit Customer'}
      actions={
        <Link to={back} className="btn">
          Cancel
        </Link>
      }
    />
  );
}
