import { defineModule } from '../../jobs/define.ts';
import { infrastructureRoutes } from './infrastructure.routes.ts';
import { provisionServerJob } from '../servers/provision-server.ts';

export const infrastructureModule = defineModule({
  name: 'infrastructure',
  routes: [infrastructureRoutes],
  jobs: [provisionServerJob],
});
