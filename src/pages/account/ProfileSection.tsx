// D51 Profile: the first name, and the email (a new one needs the current password, and must not be
// another account's). What was typed stays through a refusal, a network error and offline; a refusal
// stands by its field, which takes the focus. Saved, the session's user (the user menu) shows it.
import { useRef, useState } from 'react';
import type { AccountPatch } from '../../../contract/account';
import { FIRST_NAME_MAX_LENGTH } from '../../../contract/team';
import { useAccountApi } from '../../api/account';
import { useMutation } from '../../query/use-query';
import { useSessionActions } from '../../session/use-session';
import { Field, FormError, SubmitButton, useForm, type FormErrors } from '../../ui/form';
import type { SectionProps } from './kit';

export const MSG_NAME_REQUIRED = 'First name is required';
export const MSG_EMAIL_REQUIRED = 'Email is required';
export const MSG_EMAIL_INVALID = 'Enter an email address like name@example.com';
export const MSG_PASSWORD_FOR_EMAIL = 'Enter your current password to change your email';
export const MSG_PROFILE_SAVED = 'Your profile is saved.';
export const MSG_NOTHING_CHANGED = 'Nothing to save: nothing has changed.';

interface ProfileValues {
  [k: string]: string;
  first_name: string;
  email: string;
  current_password: string;
}

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export default function ProfileSection({ account }: SectionProps) {
  const api = useAccountApi();
  const update = useMutation(api.update);
  const session = useSessionActions();
  const [saved, setSaved] = useState<string | null>(null);
  // What the server holds now: the form compares with it (the account prop catches up after a refetch).
  const base = useRef({ first_name: account.first_name, email: account.email });

  const validate = (v: ProfileValues): FormErrors<ProfileValues> => {
    const name = v.first_name.trim();
    const email = v.email.trim();
    return {
      first_name: !name ? MSG_NAME_REQUIRED : name.length > FIRST_NAME_MAX_LENGTH ? `Use at most ${FIRST_NAME_MAX_LENGTH} characters` : undefined,
      email: !email ? MSG_EMAIL_REQUIRED : /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? undefined : MSG_EMAIL_INVALID,
      current_password: !sameEmail(email, base.current.email) && !v.current_password ? MSG_PASSWORD_FOR_EMAIL : undefined,
    };
  };

  const form = useForm<ProfileValues>({
    initial: { first_name: account.first_name, email: account.email, current_password: '' },
    validate,
    async submit(v) {
      setSaved(null);
      const patch: AccountPatch = {};
      if (v.first_name.trim() !== base.current.first_name) patch.first_name = v.first_name.trim();
      if (!sameEmail(v.email, base.current.email)) Object.assign(patch, { email: v.email.trim(), current_password: v.current_password });
      if (Object.keys(patch).length === 0) return setSaved(MSG_NOTHING_CHANGED);
      const next = await update.mutate(patch);
      base.current = { first_name: next.first_name, email: next.email };
      session.updateUser({ first_name: next.first_name, email: next.email });
      form.set('current_password', '');
      setSaved(MSG_PROFILE_SAVED);
    },
  });
  const emailChanged = !sameEmail(form.values.email, base.current.email);

  return (
    <form className="account-form" onSubmit={form.onSubmit} noValidate aria-labelledby="profile-title">
      <Field form={form} name="first_name" label="First name" autoComplete="given-name" maxLength={FIRST_NAME_MAX_LENGTH} />
      <Field form={form} name="email" label="Email" type="email" autoComplete="email" />
      {emailChanged && (
        <Field
          form={form}
          name="current_password"
          label={
            <>
              Current password <span className="account-hint">(needed to change your email)</span>
            </>
          }
          type="password"
          autoComplete="current-password"
        />
      )}
      <FormError text={form.formError} />
      <p className="account-status" role="status">
        {saved}
      </p>
      <SubmitButton busy={form.submitting} label="Save profile" busyLabel="Saving…" />
    </form>
  );
}
