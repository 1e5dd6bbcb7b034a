/** A labelled filter above a history table: the visible label names the select for screen readers too. */
import { Flex, Select } from 'antd';
import { useId } from 'react';

export function FilterSelect<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <Flex vertical gap={4}>
      <label htmlFor={id}>{label}</label>
      <Select<T>
        id={id}
        value={value}
        options={options.map((o) => ({ value: o.value, label: o.label, title: o.label }))}
        onChange={onChange}
        popupMatchSelectWidth={false}
      />
    </Flex>
  );
}
