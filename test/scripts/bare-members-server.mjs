// The benchmark's baseline: a bare Koa handler doing the same work as
// `GET /api/v1/orgs/{slug}/members?limit=20` on the same SQLite file — the same members ⋈ users
// page query plus the count, mapped to the same `{ data: [...], meta }` JSON — with nothing else:
// no auth, no rate limit, no validation, no query builder, no logging.
//
// Serves only `GET /api/v1/orgs/$ORG_SLUG/members` (same path as the full stack).
// Env: DB_FILE (the SQLite file), ORG_SLUG, PORT (on 127.0.0.1). Prints `listening <port>` on
// stdout once ready; exits on SIGTERM/SIGINT.
import http from 'node:http';
import Database from 'better-sqlite3';
import Koa from 'koa';

const { DB_FILE, ORG_SLUG } = process.env;
if (!DB_FILE || !ORG_SLUG) {
  process.stderr.write('bare-members-server: DB_FILE and ORG_SLUG are required\n');
  process.exit(2);
}

const db = new Database(DB_FILE, { fileMustExist: true });
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');

const org = db.prepare('select id from organizations where slug = ?').get(ORG_SLUG);
if (!org) {
  process.stderr.write(`bare-members-server: no organization ${ORG_SLUG}\n`);
  process.exit(2);
}

// The same SQL the service runs (members ⋈ users, oldest first, one page; and the total).
const page = db.prepare(
  'select m.*, u.email from members as m inner join users as u on u.id = m.user_id ' +
    'where m.org_id = ? order by m.created_at, m.id limit ? offset ?',
);
const count = db.prepare('select count(*) as n from members where org_id = ?');

const app = new Koa();
app.use((ctx) => {
  if (ctx.method !== 'GET' || ctx.path !== `/api/v1/orgs/${ORG_SLUG}/members`) {
    ctx.status = 404;
    return;
  }
  const limit = Number(ctx.query.limit ?? 20);
  const offset = Number(ctx.query.offset ?? 0);
  const rows = page.all(org.id, limit, offset);
  const { n } = count.get(org.id);
  ctx.body = {
    data: rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      email: r.email,
      role: r.role,
      invitedBy: r.invited_by,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    })),
    meta: { total: Number(n), limit, offset },
  };
});

const server = http.createServer(app.callback());
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
const stop = () => {
  server.close(() => {
    db.close();
    process.exit(0);
  });
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
