/** The staff customer page's "Bestellungen" tab names every product by its own line (issue 21: "null vCPU"). */
import { expect, it } from 'vitest';
import type { CustomerOrderPage } from '@hp/contract';
import { createUser, describeEachDatabase } from '../../../test/harness.ts';
import { buyHosting, seedHostingServer } from '../../../test/hosting.ts';
import { buyDomain, createDomainCustomer } from '../../../test/domains.ts';
import { buyServer, seedCapacity } from '../../../test/shop.ts';

describeEachDatabase('customer orders for staff', (ctx) => {
  it('summarises server, hosting and domain orders each in its own words, never "null"', async () => {
    const employee = await createUser(ctx(), { role: 'employee' });
    const customer = await createDomainCustomer(ctx());
    await seedCapacity(ctx());
    await seedHostingServer(ctx());
    await buyServer(ctx(), customer);
    await buyHosting(ctx(), customer, { plan: 'starter' });
    const { domain } = await buyDomain(ctx(), customer);

    const res = await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${customer.user.id}/orders`, headers: employee.auth });
    expect(res.statusCode, res.body).toBe(200);
    const summaries = res.json<CustomerOrderPage>().items.map((o) => o.summary);
    expect(summaries).toHaveLength(3);
    expect(summaries.join('\n')).not.toMatch(/null|undefined/);
    expect(summaries.some((s) => /vCPU/.test(s))).toBe(true);
    expect(summaries.some((s) => /Tarif Starter/.test(s) && !/vCPU/.test(s))).toBe(true);
    expect(summaries.some((s) => s.includes(domain) && !/vCPU/.test(s))).toBe(true);
  });
});
