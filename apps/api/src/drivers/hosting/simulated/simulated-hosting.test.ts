import { freshPglite } from '../../../../test/databases.ts';
import { describeHostingContract } from '../hosting.contract.ts';
import { createSimulatedHosting } from './simulated-hosting.ts';

// The simulated panel passes the same contract as the ISPConfig driver with the fake panel; settle()
// moves its clock a day on, past every timed step (certificates, restores, the scheduled backup).
describeHostingContract('simulated', async () => {
  const database = await freshPglite();
  let offset = 0;
  const driver = createSimulatedHosting(database.db, { speed: 1, now: () => Date.now() + offset, panelUrl: 'http://localhost/simulated-panel' });
  return { driver, server: { serverId: '1' }, settle: async () => { offset += 86_400_000; }, cleanup: () => database.close(), reportsTables: true };
});
