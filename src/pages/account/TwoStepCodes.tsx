// D54: the 10 recovery codes, shown once after two-step sign-in is turned on or a new set is made, with
// Copy, 'Download as text file' and 'I have saved them'. Each works once in place of a code.
import { useState } from 'react';
import { APP_NAME } from '../../router/title';

export const MSG_CODES_COPIED = 'Recovery codes copied';
export const MSG_CODES_BY_HAND = 'Could not copy: select the codes and copy them, or write them down';
export const RECOVERY_CODES_FILE = 'recovery-codes.txt';

/** D54: the downloaded file: a short heading (the product, the account's email), then one code a line. */
export const recoveryCodesText = (email: string, codes: readonly string[]): string =>
  [`${APP_NAME} recovery codes for ${email}`, 'Each code signs you in once, in place of a code from your authenticator app.', '', ...codes, ''].join('\n');

function download(text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = RECOVERY_CODES_FILE;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0); // after the browser has taken the file
}

interface Props {
  codes: readonly string[];
  email: string;
  /** A new set replacing the old one (rather than the first set). */
  renewed?: boolean;
  onDone: () => void;
}

export default function TwoStepCodes({ codes, email, renewed, onDone }: Props) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(codes.join('\n')).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <div className="two-step-codes">
      <p>
        <strong>{renewed ? 'New recovery codes: your old ones no longer work.' : 'Two-step sign-in is on.'}</strong> Save these recovery codes somewhere safe, away from
        your phone. Each one signs you in once if you lose your phone. They are shown only this once.
      </p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <p className="invite-link-status" role="status">
        {copied === true ? MSG_CODES_COPIED : copied === false ? MSG_CODES_BY_HAND : ''}
      </p>
      <div className="two-step-actions">
        <button type="button" className="btn" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className="btn" onClick={() => download(recoveryCodesText(email, codes))}>
          Download as text file
        </button>
        <button type="button" className="btn btn-primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}
