// D54: a new set of recovery codes takes the current password; the old codes stop working at once, used
// or not. A wrong password lands on its field; any other refusal is said in words; what was typed stays.
import { useState } from 'react';
import { isWrongPassword, MFA_RECOVERY_CODES_PATH, renewRecoveryCodes } from '../../api/mfa';
import { HttpError } from '../../http/errors';
import { useSessionActions } from '../../session/use-session';
import { errorWords } from '../../ui/error-words';
import { Field, FormError, SubmitButton, useForm } from '../../ui/form';
import { MSG_PASSWORD_REQUIRED, MSG_WRONG_PASSWORD } from './TwoStepOff';

export const MSG_OLD_CODES_END = 'Your current recovery codes stop working as soon as the new ones are made, including any you have saved.';

export default function TwoStepRenew({ onRenewed, onCancel }: { onRenewed: (codes: string[]) => void; onCancel: () => void }) {
  const { client } = useSessionActions();
  const [failed, setFailed] = useState<string | null>(null);
  const form = useForm<{ password: string }>({
    initial: { password: '' },
    validate: ({ password }) => ({ password: password ? undefined : MSG_PASSWORD_REQUIRED }),
    async submit({ password }) {
      setFailed(null);
      try {
        onRenewed((await renewRecoveryCodes(client, { password })).recovery_codes);
      } catch (error) {
        if (isWrongPassword(error)) throw new HttpError(400, { detail: MSG_WRONG_PASSWORD, field: 'password' }, MFA_RECOVERY_CODES_PATH);
        setFailed(errorWords(error)); // 409: it was turned off meanwhile (another tab)
      }
    },
  });
  return (
    <form onSubmit={form.onSubmit} noValidate aria-label="Make new recovery codes">
      <p>{MSG_OLD_CODES_END} Enter your password to make a new set.</p>
      <Field form={form} name="password" label="Your password" type="password" autoComplete="current-password" />
      <FormError text={failed} className="write-error" />
      <div className="two-step-actions">
        <SubmitButton busy={form.submitting} label="Make new codes" busyLabel="Making…" focusable />
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
