import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Store } from './db/database.js';
import type { Mailer } from './mail/mailer.js';
import type { SecretBox } from './shared/secret-box.js';

/** What services need, built once at start-up and passed in (nothing reads process.env deeper). */
export interface Deps {
  readonly config: Config;
  readonly store: Store;
  readonly logger: Logger;
  readonly mailer: Mailer;
  readonly secrets: SecretBox;
  /**
   * The origin put in emailed links: LEMMA_PUBLIC_URL, else the address the server listens on
   * (set once it listens). Never the request's Host header, which a client chooses.
   */
  publicOrigin: string;
}
