// Staff administration of nodes, IP addresses and virtual servers (filled by the servers issue).
export {};
