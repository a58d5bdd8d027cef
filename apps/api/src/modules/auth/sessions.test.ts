/**
 * Review item 16: two tabs share one refresh cookie. Refreshing in both at once must not look like token
 * theft, while a copied (older, or late) refresh token still ends the session (docs/decisions/002).
 */
import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { describeEachDatabase, createUser } from '../../../test/harness.ts';
import { rowsOf } from '../../lib/rate-limit.ts';
import { REFRESH_COOKIE, REFRESH_GRACE_SECONDS } from './sessions.ts';

describeEachDatabase('refresh grace window', (ctx) => {
  const refresh = (cookie: string) => ctx().app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { [REFRESH_COOKIE]: cookie } });
  const me = (token: string) => ctx().app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
  const cookieOf = (res: Awaited<ReturnType<typeof refresh>>) => res.cookies.find((c) => c.name === REFRESH_COOKIE)?.value;
  const revokedAt = async (refreshToken: string) => {
    const [row] = rowsOf(await ctx().database.db.execute(sql`select revoked_at from sessions where id = ${refreshToken.split('.')[0]!}`));
    return row!.revoked_at;
  };

  it('keeps the session when two tabs refresh with the same cookie at once: both get a token and the same new cookie', async () => {
    const user = await createUser(ctx());
    const parallel = await Promise.all([refresh(user.refreshToken), refresh(user.refreshToken), refresh(user.refreshToken)]);
    for (const res of parallel) expect(res.statusCode, res.body).toBe(200);
    const cookies = new Set(parallel.map(cookieOf));
    expect(cookies.size).toBe(1);
    const [next] = [...cookies] as string[];
    expect(next).not.toBe(user.refreshToken);
    for (const res of parallel) expect((await me(res.json().token)).statusCode).toBe(200);
    expect(await revokedAt(user.refreshToken)).toBeNull();

    // A late tab within the window still gets the same successor; then the rotation goes on as usual.
    const late = await refresh(user.refreshToken);
    expect(late.statusCode, late.body).toBe(200);
    expect(cookieOf(late)).toBe(next);
    const onward = await refresh(next!);
    expect(onward.statusCode).toBe(200);
    expect(cookieOf(onward)).not.toBe(next);
    expect((await me(onward.json().token)).statusCode).toBe(200);
  });

  it('revokes the session when the previous cookie comes back after the grace window', async () => {
    const user = await createUser(ctx());
    const first = await refresh(user.refreshToken);
    expect(first.statusCode).toBe(200);
    await ctx().database.db.execute(sql`update sessions set rotated_at = now() - make_interval(secs => ${REFRESH_GRACE_SECONDS + 1}) where id = ${user.refreshToken.split('.')[0]!}`);
    const replay = await refresh(user.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('SESSION_EXPIRED');
    expect(await revokedAt(user.refreshToken)).not.toBeNull();
    expect((await refresh(cookieOf(first)!)).statusCode).toBe(401);
    expect((await me(first.json().token)).statusCode).toBe(401);
  });

  it('revokes the session when a cookie older than the previous one comes back, even within the window', async () => {
    const user = await createUser(ctx());
    const first = await refresh(user.refreshToken);
    const second = await refresh(cookieOf(first)!);
    expect(second.statusCode).toBe(200);
    const replay = await refresh(user.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(await revokedAt(user.refreshToken)).not.toBeNull();
    expect((await refresh(cookieOf(second)!)).statusCode).toBe(401);
    expect((await me(second.json().token)).statusCode).toBe(401);
  });
});
