export { default, NewestChangelogEntry } from '../../features/changelog/components/changelog-entry-page.tsx';
