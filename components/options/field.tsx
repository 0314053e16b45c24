/** A labelled input of the options page; its value is kept as text (an empty number field can be refused). */
import type { JSX } from 'preact';

type InputProps = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onInput'>;

interface Props extends InputProps {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
}

export function Field({ id, label, value, onInput, ...input }: Props) {
  return (
    <>
      <label for={id}>{label}</label>
      <input id={id} {...input} value={value} onInput={(e) => onInput(e.currentTarget.value)} />
    </>
  );
}
