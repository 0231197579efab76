// D54: turning two-step sign-in off takes the password and a code from the app (or a recovery code).
// Each refusal lands on its field; what was typed stays (the password too, to correct).
import { disableMfa, isInvalidCode, isWrongPassword, MFA_PATH } from '../../api/mfa';
import { HttpError } from '../../http/errors';
import { MSG_MFA_INVALID } from '../../session/mfa-words';
import { useSessionActions } from '../../session/use-session';
import { Field, FormError, SubmitButton, useForm } from '../../ui/form';

export const MSG_PASSWORD_REQUIRED = 'Enter your password.';
export const MSG_CODE_REQUIRED = 'Enter a code from your authenticator app, or a recovery code.';
export const MSG_WRONG_PASSWORD = 'That password is not right.';

interface Values {
  [k: string]: string;
  password: string;
  code: string;
}

export default function TwoStepOff({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const { client } = useSessionActions();
  const form = useForm<Values>({
    initial: { password: '', code: '' },
    validate: ({ password, code }) => ({ password: password ? undefined : MSG_PASSWORD_REQUIRED, code: code.trim() ? undefined : MSG_CODE_REQUIRED }),
    async submit({ password, code }) {
      try {
        await disableMfa(client, { password, code: code.replace(/\s/g, '') });
      } catch (error) {
        // The form puts a 400 on the field it names (form.tsx); these two refusals name theirs by code.
        if (isWrongPassword(error)) throw new HttpError(400, { detail: MSG_WRONG_PASSWORD, field: 'password' }, MFA_PATH);
        if (isInvalidCode(error)) throw new HttpError(400, { detail: MSG_MFA_INVALID, field: 'code' }, MFA_PATH);
        throw error;
      }
      onDone();
    },
  });
  return (
    <form onSubmit={form.onSubmit} noValidate aria-label="Turn off two-step sign-in">
      <p>To turn two-step sign-in off, enter your password and a code from your authenticator app.</p>
      <Field form={form} name="password" label="Password" type="password" autoComplete="current-password" />
      <Field form={form} name="code" label="Code from your app, or a recovery code" inputMode="numeric" autoComplete="one-time-code" />
      <FormError text={form.formError} className="write-error" />
      <div className="two-step-actions">
        <SubmitButton busy={form.submitting} label="Turn off two-step sign-in" busyLabel="Turning off…" className="btn btn-danger" focusable />
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
