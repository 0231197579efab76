// D54: setting up two-step sign-in: the QR code of the otpauth:// URI (our own encoder, lib/qr.ts, loaded
// with this part only), the key typed out in groups of 4 with Copy, and the first code to confirm it.
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { MfaSetup } from '../../../contract/account';
import { confirmMfa, groupKey, isInvalidCode } from '../../api/mfa';
import { encodeQr, qrPath } from '../../lib/qr';
import { MSG_MFA_INVALID } from '../../session/mfa-words';
import { useSessionActions } from '../../session/use-session';
import { errorWords } from '../../ui/error-words';

export const MSG_CODE_SIX_DIGITS = 'Enter the 6-digit code your authenticator app shows.';
export const MSG_KEY_COPIED = 'Key copied';
export const MSG_KEY_BY_HAND = 'The key is selected: press Ctrl+C (⌘C on a Mac) to copy it';

/** The QR code as one SVG path, with a quiet zone; dark on light in either theme (scanners need it). */
export function QrCode({ text }: { text: string }) {
  const { size, d } = useMemo(() => {
    const m = encodeQr(text);
    return { size: m.length + 8, d: qrPath(m) };
  }, [text]);
  return (
    <svg className="qr" role="img" aria-label="QR code for two-step sign-in" viewBox={`0 0 ${size} ${size}`} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}

interface Props {
  setup: MfaSetup;
  onConfirmed: (codes: string[]) => void;
  onCancel: () => void;
}

export default function TwoStepSetup({ setup, onConfirmed, onCancel }: Props) {
  const { client } = useSessionActions();
  const id = useId();
  const key = groupKey(setup.secret);
  const keyRef = useRef<HTMLDivElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(setup.secret);
      setCopied(true);
    } catch {
      const el = keyRef.current;
      if (el) {
        el.focus();
        window.getSelection()?.selectAllChildren(el); // to copy by hand
      }
      setCopied(false);
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const typed = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(typed)) {
      setError(MSG_CODE_SIX_DIGITS);
      codeRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { recovery_codes } = await confirmMfa(client, typed);
      return onConfirmed(recovery_codes);
    } catch (failure) {
      setError(isInvalidCode(failure) ? MSG_MFA_INVALID : errorWords(failure)); // what was typed stays
      codeRef.current?.focus();
    }
    setBusy(false);
  }

  return (
    <div className="two-step-setup">
      <ol className="two-step-steps">
        <li>
          <p>Open an authenticator app on your phone (such as Google Authenticator, Microsoft Authenticator or 1Password) and scan this code:</p>
          <QrCode text={setup.otpauth_uri} />
          <p id={`${id}l`} className="two-step-label">
            Or enter this key by hand
          </p>
          <div className="two-step-key-row">
            {/* Text, not an input: it wraps at phone width, a group of 4 at a time. */}
            <div ref={keyRef} className="two-step-key" role="textbox" aria-readonly="true" aria-labelledby={`${id}l`} tabIndex={0}>
              {key}
            </div>
            <button type="button" className="btn" onClick={() => void copy()}>
              Copy
            </button>
          </div>
          <p className="invite-link-status" role="status">
            {copied === true ? MSG_KEY_COPIED : copied === false ? MSG_KEY_BY_HAND : ''}
          </p>
        </li>
        <li>
          <form onSubmit={submit} noValidate>
            <div className="field">
              <label htmlFor={`${id}c`}>Enter the 6-digit code the app shows</label>
              <input
                ref={codeRef}
                id={`${id}c`}
                name="code"
                value={code}
                onChange={(e) => {
                  setCode(e.target.value);
                  setError(null);
                }}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={7}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}e` : undefined}
              />
              {error && (
                <p id={`${id}e`} className="field-error" role="alert">
                  {error}
                </p>
              )}
            </div>
            <div className="two-step-actions">
              <button type="submit" className="btn btn-primary" aria-disabled={busy || undefined} aria-busy={busy || undefined}>
                {busy ? 'Checking…' : 'Turn on'}
              </button>
              <button type="button" className="btn" onClick={onCancel}>
                Cancel
              </button>
            </div>
          </form>
        </li>
      </ol>
    </div>
  );
}
