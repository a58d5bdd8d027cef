/** Reserved user names (issue 21, item 6): customers cannot pose as the company or as a staff member. */
import { expect, it } from 'vitest';
import { messages } from '@hp/contract';
import { createUser, describeEachDatabase, STRONG_PASSWORD, uniqueName } from '../../../test/harness.ts';

let ip = 0;
describeEachDatabase('reserved user names', (ctx) => {
  const register = (username: string) => ctx().app.inject({
    method: 'POST', url: '/api/auth/register', remoteAddress: `192.0.2.${(ip++ % 250) + 1}`,
    payload: { username, email: `${uniqueName('mail')}@example.com`, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD },
  });

  it('refuses role and mailbox names and their look-alikes in German, and accepts ordinary names', async () => {
    for (const name of ['admin', 'Admin', 'root', 'support', 'Support_1', 'administrator', 'admin-team', 'supportdesk', 'postmaster', 'Hilfe', 'no.reply']) {
      const res = await register(name);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error, name).toMatchObject({ code: 'USERNAME_RESERVED', message: messages.usernameReserved });
    }
    expect((await register(uniqueName('erika'))).statusCode).toBe(201);
  });

  it('refuses the name of a staff member in another spelling', async () => {
    const staff = await createUser(ctx(), { role: 'employee' });
    const lookAlike = `${staff.username.toUpperCase().slice(0, 4)}.${staff.username.slice(4)}2`;
    const res = await register(lookAlike);
    expect(res.statusCode, lookAlike).toBe(400);
    expect(res.json().error.code).toBe('USERNAME_RESERVED');
  });
});
