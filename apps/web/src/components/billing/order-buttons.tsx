import { Link } from 'react-router';
import { Plus } from 'lucide-react';
import { buttonClass } from '../ui/button.tsx';
import { availableProducts } from '../../config/products.ts';
import { cn } from '../../lib/cn.ts';

/** Where ordering starts for every product on sale (the product catalogue), the first one as the main button. */
export function OrderButtons({ size, className }: { size?: 'sm'; className?: string }) {
  return (
    <div className={cn('flex flex-wrap gap-2', className)}>
      {availableProducts.map((p, i) => (
        <Link key={p.id} to={p.orderPath} className={buttonClass(i === 0 ? 'primary' : 'outline', size)}>
          <Plus className="size-4" aria-hidden="true" /> {p.orderLabel}
        </Link>
      ))}
    </div>
  );
}
