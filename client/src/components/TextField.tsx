import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { cx } from './classNames';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: ReactNode;
  /** A control beside the input, such as a send-code button. */
  action?: ReactNode;
  /** The id of the status line that says what is wrong with this field: marks it invalid and ties the message to it. */
  errorId?: string;
}

export function TextField({ label, hint, action, errorId, id, className, ...input }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cx('field', className)}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <div className="field__row">
        <input id={inputId} className="field__input" aria-describedby={describedBy} aria-invalid={errorId ? true : undefined} {...input} />
        {action}
      </div>
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}
