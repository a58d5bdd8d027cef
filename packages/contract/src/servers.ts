// Customer-facing server schemas (filled by the servers issue).
export {};
