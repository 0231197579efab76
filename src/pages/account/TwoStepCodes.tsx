// D54: the 10 recovery codes, shown once after two-step sign-in is turned on, with Copy and 'I have saved
// them'. Each works once in place of a code, for when the phone is lost.
import { useState } from 'react';

export const MSG_CODES_COPIED = 'Recovery codes copied';
export const MSG_CODES_BY_HAND = 'Could not copy: select the codes and copy them, or write them down';

export default function TwoStepCodes({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(codes.join('\n')).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <div className="two-step-codes">
      <p>
        <strong>Two-step sign-in is on.</strong> Save these recovery codes somewhere safe, away from your phone. Each one signs you in once if you lose your phone. They
        are shown only this once.
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
        <button type="button" className="btn btn-primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}
