// D15: a real modal: focus moves in and is trapped, Escape cancels, focus returns on close.
import { useId, useRef, type ReactNode } from 'react';
import { useFocusTrap } from './focus-trap';

export interface DialogProps {
  title: string;
  children: ReactNode;
  /** The buttons; mark the one to focus first with `data-autofocus`. */
  actions: ReactNode;
  /** Escape does what the Cancel button does. */
  onCancel: () => void;
}

export function Dialog({ title, children, actions, onCancel }: DialogProps) {
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  useFocusTrap(ref, true, onCancel);
  return (
    <div className="dialog-backdrop">
      <div ref={ref} className="dialog" role="dialog" aria-modal="true" aria-labelledby={`${id}t`} aria-describedby={`${id}d`} tabIndex={-1}>
        <h2 id={`${id}t`} className="dialog-title">
          {title}
        </h2>
        <div id={`${id}d`} className="dialog-body">
          {children}
        </div>
        <div className="dialog-actions">{actions}</div>
      </div>
    </div>
  );
}
