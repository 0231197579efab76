// A new password and the same again (D28 sign-up, D51 change, D53 reset), with the length hint.
import { PASSWORD_MIN_LENGTH } from '../../contract/account';
import { Field, type Form, type FormValues } from './form';

export function NewPasswordFields<V extends FormValues>({
  form,
  name,
  again,
  label = 'New password',
  hintClass,
}: {
  form: Form<V>;
  name: keyof V & string;
  again: keyof V & string;
  label?: string;
  hintClass: string;
}) {
  return (
    <>
      <Field
        form={form}
        name={name}
        label={
          <>
            {label} <span className={hintClass}>(at least {PASSWORD_MIN_LENGTH} characters)</span>
          </>
        }
        type="password"
        autoComplete="new-password"
      />
      <Field form={form} name={again} label={`${label} again`} type="password" autoComplete="new-password" />
    </>
  );
}
