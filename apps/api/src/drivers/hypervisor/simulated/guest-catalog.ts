/**
 * What the simulated guests are made of: OS images and the portal's software packages. The usage model,
 * provisioning and the shell all read these tables, so they live apart from each of them.
 */
import type { OsTemplate } from '../hypervisor.ts';

export interface OsInfo {
  family: 'debian' | 'ubuntu' | 'centos' | 'windows';
  /** /etc/issue style line before the host name */
  issue: string;
  pretty: string;
  kernel: string;
  kernelBuild: string;
  templateId: number;
  templateDiskGb: number;
  mirror: string;
}

export const OS: Record<OsTemplate, OsInfo> = {
  'debian-12': { family: 'debian', issue: 'Debian GNU/Linux 12', pretty: 'Debian GNU/Linux 12 (bookworm)', kernel: '6.1.0-25-amd64', kernelBuild: '#1 SMP PREEMPT_DYNAMIC Debian 6.1.106-3 (2024-08-26)', templateId: 9000, templateDiskGb: 3, mirror: 'http://deb.debian.org/debian bookworm/main' },
  'debian-11': { family: 'debian', issue: 'Debian GNU/Linux 11', pretty: 'Debian GNU/Linux 11 (bullseye)', kernel: '5.10.0-32-amd64', kernelBuild: '#1 SMP Debian 5.10.223-1 (2024-08-10)', templateId: 9001, templateDiskGb: 3, mirror: 'http://deb.debian.org/debian bullseye/main' },
  'ubuntu-25.04': { family: 'ubuntu', issue: 'Ubuntu 25.04', pretty: 'Ubuntu 25.04', kernel: '6.14.0-15-generic', kernelBuild: '#15-Ubuntu SMP PREEMPT_DYNAMIC Sun Apr  6 15:05:05 UTC 2025', templateId: 9010, templateDiskGb: 4, mirror: 'http://archive.ubuntu.com/ubuntu plucky/main' },
  'ubuntu-24.10': { family: 'ubuntu', issue: 'Ubuntu 24.10', pretty: 'Ubuntu 24.10', kernel: '6.11.0-8-generic', kernelBuild: '#8-Ubuntu SMP PREEMPT_DYNAMIC Mon Sep 16 13:41:20 UTC 2024', templateId: 9011, templateDiskGb: 4, mirror: 'http://archive.ubuntu.com/ubuntu oracular/main' },
  'ubuntu-24.04': { family: 'ubuntu', issue: 'Ubuntu 24.04.1 LTS', pretty: 'Ubuntu 24.04.1 LTS', kernel: '6.8.0-45-generic', kernelBuild: '#45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024', templateId: 9012, templateDiskGb: 4, mirror: 'http://archive.ubuntu.com/ubuntu noble/main' },
  'ubuntu-22.04': { family: 'ubuntu', issue: 'Ubuntu 22.04.5 LTS', pretty: 'Ubuntu 22.04.5 LTS', kernel: '5.15.0-122-generic', kernelBuild: '#132-Ubuntu SMP Thu Aug 29 13:45:52 UTC 2024', templateId: 9013, templateDiskGb: 3, mirror: 'http://archive.ubuntu.com/ubuntu jammy/main' },
  'ubuntu-20.04': { family: 'ubuntu', issue: 'Ubuntu 20.04.6 LTS', pretty: 'Ubuntu 20.04.6 LTS', kernel: '5.4.0-196-generic', kernelBuild: '#216-Ubuntu SMP Thu Aug 29 13:26:53 UTC 2024', templateId: 9014, templateDiskGb: 3, mirror: 'http://archive.ubuntu.com/ubuntu focal/main' },
  'centos-8': { family: 'centos', issue: 'CentOS Stream 8', pretty: 'CentOS Stream 8', kernel: '4.18.0-552.el8.x86_64', kernelBuild: '#1 SMP Sun Apr 7 00:00:00 UTC 2024', templateId: 9020, templateDiskGb: 8, mirror: 'appstream' },
  'windows-2025': { family: 'windows', issue: 'Windows Server 2025', pretty: 'Windows Server 2025 Datacenter', kernel: '10.0.26100', kernelBuild: '', templateId: 9030, templateDiskGb: 32, mirror: '' },
  'windows-2022': { family: 'windows', issue: 'Windows Server 2022', pretty: 'Windows Server 2022 Datacenter', kernel: '10.0.20348', kernelBuild: '', templateId: 9031, templateDiskGb: 32, mirror: '' },
};

export interface Package {
  name: string;
  version: string;
  /** extra packages apt pulls in */
  deps: string[];
  sizeKb: number;
  service?: string;
  /** resident memory in MiB when running (status realism) */
  memMb: number;
}

/** The portal's software catalogue (spec §3), under their Debian package names. */
export const PACKAGES: Package[] = [
  { name: 'nginx', version: '1.24.0-2', deps: ['nginx-common'], sizeKb: 1696, service: 'nginx', memMb: 12 },
  { name: 'apache2', version: '2.4.57-2', deps: ['apache2-bin', 'apache2-data', 'apache2-utils', 'libapr1', 'libaprutil1'], sizeKb: 8302, service: 'apache2', memMb: 40 },
  { name: 'mysql-server', version: '8.0.32-1', deps: ['mysql-client', 'mysql-common', 'libaio1', 'libmecab2'], sizeKb: 248_320, service: 'mysql', memMb: 380 },
  { name: 'mongodb', version: '6.0.5', deps: ['mongodb-org-server', 'mongodb-org-shell', 'mongodb-org-tools'], sizeKb: 301_460, service: 'mongod', memMb: 160 },
  { name: 'nodejs', version: '18.16.0-1nodesource1', deps: [], sizeKb: 190_204, memMb: 0 },
  { name: 'python3', version: '3.11.3-1', deps: ['python3-minimal', 'libpython3.11-stdlib'], sizeKb: 27_456, memMb: 0 },
  { name: 'php', version: '8.2.5-1', deps: ['php8.2', 'php8.2-cli', 'php8.2-common', 'php8.2-fpm'], sizeKb: 19_872, service: 'php8.2-fpm', memMb: 30 },
  { name: 'fail2ban', version: '1.0.2-2', deps: ['python3-pyinotify', 'whois'], sizeKb: 2_208, service: 'fail2ban', memMb: 25 },
  { name: 'docker', version: '23.0.5-1', deps: ['containerd', 'runc', 'docker-ce-cli'], sizeKb: 412_880, service: 'docker', memMb: 90 },
];
const PACKAGE_ALIASES: Record<string, string> = {
  apache: 'apache2', httpd: 'apache2', mysql: 'mysql-server', 'mysql-server-8.0': 'mysql-server', 'mongodb-org': 'mongodb', mongo: 'mongodb',
  node: 'nodejs', python: 'python3', 'php8.2': 'php', 'php-fpm': 'php', 'docker.io': 'docker', 'docker-ce': 'docker',
};
export const findPackage = (name: string) => {
  const canonical = PACKAGE_ALIASES[name] ?? name;
  return PACKAGES.find((p) => p.name === canonical);
};
