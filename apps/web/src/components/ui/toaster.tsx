import { Toaster } from 'sonner';
import { useMediaQuery } from '../../lib/use-media-query.ts';

/** sonner's built-in texts are English; screen readers get these instead. */
export const toasterLabels = {
  region: 'Benachrichtigungen (Alt+T)',
  container: 'Benachrichtigungen',
  close: 'Schließen',
} as const;

/**
 * Where toasts cannot cover an action: at the bottom (every page's header buttons sit at the top),
 * right on wide screens, across the width on phones. Below 1024 px the KVM configurator keeps a sticky
 * price bar with "Zur Bestellung" at the bottom of the window, so the toasts stay above it there.
 */
export default function AppToaster() {
  const wide = useMediaQuery('(min-width: 1024px)');
  const bottom = wide ? 24 : 88;
  return (
    <Toaster
      position="bottom-right"
      offset={{ bottom, right: 24 }}
      mobileOffset={{ bottom, left: 16, right: 16 }}
      richColors
      closeButton
      duration={5000}
      containerAriaLabel={toasterLabels.container}
      customAriaLabel={toasterLabels.region}
      toastOptions={{ closeButtonAriaLabel: toasterLabels.close }}
    />
  );
}
