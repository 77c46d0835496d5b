import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Plan } from './api-keys.table';

/** What authentication needs to know about a key (read model). */
export interface ApiKeyAuthRecord {
  id: string;
  accountId: string;
  plan: Plan;
  mode: 'live' | 'test';
  secretHash: string;
  revokedAt: Date | null;
}

/** A key as listed by operators: never the secret or its hash. */
export interface ApiKeySummary {
  id: string;
  accountId: string;
  accountName: string;
  plan: Plan;
  mode: 'live' | 'test';
  label: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface AccountRecord {
  id: string;
  name: string;
  plan: Plan;
  createdAt: Date;
}

export interface NewApiKey {
  id: string;
  accountId: string;
  mode: 'live' | 'test';
  secretHash: string;
  label: string | null;
}

/** Accounts and API keys: the api app's own tables. */
export class ApiKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findForAuth(id: string): Promise<ApiKeyAuthRecord | null> {
    const rows = await this.dataSource.query<ApiKeyAuthRecord[]>(
      `SELECT k.id, k.account_id AS "accountId", a.plan, k.mode, k.secret_hash AS "secretHash",
              k.revoked_at AS "revokedAt"
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
        WHERE k.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  async touchLastUsed(id: string, at: Date): Promise<void> {
    await this.dataSource.query(`UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)`, [id, at]);
  }

  async insertKey(key: NewApiKey): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO api_keys (id, account_id, mode, secret_hash, label) VALUES ($1, $2, $3, $4, $5)`,
      [key.id, key.accountId, key.mode, key.secretHash, key.label],
    );
  }

  /** Marks a key revoked; returns false when no such key exists. Idempotent. */
  async revoke(id: string, at: Date = new Date()): Promise<boolean> {
    // Selected from a CTE: DataSource.query answers a bare UPDATE ... RETURNING with [rows, count].
    const rows = await this.dataSource.query<{ id: string }[]>(
      `WITH revoked AS (UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING id) SELECT id FROM revoked`,
      [id, at],
    );
    return rows.length > 0;
  }

  async listKeys(): Promise<ApiKeySummary[]> {
    return this.dataSource.query<ApiKeySummary[]>(
      `SELECT k.id, k.account_id AS "accountId", a.name AS "accountName", a.plan, k.mode, k.label,
              k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt", k.revoked_at AS "revokedAt"
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
        ORDER BY k.created_at, k.id`,
    );
  }

  async findAccount(id: string): Promise<AccountRecord | null> {
    const rows = await this.dataSource.query<AccountRecord[]>(
      `SELECT id, name, plan, created_at AS "createdAt" FROM accounts WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  async findAccountsByName(name: string): Promise<AccountRecord[]> {
    return this.dataSource.query<AccountRecord[]>(
      `SELECT id, name, plan, created_at AS "createdAt" FROM accounts WHERE name = $1 ORDER BY created_at`,
      [name],
    );
  }

  async createAccount(name: string, plan: Plan): Promise<AccountRecord> {
    const id = `acct_${randomBytes(8).toString('hex')}`;
    const rows = await this.dataSource.query<AccountRecord[]>(
      `INSERT INTO accounts (id, name, plan) VALUES ($1, $2, $3) RETURNING id, name, plan, created_at AS "createdAt"`,
      [id, name, plan],
    );
    return rows[0]!;
  }

  async setAccountPlan(id: string, plan: Plan): Promise<void> {
    await this.dataSource.query(`UPDATE accounts SET plan = $2 WHERE id = $1`, [id, plan]);
  }
}
