-- Orders RU balance snapshots (one step per ledger entry) for gateways sharing an RU pool in Redis.
ALTER TABLE "accounts" ADD COLUMN "ru_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "accounts" SET "ru_version" = (SELECT count(*) FROM "ru_ledger" WHERE "ru_ledger"."account_id" = "accounts"."id");
