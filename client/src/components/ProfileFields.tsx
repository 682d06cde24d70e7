import type { ReactNode } from 'react';
import { LIMITS } from '@common/rules';
import { TextField } from './TextField';

export interface ProfileValues {
  name: string;
  password: string;
  confirmPassword: string;
}

export interface ProfileFieldsProps {
  /** Each page words the fields its own way (settings asks for the current or a new password). */
  labels: { name: string; password: string; confirmPassword: string };
  nameHint?: ReactNode;
  values: ProfileValues;
  onChange(values: ProfileValues): void;
  /** The fields the status line (`errorId`) says are wrong. */
  invalid?: ReadonlyArray<keyof ProfileValues>;
  errorId?: string;
}

/** Name, password and its confirmation: the part of the form that sign-up and settings share. */
export function ProfileFields({ labels, nameHint, values, onChange, invalid = [], errorId }: ProfileFieldsProps) {
  const errorOf = (field: keyof ProfileValues) => (invalid.includes(field) ? errorId : undefined);
  return (
    <>
      <TextField
        label={labels.name}
        name="name"
        autoComplete="nickname"
        maxLength={LIMITS.name}
        value={values.name}
        onChange={(e) => onChange({ ...values, name: e.target.value })}
        hint={nameHint}
        errorId={errorOf('name')}
      />
      <TextField
        label={labels.password}
        type="password"
        name="password"
        autoComplete="new-password"
        value={values.password}
        onChange={(e) => onChange({ ...values, password: e.target.value })}
        errorId={errorOf('password')}
      />
      <TextField
        label={labels.confirmPassword}
        type="password"
        name="confirmPassword"
        autoComplete="new-password"
        value={values.confirmPassword}
        onChange={(e) => onChange({ ...values, confirmPassword: e.target.value })}
        errorId={errorOf('confirmPassword')}
      />
    </>
  );
}
