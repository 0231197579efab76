// D54: a form of the current password alone (turning two-step sign-in on, a new set of recovery codes).
// A wrong password lands on its field; `refused` takes the refusals the caller handles itself; any other
// is said in words; what was typed stays.
import { useState } from 'react';
import { isWrongPassword } from '../../api/mfa';
import { HttpError } from '../../http/errors';
import { errorWords } from '../../ui/error-words';
import { useForm } from '../../ui/form';
import { MSG_PASSWORD_REQUIRED, MSG_WRONG_PASSWORD } from './TwoStepOff';

export function usePasswordForm(path: string, run: (password: string) => Promise<void>, refused: (error: unknown) => boolean = () => false) {
  const [failed, setFailed] = useState<string | null>(null);
  const form = useForm<{ password: string }>({
    initial: { password: '' },
    validate: ({ password }) => ({ password: password ? undefined : MSG_PASSWORD_REQUIRED }),
    async submit({ password }) {
      setFailed(null);
      try {
        await run(password);
      } catch (error) {
        if (isWrongPassword(error)) throw new HttpError(400, { detail: MSG_WRONG_PASSWORD, field: 'password' }, path);
        if (!refused(error)) setFailed(errorWords(error));
      }
    },
  });
  return { form, failed };
}
