/** YYYY-MM-DD of a moment in Europe/Berlin (the legal date of invoices, credit notes and tax reports). */
export function berlinDate(d: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
}

/** The calendar day `days` after an ISO date (YYYY-MM-DD). */
export const addDays = (isoDate: string, days: number) => {
  const d = new Date(`${isoDate}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
