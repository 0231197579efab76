// D28: the sign-up form of the invitation page: the invited email (read-only), a first name and a
// password typed twice (at least PASSWORD_MIN_LENGTH characters).
import { FIRST_NAME_MAX_LENGTH, PASSWORD_MIN_LENGTH, type InvitationLookup } from '../../../contract/team';
import { Field, FormError, SubmitButton, useForm, type FormErrors } from '../../ui/form';
import { NewPasswordFields } from '../../ui/password-fields';

export const MSG_FIRST_NAME_REQUIRED = 'First name is required';
export const MSG_PASSWORD_SHORT = `Use at least ${PASSWORD_MIN_LENGTH} characters`;
export const MSG_PASSWORD_MISMATCH = 'The passwords do not match';

export interface SignUpValues {
  [k: string]: string;
  first_name: string;
  password: string;
  password_again: string;
}

export function validateSignUp({ first_name, password, password_again }: SignUpValues): FormErrors<SignUpValues> {
  const name = first_name.trim();
  return {
    first_name: !name ? MSG_FIRST_NAME_REQUIRED : name.length > FIRST_NAME_MAX_LENGTH ? `Use at most ${FIRST_NAME_MAX_LENGTH} characters` : undefined,
    password: password.length < PASSWORD_MIN_LENGTH ? MSG_PASSWORD_SHORT : undefined,
    password_again: password_again !== password ? MSG_PASSWORD_MISMATCH : undefined,
  };
}

export function SignUpForm({ invitation, onAccept }: { invitation: InvitationLookup; onAccept: (values: SignUpValues) => Promise<void> }) {
  const form = useForm<SignUpValues>({ initial: { first_name: '', password: '', password_again: '' }, validate: validateSignUp, submit: onAccept });
  return (
    <form className="invite-form" onSubmit={form.onSubmit} noValidate aria-label="Create your account">
      <p className="invite-step">Create your account to join.</p>
      <div className="field">
        <label htmlFor="invite-email">Email</label>
        <input id="invite-email" type="email" value={invitation.email} readOnly autoComplete="username" />
      </div>
      <Field form={form} name="first_name" label="First name" autoComplete="given-name" maxLength={FIRST_NAME_MAX_LENGTH} />
      <NewPasswordFields form={form} name="password" again="password_again" label="Password" hintClass="invite-hint" />
      <FormError text={form.formError} className="field-error invite-error" />
      <SubmitButton busy={form.submitting} label={`Create account and join ${invitation.organization.name}`} busyLabel="Joining…" className="btn btn-primary btn-block" />
    </form>
  );
}
