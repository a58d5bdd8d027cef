import { toast } from 'sonner';
import { Copy } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';

/** Copies a value to the clipboard; where the browser refuses, the user is asked to select it by hand. */
export function CopyButton({ value, label, copied }: { value: string; label: string; copied: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(copied);
    } catch {
      toast.error('Kopieren ist hier nicht möglich. Bitte markieren Sie den Text.');
    }
  };
  return (
    <Button variant="outline" size="sm" onClick={() => void copy()} aria-label={label}>
      <Copy className="size-4" aria-hidden="true" /> Kopieren
    </Button>
  );
}
