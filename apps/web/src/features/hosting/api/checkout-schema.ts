// The order form's schema, loaded on its first check (lib/forms.ts, inputResolver) rather than with the
// prerendered shop page: the page itself then hydrates without zod (issue 22).
export { HostingCheckoutInput } from '@hp/contract';
