#!/usr/bin/env node
/**
 * Trims Proxmox VE's machine-readable API schema (pve-docs, api-viewer/apidata.js) to the endpoints our
 * Proxmox driver calls, for the schema check in the test fake
 * (apps/api/src/drivers/hypervisor/proxmox/pve-api-schema.json).
 *
 * Refresh:
 *   git --git-dir=<pve-docs clone>/.git show <commit>:api-viewer/apidata.js > /tmp/apidata.js
 *   node tools/vendor/trim-pve-apidata.mjs /tmp/apidata.js --commit <commit> \
 *     > apps/api/src/drivers/hypervisor/proxmox/pve-api-schema.json
 *
 * What is kept per endpoint: method, path, allowtoken, and per parameter its type, optional, enum, format
 * (a format name, or for property-string formats the list of keys and the default key), pattern,
 * minimum/maximum, minLength/maxLength and requires. Descriptions, return schemas and permissions are
 * dropped. A driver call missing from apidata.js is an error: the list below must follow the driver.
 */
import { readFileSync } from 'node:fs';

/**
 * Every method + path the driver (apps/api/src/drivers/hypervisor/proxmox/*.ts) sends, no more: the fake
 * answers 501 to anything else, and fake-proxmox.schema.test.ts checks the driver uses each one.
 */
export const DRIVER_ENDPOINTS = [
  'POST /access/ticket',
  'GET /nodes',
  'GET /nodes/{node}/tasks/{upid}/status',
  'POST /nodes/{node}/qemu',
  'DELETE /nodes/{node}/qemu/{vmid}',
  'POST /nodes/{node}/qemu/{vmid}/clone',
  'GET /nodes/{node}/qemu/{vmid}/config',
  'POST /nodes/{node}/qemu/{vmid}/config',
  'PUT /nodes/{node}/qemu/{vmid}/resize',
  'GET /nodes/{node}/qemu/{vmid}/status/current',
  'POST /nodes/{node}/qemu/{vmid}/status/start',
  'POST /nodes/{node}/qemu/{vmid}/status/stop',
  'POST /nodes/{node}/qemu/{vmid}/status/shutdown',
  'POST /nodes/{node}/qemu/{vmid}/status/reboot',
  'GET /nodes/{node}/qemu/{vmid}/rrddata',
  'POST /nodes/{node}/qemu/{vmid}/agent/exec',
  'GET /nodes/{node}/qemu/{vmid}/agent/exec-status',
  'POST /nodes/{node}/qemu/{vmid}/agent/set-user-password',
  'GET /nodes/{node}/qemu/{vmid}/firewall/options',
  'PUT /nodes/{node}/qemu/{vmid}/firewall/options',
  'GET /nodes/{node}/qemu/{vmid}/firewall/rules',
  'POST /nodes/{node}/qemu/{vmid}/firewall/rules',
  'DELETE /nodes/{node}/qemu/{vmid}/firewall/rules/{pos}',
  'GET /nodes/{node}/qemu/{vmid}/firewall/ipset',
  'POST /nodes/{node}/qemu/{vmid}/firewall/ipset',
  'GET /nodes/{node}/qemu/{vmid}/firewall/ipset/{name}',
  'POST /nodes/{node}/qemu/{vmid}/firewall/ipset/{name}',
  'POST /nodes/{node}/qemu/{vmid}/termproxy',
  'GET /nodes/{node}/qemu/{vmid}/vncwebsocket',
  'POST /nodes/{node}/vzdump',
  'GET /nodes/{node}/storage/{storage}/content',
  'DELETE /nodes/{node}/storage/{storage}/content/{volume}',
  // Virtual data center (issue 25): one pool per VDC (PVE 8.1+ takes the pool id as a parameter of
  // /pools; /pools/{poolid} is deprecated), its private network as an SDN VNet with one subnet, applied
  // with PUT /cluster/sdn, and ISO images uploaded to an ISO storage.
  'GET /pools',
  'POST /pools',
  'DELETE /pools',
  'GET /cluster/sdn/vnets/{vnet}',
  'POST /cluster/sdn/vnets',
  'DELETE /cluster/sdn/vnets/{vnet}',
  'GET /cluster/sdn/vnets/{vnet}/subnets',
  'POST /cluster/sdn/vnets/{vnet}/subnets',
  'DELETE /cluster/sdn/vnets/{vnet}/subnets/{subnet}',
  'PUT /cluster/sdn',
  'POST /nodes/{node}/storage/{storage}/upload',
];

/** apidata.js is `const apiSchema = [ … ];` followed by nothing else; the array is plain JSON. */
export function parseApidata(source) {
  const start = source.indexOf('[');
  const end = source.lastIndexOf(']');
  if (start < 0 || end < start) throw new Error('apidata.js: no schema array found');
  return JSON.parse(source.slice(start, end + 1));
}

function indexByPath(tree) {
  const byPath = new Map();
  const walk = (nodes) => {
    for (const node of nodes) {
      if (node.info) byPath.set(node.path, node.info);
      if (node.children) walk(node.children);
    }
  };
  walk(tree);
  return byPath;
}

function trimFormat(format) {
  if (typeof format === 'string') return format;
  if (!format || typeof format !== 'object') return undefined;
  // A property string ("key=value,key=value"): keep the keys and which key a bare value belongs to.
  const keys = Object.keys(format).sort();
  const defaultKey = keys.find((k) => format[k]?.default_key);
  return { keys, ...(defaultKey ? { defaultKey } : {}) };
}

function trimProperty(prop) {
  const out = { type: prop.type ?? 'string' };
  if (prop.optional) out.optional = true;
  if (Array.isArray(prop.enum)) out.enum = prop.enum.map(String);
  const format = trimFormat(prop.format);
  if (format !== undefined) out.format = format;
  for (const key of ['pattern', 'minimum', 'maximum', 'minLength', 'maxLength', 'requires']) {
    if (prop[key] !== undefined) out[key] = prop[key];
  }
  return out;
}

export function trim(tree, endpoints = DRIVER_ENDPOINTS) {
  const byPath = indexByPath(tree);
  return endpoints.map((endpoint) => {
    const [method, path] = endpoint.split(' ');
    const info = byPath.get(path)?.[method];
    if (!info) throw new Error(`apidata.js has no ${endpoint}`);
    const properties = Object.fromEntries(
      Object.entries(info.parameters?.properties ?? {})
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, prop]) => [name, trimProperty(prop)]),
    );
    return {
      method,
      path,
      allowtoken: info.allowtoken === 1 || info.allowtoken === true,
      parameters: { additionalProperties: Boolean(info.parameters?.additionalProperties ?? true), properties },
    };
  });
}

function main(argv) {
  const file = argv.find((a) => !a.startsWith('--') && argv[argv.indexOf(a) - 1] !== '--commit');
  if (!file) {
    console.error('usage: node tools/vendor/trim-pve-apidata.mjs <apidata.js> [--commit <pve-docs commit>]');
    process.exit(2);
  }
  const commitIndex = argv.indexOf('--commit');
  const commit = commitIndex >= 0 ? argv[commitIndex + 1] : 'unknown';
  const endpoints = trim(parseApidata(readFileSync(file, 'utf8')));
  const out = {
    source: {
      repository: 'https://github.com/proxmox/pve-docs',
      file: 'api-viewer/apidata.js',
      commit,
      trimmedBy: 'tools/vendor/trim-pve-apidata.mjs',
      note: 'Only the methods and paths our Proxmox driver calls; per parameter type, optional, enum, format, pattern, bounds, requires. Do not edit by hand: regenerate.',
    },
    endpoints,
  };
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
