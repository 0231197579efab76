// D54: two-step sign-in off: what it does, and the current password before 'Turn on' asks for a secret.
// A wrong password lands on its field; any other refusal is said in words; what was typed stays.
import { usePasswordForm } from './password-form';
import type { MfaSetup } from '../../../contract/account';
import { MFA_SETUP_PATH, setupMfa } from '../../api/mfa';
import { isHttpError } from '../../http/errors';
import { useSessionActions } from '../../session/use-session';
import { Field, FormError, SubmitButton } from '../../ui/form';

interface Props {
  onStarted: (setup: MfaSetup) => void;
  /** 409 mfa_enabled: it was turned on meanwhile (another tab). */
  onAlreadyOn: () => void;
}

export default function TwoStepStart({ onStarted, onAlreadyOn }: Props) {
  const { client } = useSessionActions();
  const { form, failed } = usePasswordForm(
    MFA_SETUP_PATH,
    async (password) => onStarted(await setupMfa(client, { password })),
    (error) => {
      if (!isHttpError(error, 409)) return false;
      onAlreadyOn();
      return true;
    },
  );
  return (
    <form onSubmit={form.onSubmit} noValidate aria-label="Turn on two-step sign-in">
      <p>
        <strong>Off.</strong> Turn it on to be asked, after your password, for a code from an authenticator app on your phone: someone who learns your password still
        cannot sign in.
      </p>
      <Field form={form} name="password" label="Your password" type="password" autoComplete="current-password" />
      <FormError text={failed} className="write-error" />
      <SubmitButton busy={form.submitting} label="Turn on" busyLabel="Starting…" focusable />
    </form>
  );
}
