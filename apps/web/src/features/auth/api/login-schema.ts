// The login form's schema, loaded on its first check (lib/forms.ts, inputResolver) rather than with the
// prerendered login page: the page itself then hydrates without zod (issue 22).
export { LoginInput } from '@hp/contract';
