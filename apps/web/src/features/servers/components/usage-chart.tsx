/**
 * A small, dependency-free line chart (SVG) for the usage history. Values are drawn against a fixed
 * 0..max scale; the table below it gives screen readers the same numbers.
 */
export function UsageChart({ points, max, unit, label, color = '#1d4ed8' }: {
  points: { time: number; value: number }[];
  max: number;
  unit: string;
  label: string;
  color?: string;
}) {
  const width = 600;
  const height = 160;
  if (points.length < 2) return <p className="text-sm text-slate-600">Noch keine Messwerte vorhanden.</p>;
  const t0 = points[0]!.time;
  const t1 = points[points.length - 1]!.time;
  const x = (t: number) => ((t - t0) / Math.max(1, t1 - t0)) * width;
  const y = (v: number) => height - (Math.min(v, max) / max) * (height - 8) - 4;
  const line = points.map((p, i) => `${i ? 'L' : 'M'}${x(p.time).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  const last = points[points.length - 1]!;
  const peak = points.reduce((m, p) => Math.max(m, p.value), 0);
  const fmtTime = (t: number) => new Date(t * 1000).toLocaleTimeString('de-DE', { hour: '2-digit', minute: '2-digit' });
  return (
    <figure>
      <svg viewBox={`0 0 ${width} ${height}`} className="h-40 w-full" role="img" aria-label={`${label}: aktuell ${last.value.toLocaleString('de-DE')} ${unit}, Spitze ${peak.toLocaleString('de-DE')} ${unit}`} preserveAspectRatio="none">
        {[0.25, 0.5, 0.75].map((f) => <line key={f} x1="0" x2={width} y1={height * f} y2={height * f} stroke="#e2e8f0" strokeWidth="1" />)}
        <path d={`${line} L${width},${height} L0,${height} Z`} fill={color} opacity="0.08" />
        <path d={line} fill="none" stroke={color} strokeWidth="2" vectorEffect="non-scaling-stroke" />
      </svg>
      <figcaption className="mt-1 flex justify-between text-xs text-slate-600">
        <span>{fmtTime(t0)}</span>
        <span>Spitze {peak.toLocaleString('de-DE')} {unit}</span>
        <span>{fmtTime(t1)}</span>
      </figcaption>
    </figure>
  );
}
