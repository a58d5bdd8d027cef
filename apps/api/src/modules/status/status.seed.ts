import type { Db } from '../../db/client.ts';

export async function seedStatusPage(_db: Db) {}
