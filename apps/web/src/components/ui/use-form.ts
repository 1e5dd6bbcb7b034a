/**
 * Form state for the plain pages, with antd Form's behaviour where users meet it: a field is checked on every
 * change and all of them on submit, the first failing rule's message shows under it, and a field named in
 * `dependencies` is checked again when the field it depends on changes (once it has been touched). Submitting an
 * invalid form moves focus to the first field in error.
 */
import type { FormEvent } from 'react';
import { useCallback, useRef, useState } from 'react';

type TValue = string | boolean;
export type TFormValues = Record<string, TValue>;

/** A message when the value is wrong, else undefined; may ask something first (async). */
export type TRule<V extends TFormValues, K extends keyof V = keyof V> = (
  value: V[K],
  values: V,
) => string | undefined | Promise<string | undefined>;

export type TRules<V extends TFormValues> = { [K in keyof V]?: readonly TRule<V, K>[] };

export type TFieldProps<T extends TValue = string> = {
  id: string;
  name: string;
  value: T;
  error: string | undefined;
  onChange: (value: T) => void;
};

type TOptions<V extends TFormValues> = {
  /** prefix of the fields' ids (`login` gives `login_email`), unique on the page */
  name: string;
  initialValues: V;
  /** read on every check, so rules may follow the form's state (the team field shows only for team accounts) */
  rules: TRules<V>;
  /** `{ confirmPassword: ['password'] }`: confirmPassword is checked again when password changes */
  dependencies?: { [K in keyof V]?: readonly (keyof V)[] };
};

export function useForm<V extends TFormValues>({
  name,
  initialValues,
  rules,
  dependencies,
}: TOptions<V>) {
  const [values, setValues] = useState<V>(initialValues);
  const [errors, setErrors] = useState<Partial<Record<keyof V, string>>>({});
  const valuesRef = useRef(values);
  const rulesRef = useRef(rules);
  rulesRef.current = rules;
  const touched = useRef(new Set<keyof V>());
  /** the latest check of each field: an older answer that comes late is dropped */
  const checks = useRef(new Map<keyof V, number>());

  const fieldId = useCallback((field: keyof V) => `${name}_${String(field)}`, [name]);

  const setError = useCallback((field: keyof V, message: string | undefined) => {
    setErrors((current) =>
      current[field] === message ? current : { ...current, [field]: message },
    );
  }, []);

  const check = useCallback(
    async (field: keyof V, all: V): Promise<string | undefined> => {
      const version = (checks.current.get(field) ?? 0) + 1;
      checks.current.set(field, version);
      let message: string | undefined;
      for (const rule of rulesRef.current[field] ?? []) {
        message = await rule(all[field], all);
        if (message !== undefined) break;
      }
      if (checks.current.get(field) === version) setError(field, message);
      return message;
    },
    [setError],
  );

  const setValue = useCallback(
    <K extends keyof V>(field: K, value: V[K]) => {
      const next = { ...valuesRef.current, [field]: value };
      valuesRef.current = next;
      setValues(next);
      touched.current.add(field);
      void check(field, next);
      for (const [dependent, on] of Object.entries(dependencies ?? {}) as [
        keyof V,
        readonly (keyof V)[],
      ][]) {
        if (on.includes(field) && touched.current.has(dependent)) void check(dependent, next);
      }
    },
    [check, dependencies],
  );

  /** Checks every field that has rules; true when none failed. Focuses the first that did. */
  const validateAll = useCallback(async (): Promise<boolean> => {
    const all = valuesRef.current;
    const fields = Object.keys(rulesRef.current) as (keyof V)[];
    fields.forEach((field) => touched.current.add(field));
    const messages = await Promise.all(fields.map((field) => check(field, all)));
    const failed = fields.find((_, i) => messages[i] !== undefined);
    if (failed !== undefined) document.getElementById(fieldId(failed))?.focus();
    return failed === undefined;
  }, [check, fieldId]);

  /** onSubmit for the <form>: checks, then hands the values over. */
  const onSubmit = useCallback(
    (onValid: (values: V) => void | Promise<void>) => (event: FormEvent) => {
      event.preventDefault();
      void validateAll().then((isValid) => (isValid ? onValid(valuesRef.current) : undefined));
    },
    [validateAll],
  );

  /** Back to `next` (the initial values unless given), without messages. */
  const reset = useCallback(
    (next: V = initialValues) => {
      valuesRef.current = next;
      setValues(next);
      setErrors({});
      touched.current.clear();
      checks.current.clear();
    },
    [initialValues],
  );

  function field<K extends keyof V & string>(key: K): TFieldProps<V[K] & TValue> {
    return {
      id: fieldId(key),
      name: key,
      value: values[key] as V[K] & TValue,
      error: errors[key],
      onChange: (value) => setValue(key, value),
    };
  }

  return { values, errors, field, setValue, setError, validateAll, onSubmit, reset, fieldId };
}
