import { COUNTRY_OPTIONS } from '@hp/contract';

/** Every country of the contract's list in two groups, the EU first (issue 24), for a `<select>`. */
export function CountryOptions() {
  return (
    <>
      <optgroup label="Europäische Union">
        {COUNTRY_OPTIONS.filter((o) => o.eu).map((o) => <option key={o.code} value={o.code}>{o.label}</option>)}
      </optgroup>
      <optgroup label="Weitere Länder">
        {COUNTRY_OPTIONS.filter((o) => !o.eu).map((o) => <option key={o.code} value={o.code}>{o.label}</option>)}
      </optgroup>
    </>
  );
}
