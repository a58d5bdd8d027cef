import { defineModule } from '../../jobs/define.ts';
import { changelogPages } from './changelog.pages.ts';
import { changelogRoutes } from './changelog.routes.ts';

/** Changelog: public list, detail and Atom feed; staff publish, edit and delete. */
export const changelogModule = defineModule({ name: 'changelog', routes: [changelogRoutes, changelogPages] });
