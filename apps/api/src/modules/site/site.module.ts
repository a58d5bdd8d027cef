import { defineModule } from '../../jobs/define.ts';
import { siteRoutes } from './site.routes.ts';

export const siteModule = defineModule({
  name: 'site',
  routes: [siteRoutes],
});
