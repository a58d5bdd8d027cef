// zod compiles object parsers with new Function when eval is allowed; our CSP forbids eval, so tell zod
// up front instead of letting its probe trigger a CSP violation. It must run before any schema is built,
// and a module's imports are evaluated before its body: main.tsx therefore imports this file first. zod
// keeps its configuration on this global (shared by every copy of zod), so no import of zod is needed.
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };

export {};
