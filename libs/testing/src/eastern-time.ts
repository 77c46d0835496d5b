/** EDGAR stamps acceptance in New York wall time; the simulated pages do the same. */
export interface EasternTime {
  /** `2026-01-12`. */
  date: string;
  /** `11:27:39`. */
  time: string;
  /** `2026-01-12 11:27:39`, as the filing index page's "Accepted". */
  stamp: string;
  /** `EST` or `EDT`. */
  zone: string;
  /** `2026-01-12T11:27:39-05:00`, as the Atom feed's `<updated>`. */
  iso: string;
  /** `Mon, 12 Jan 2026 11:27:39 EST`, as the Atom feed's title. */
  title: string;
}

const FORMAT = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  hourCycle: 'h23',
  weekday: 'short',
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});
const MONTH_NUMBER: Readonly<Record<string, string>> = { Jan: '01', Feb: '02', Mar: '03', Apr: '04', May: '05', Jun: '06', Jul: '07', Aug: '08', Sep: '09', Oct: '10', Nov: '11', Dec: '12' };

/** New York wall time of an instant (whole seconds). */
export function eastern(at: number): EasternTime {
  const p = Object.fromEntries(FORMAT.formatToParts(new Date(at)).map((part) => [part.type, part.value]));
  const date = `${p.year}-${MONTH_NUMBER[p.month!]}-${p.day}`;
  const time = `${p.hour}:${p.minute}:${p.second}`;
  // The offset is what separates the wall time read as UTC from the instant.
  const offsetMinutes = Math.round((Date.parse(`${date}T${time}Z`) - Math.floor(at / 1000) * 1000) / 60_000);
  const abs = Math.abs(offsetMinutes);
  const offset = `${offsetMinutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  const zone = p.timeZoneName ?? 'ET';
  return { date, time, stamp: `${date} ${time}`, zone, iso: `${date}T${time}${offset}`, title: `${p.weekday}, ${p.day} ${p.month} ${p.year} ${time} ${zone}` };
}
