// D54: a new set of recovery codes takes the current password; the old codes stop working at once, used
// or not. A wrong password lands on its field; any other refusal is said in words; what was typed stays.
import { usePasswordForm } from './password-form';
import { MFA_RECOVERY_CODES_PATH, renewRecoveryCodes } from '../../api/mfa';
import { useSessionActions } from '../../session/use-session';
import { Field, FormError, SubmitButton } from '../../ui/form';

export const MSG_OLD_CODES_END = 'Your current recovery codes stop working as soon as the new ones are made, including any you have saved.';

export default function TwoStepRenew({ onRenewed, onCancel }: { onRenewed: (codes: string[]) => void; onCancel: () => void }) {
  const { client } = useSessionActions();
  // A 409 (turned off meanwhile, in another tab) is said in words.
  const { form, failed } = usePasswordForm(MFA_RECOVERY_CODES_PATH, async (password) => onRenewed((await renewRecoveryCodes(client, { password })).recovery_codes));
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
