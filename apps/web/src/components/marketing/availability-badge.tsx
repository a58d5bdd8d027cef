import { cn } from '../../lib/cn.ts';
import { availabilityLabels, type ProductAvailability } from '../../config/products.ts';

/** "Jetzt bestellbar" or "Bald verfügbar", as the product catalogue says. */
export function AvailabilityBadge({ availability, className }: { availability: ProductAvailability; className?: string }) {
  return (
    <span
      data-availability={availability}
      className={cn('inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap', availability === 'available' ? 'bg-green-100 text-green-800' : 'bg-amber-100 text-amber-900', className)}
    >
      {availabilityLabels[availability]}
    </span>
  );
}
