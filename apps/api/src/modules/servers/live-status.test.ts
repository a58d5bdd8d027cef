import { expect, it, vi } from 'vitest';
import { createUser, describeEachDatabase } from '../../../test/harness.ts';
import { seedServer } from '../../../test/servers.ts';
import { serverAccess } from '../../db/schema/index.ts';
import { LIVE_STATUS_MS } from './servers.service.ts';

describeEachDatabase('server page status: one live reading shared by every viewer', (ctx) => {
  it(`asks the hypervisor once per ${LIVE_STATUS_MS} ms for a server, however many tabs and viewers poll; again after a power action`, async () => {
    const owner = await createUser(ctx());
    const guest = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    await ctx().database.db.insert(serverAccess).values({ serverId: server.id, userId: guest.user.id });
    const spy = vi.spyOn(ctx().app.deps.hypervisor, 'currentStatus');
    try {
      const read = (auth: Record<string, string>) => ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}/status`, headers: auth });
      const answers = await Promise.all([read(owner.auth), read(owner.auth), read(guest.auth), read(owner.auth)]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
      expect(new Set(answers.map((a) => a.json().running)).size).toBe(1);
      expect(spy).toHaveBeenCalledTimes(1);

      const stop = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/power`, headers: owner.auth, payload: { action: 'stop' } });
      expect(stop.statusCode).toBe(202);
      await read(owner.auth);
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });
});
