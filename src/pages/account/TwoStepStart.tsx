// D54: two-step sign-in off: what it does, and the current password before 'Turn on' asks for a secret.
// A wrong password lands on its field; any other refusal is said in words; what was typed stays.
import { useState } from 'react';
import type { MfaSetup } from '../../../contract/account';
import { isWrongPassword, MFA_SETUP_PATH, setupMfa } from '../../api/mfa';
import { HttpError, isHttpError } from '../../http/errors';
import { useSessionActions } from '../../session/use-session';
import { errorWords } from '../../ui/error-words';
import { Field, FormError, SubmitButton, useForm } from '../../ui/form';
import { MSG_PASSWORD_REQUIRED, MSG_WRONG_PASSWORD } from './TwoStepOff';

interface Props {
  onStarted: (setup: MfaSetup) => void;
  /** 409 mfa_enabled: it was turned on meanwhile (another tab). */
  onAlreadyOn: () => void;
}

export default function TwoStepStart({ onStarted, onAlreadyOn }: Props) {
  const { client } = useSessionActions();
  const [failed, setFailed] = useState<string | null>(null);
  const form = useForm<{ password: string }>({
    initial: { password: '' },
    validate: ({ password }) => ({ password: password ? undefined : MSG_PASSWORD_REQUIRED }),
    async submit({ password }) {
      setFailed(null);
      try {
        onStarted(await setupMfa(client, { password }));
      } catch (error) {
        if (isWrongPassword(error)) throw new HttpError(400, { detail: MSG_WRONG_PASSWORD, field: 'password' }, MFA_SETUP_PATH);
        if (isHttpError(error, 409)) onAlreadyOn();
        else setFailed(errorWords(error));
      }
    },
  });
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
