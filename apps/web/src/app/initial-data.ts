import { createContext } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from '../lib/api-client.ts';

/**
 * Data a server-rendered page was rendered with (docs/decisions/016): the server puts it into the page
 * as a JSON data block (`<script type="application/json">`, never executed, so the CSP allows it) and
 * the client seeds its query cache from it before hydrating, so the page does not fetch and flash.
 */
export const INITIAL_DATA_ID = 'hp-initial-data';

export interface InitialQuery {
  key: readonly unknown[];
  data?: unknown;
  /** An API error the page shows (e.g. 404 "Eintrag nicht gefunden"). */
  error?: { status: number; code: string; message: string };
  /** When the server read the data (ms): a page that shows it ("Letztes Update") prints the same on both sides. */
  updatedAt?: number;
}

/** On the server each render gets its own cache; the browser's single cache is used otherwise. */
export const ServerQueryClient = createContext<QueryClient | null>(null);

export function seedQueries(client: QueryClient, queries: readonly InitialQuery[]) {
  for (const q of queries) {
    if (q.error) {
      const query = client.getQueryCache().build(client, { queryKey: q.key });
      const error = new ApiRequestError(q.error.status, q.error.code, q.error.message);
      query.setState({ ...query.state, status: 'error', fetchStatus: 'idle', error, errorUpdatedAt: Date.now(), fetchFailureCount: 1, fetchFailureReason: error });
    } else {
      client.setQueryData(q.key, q.data, q.updatedAt === undefined ? undefined : { updatedAt: q.updatedAt });
    }
  }
}

/** The JSON for the data block: `<` escaped, so no text in the data can close the script element. */
export const serializeInitialData = (queries: readonly InitialQuery[]) =>
  JSON.stringify(queries).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** Reads the page's data block once (browser only). */
export function readInitialData(): InitialQuery[] {
  if (typeof document === 'undefined') return [];
  const element = document.getElementById(INITIAL_DATA_ID);
  if (!element?.textContent) return [];
  try {
    const parsed = JSON.parse(element.textContent) as unknown;
    return Array.isArray(parsed) ? (parsed as InitialQuery[]) : [];
  } catch {
    return [];
  } finally {
    element.remove();
  }
}
