// D51 Password: the current password and a new one of at least PASSWORD_MIN_LENGTH characters, typed
// twice. Changed, every other session of the person ends (this one goes on) and the page says how many.
import { useState } from 'react';
import { PASSWORD_MIN_LENGTH } from '../../../contract/account';
import { useAccountApi } from '../../api/account';
import { useMutation } from '../../query/use-query';
import { FormError, SubmitButton, useForm, type FormErrors, Field } from '../../ui/form';
import { NewPasswordFields } from '../../ui/password-fields';

export const MSG_CURRENT_REQUIRED = 'Enter your current password';
export const MSG_NEW_SHORT = `Use at least ${PASSWORD_MIN_LENGTH} characters`;
export const MSG_NEW_MISMATCH = 'The new passwords do not match';

/** D51: what the page says once the password is changed, by how many other sessions ended. */
export function changedWords(ended: number): string {
  const others =
    ended === 0 ? 'You were signed in nowhere else.' : ended === 1 ? 'Your 1 other session was signed out.' : `Your ${ended} other sessions were signed out.`;
  return `Your password is changed. ${others}`;
}

interface PasswordValues {
  [k: string]: string;
  current_password: string;
  new_password: string;
  new_password_again: string;
}

const EMPTY: PasswordValues = { current_password: '', new_password: '', new_password_again: '' };

export function validatePassword(v: PasswordValues): FormErrors<PasswordValues> {
  return {
    current_password: v.current_password ? undefined : MSG_CURRENT_REQUIRED,
    new_password: v.new_password.length < PASSWORD_MIN_LENGTH ? MSG_NEW_SHORT : undefined,
    new_password_again: v.new_password_again !== v.new_password ? MSG_NEW_MISMATCH : undefined,
  };
}

export default function PasswordSection() {
  const api = useAccountApi();
  const change = useMutation(api.changePassword);
  const [done, setDone] = useState<string | null>(null);
  const form = useForm<PasswordValues>({
    initial: EMPTY,
    validate: validatePassword,
    async submit({ current_password, new_password }) {
      setDone(null);
      const { ended_sessions } = await change.mutate({ current_password, new_password });
      for (const name of Object.keys(EMPTY)) form.set(name, '');
      setDone(changedWords(ended_sessions));
    },
  });

  return (
    <form className="account-form" onSubmit={form.onSubmit} noValidate aria-labelledby="password-title">
      <Field form={form} name="current_password" label="Current password" type="password" autoComplete="current-password" />
      <NewPasswordFields form={form} name="new_password" again="new_password_again" hintClass="account-hint" />
      <FormError text={form.formError} />
      <p className="account-status" role="status">
        {done}
      </p>
      <SubmitButton busy={form.submitting} label="Change password" busyLabel="Changing…" />
    </form>
  );
}
