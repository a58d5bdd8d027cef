/** Server status labels and badge tones, zod-free for the server cards. */
export const serverStatusLabels: Record<string, string> = {
  provisioning: 'Wird eingerichtet',
  online: 'Online',
  offline: 'Offline',
  maintenance: 'Wartung',
  restart: 'Neustart',
  reinstall: 'Neuinstallation',
  install: 'Installation',
  failed: 'Fehler',
  starting: 'Startet',
  stopping: 'Fährt herunter',
};

/** What a server's task list calls each task (staff server page, supporter ticket view). */
export const serverTaskLabels: Record<string, string> = {
  create: 'Einrichtung', start: 'Start', stop: 'Stopp', reboot: 'Neustart', reinstall: 'Neuinstallation', backup: 'Backup',
  restore: 'Wiederherstellung', install: 'Software-Installation', uninstall: 'Software-Entfernung', resize: 'Ressourcen geändert',
  'network-join': 'Privates Netz verbunden', 'network-leave': 'Privates Netz getrennt',
};

/** Verwalten goes to /dashboard/windows|linux|other/{id} by the OS name (spec). */
export function serverDetailPath(os: string, id: string) {
  const name = os.trim().toLowerCase();
  if (name.startsWith('windows')) return `/dashboard/windows/${id}`;
  if (name.startsWith('ubuntu') || name.startsWith('debian')) return `/dashboard/linux/${id}`;
  return `/dashboard/other/${id}`;
}

/** Uptime as the server pages show it ("Betriebszeit"): days and hours, hours and minutes, or minutes. */
export function formatUptime(seconds: number): string {
  if (!seconds) return '–';
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return d ? `${d} T ${h} Std` : h ? `${h} Std ${m} Min` : `${m} Min`;
}
