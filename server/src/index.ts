export { loadConfig, type Config } from './config.js';
export { buildApp } from './http/app.js';
export { loadContract, CONTRACT_PATH } from './http/contract.js';
export { createDeps, createLogger, startServer, type RunningServer } from './server.js';
export { openStore, type Store } from './db/database.js';
export { migrateToLatest } from './db/migrator.js';
export { verifyAuditChain } from './audit/audit.service.js';
export { bootstrapOrg } from './orgs/orgs.service.js';
export { insertAuditEntry } from './audit/audit.repository.js';
