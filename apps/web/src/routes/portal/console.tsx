export { default } from '../../features/servers/components/console-page.tsx';
