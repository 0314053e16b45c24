/** A labelled whole-number input of the options page (kept as text so an empty field can be refused). */
interface Props {
  id: string;
  label: string;
  max: number;
  value: string;
  onInput: (value: string) => void;
}

export function NumberField({ id, label, max, value, onInput }: Props) {
  return (
    <>
      <label for={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={0}
        max={max}
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    </>
  );
}
