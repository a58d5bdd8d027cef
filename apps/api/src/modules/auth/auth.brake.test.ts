/**
 * The account-wide login brake (issue 21, item 3; docs/decisions/026): failed logins against one account
 * from many addresses are slowed down together, but the owner's own browser (device cookie) still
 * signs in at once, so the flood cannot lock the owner out.
 */
import { expect, it } from 'vitest';
import { messages } from '@hp/contract';
import { createUser, describeEachDatabase, uniqueName } from '../../../test/harness.ts';
import { limits } from './auth.service.ts';
import { DEVICE_COOKIE } from './known-devices.ts';

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `172.${16 + ((ipCounter >> 16) & 15)}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

describeEachDatabase('account-wide login brake', (ctx) => {
  const login = (username: string, password: string, ip: string, device?: string) => ctx().app.inject({
    method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress: ip, ...(device ? { cookies: { [DEVICE_COOKIE]: device } } : {}),
  });
  const deviceCookie = (res: Awaited<ReturnType<typeof login>>) => res.cookies.find((c) => c.name === DEVICE_COOKIE)?.value;

  it('200 wrong passwords from 200 addresses reach the password check only a handful of times; the owner\'s known browser still signs in at once', async () => {
    const owner = await createUser(ctx());
    // The owner signed in from their own browser before: it holds the device cookie.
    const first = await login(owner.username, owner.password, nextIp());
    expect(first.statusCode, first.body).toBe(200);
    const ownersDevice = deviceCookie(first);
    expect(ownersDevice).toBeTruthy();
    // An attacker signs in to an account of their own and brings that device cookie along.
    const attacker = await createUser(ctx());
    const attackersDevice = deviceCookie(await login(attacker.username, attacker.password, nextIp()));
    expect(attackersDevice).toBeTruthy();

    const attempts = await Promise.all(Array.from({ length: 200 }, (_, i) =>
      login(i % 2 ? owner.username : owner.email, `Falsch!Passwort${i}`, nextIp(), i % 3 ? attackersDevice : undefined)));
    const statuses = attempts.map((r) => r.statusCode);
    expect(statuses.filter((s) => s !== 401 && s !== 429), 'only 401 and 429').toEqual([]);
    const checked = statuses.filter((s) => s === 401).length;
    // Ten free attempts, then one per slot (2 s, 4 s, …): a burst gets at most a few more.
    expect(checked, `${checked} of 200 reached the password check`).toBeGreaterThanOrEqual(limits.loginPerAccountFree);
    expect(checked).toBeLessThanOrEqual(limits.loginPerAccountFree + 3);
    const refused = attempts.find((r) => r.statusCode === 429)!;
    expect(refused.json().error).toMatchObject({ code: 'RATE_LIMITED', message: messages.rateLimited });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // The flood goes on; the owner's browser passes the brake with the right password …
    const flood = Array.from({ length: 20 }, () => login(owner.username, 'Falsch!Passwort0', nextIp()));
    const ownerLogin = await login(owner.username, owner.password, nextIp(), ownersDevice);
    expect(ownerLogin.statusCode, ownerLogin.body).toBe(200);
    expect((await Promise.all(flood)).filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(1);
    // … but a browser the owner never used waits like the attacker (with Retry-After) … A slot that opened
    // meanwhile (a slow, loaded machine took longer than the next slot's 8–16 s; it failed so once) goes to
    // the flood first, as it would in a real attack.
    // Before each check, so that a slot opening between two checks cannot let the right password through.
    const burnOpenSlot = () => Promise.all(Array.from({ length: 5 }, () => login(owner.username, 'Falsch!Passwort0', nextIp())));
    await burnOpenSlot();
    const newBrowser = await login(owner.username, owner.password, nextIp());
    expect(newBrowser.statusCode).toBe(429);
    // … and a forged or altered cookie is no known device. The last digit of its signature is changed for certain:
    // writing "00" over the last two left the cookie as it was when they already were "00" (1 run in 256, once in CI).
    await burnOpenSlot();
    const altered = `${ownersDevice!.slice(0, -1)}${ownersDevice!.endsWith('0') ? '1' : '0'}`;
    expect(altered).not.toBe(ownersDevice);
    expect((await login(owner.username, owner.password, nextIp(), altered)).statusCode).toBe(429);
    await burnOpenSlot();
    expect((await login(owner.username, owner.password, nextIp(), 'W10.deadbeef')).statusCode).toBe(429);
  });

  it('an unknown name is braked like an account, so the brake does not reveal which names exist', async () => {
    const ghost = uniqueName('ghost');
    const statuses = [];
    for (let i = 0; i < 15; i++) statuses.push((await login(ghost, 'Falsch!Passwort9', nextIp())).statusCode);
    expect(statuses.slice(0, limits.loginPerAccountFree)).toEqual(Array(limits.loginPerAccountFree).fill(401));
    expect(statuses).toContain(429);
  });

  it('the owner\'s own successful logins do not use up the free attempts', async () => {
    const owner = await createUser(ctx());
    for (let i = 0; i < limits.loginPerAccountFree + 5; i++) {
      expect((await login(owner.username, owner.password, nextIp())).statusCode, `login ${i + 1}`).toBe(200);
    }
  });
});
