import { infrastructureMessages } from '@hp/contract';

/** The trash-icon button of the staff tables. */
export const iconDeleteClass = 'inline-flex size-10 items-center justify-center rounded-lg text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent';

/** The server's German message, or the generic save failure. */
export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : infrastructureMessages.saveFailed);
