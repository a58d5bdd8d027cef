import { Field } from '../../../components/ui/field.tsx';

/** Two to four host names; the first two are required (checked again by the server). */
export function NameserverInputs({ idPrefix, values, onChange, error }: { idPrefix: string; values: string[]; onChange: (v: string[]) => void; error?: string }) {
  return (
    <div className="mt-4 grid gap-3 sm:grid-cols-2">
      {values.map((value, i) => (
        <Field key={i} id={`${idPrefix}-${i}`} label={`Nameserver ${i + 1}${i >= 2 ? ' (optional)' : ''}`} autoComplete="off" spellCheck={false} placeholder={`ns${i + 1}.example.net`} value={value}
          onChange={(e) => onChange(values.map((v, j) => (j === i ? e.target.value : v)))} error={i === 0 ? error : undefined} />
      ))}
    </div>
  );
}
