import { defineModule } from '../../jobs/define.ts';
import { authRoutes } from './auth.routes.ts';
import { sendCodeJob } from './code-mail.ts';

export const authModule = defineModule({
  name: 'auth',
  routes: [authRoutes],
  jobs: [sendCodeJob],
});
