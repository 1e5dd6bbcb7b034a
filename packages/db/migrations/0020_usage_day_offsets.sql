CREATE TABLE "usage_day_key_method_all_chains" (
	"account_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"method" text NOT NULL,
	"day" date NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"ru" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_day_key_method_all_chains_key_id_day_method_pk" PRIMARY KEY("key_id","day","method")
);
--> statement-breakpoint
CREATE TABLE "usage_day_offset" (
	"account_id" uuid NOT NULL,
	"offset_seconds" integer NOT NULL,
	"day" date NOT NULL,
	"key_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"ru" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"latency_ms_sum" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_day_offset_account_id_offset_seconds_day_key_id_chain_pk" PRIMARY KEY("account_id","offset_seconds","day","key_id","chain")
);
--> statement-breakpoint
CREATE TABLE "usage_day_offset_chain" (
	"account_id" uuid NOT NULL,
	"offset_seconds" integer NOT NULL,
	"day" date NOT NULL,
	"chain" text NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"ru" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"latency_ms_sum" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_day_offset_chain_account_id_offset_seconds_day_chain_pk" PRIMARY KEY("account_id","offset_seconds","day","chain")
);
--> statement-breakpoint
CREATE TABLE "usage_day_offset_kept" (
	"account_id" uuid NOT NULL,
	"offset_seconds" integer NOT NULL,
	"rollup" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_day_offset_kept_account_id_offset_seconds_rollup_pk" PRIMARY KEY("account_id","offset_seconds","rollup")
);
--> statement-breakpoint
CREATE TABLE "usage_day_offset_key" (
	"account_id" uuid NOT NULL,
	"offset_seconds" integer NOT NULL,
	"day" date NOT NULL,
	"key_id" uuid NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"ru" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"latency_ms_sum" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_day_offset_key_account_id_offset_seconds_day_key_id_pk" PRIMARY KEY("account_id","offset_seconds","day","key_id")
);
--> statement-breakpoint
ALTER TABLE "usage_day_key_method_all_chains" ADD CONSTRAINT "usage_day_key_method_all_chains_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_day_key_method_all_chains" ADD CONSTRAINT "usage_day_key_method_all_chains_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_day_offset" ADD CONSTRAINT "usage_day_offset_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_day_offset" ADD CONSTRAINT "usage_day_offset_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_day_offset_chain" ADD CONSTRAINT "usage_day_offset_chain_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_day_offset_kept" ADD CONSTRAINT "usage_day_offset_kept_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_day_offset_key" ADD CONSTRAINT "usage_day_offset_key_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_day_offset_key" ADD CONSTRAINT "usage_day_offset_key_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_day_offset_key_day_idx" ON "usage_day_offset" USING btree ("key_id","offset_seconds","day");--> statement-breakpoint
-- Backfill: the per-key per-method days summed over the chains, from the rollup written before this migration.
-- (The per-offset day rollups start empty: each is backfilled from usage_hour on its account's first use.)
INSERT INTO "usage_day_key_method_all_chains" ("account_id", "key_id", "method", "day", "requests", "ru")
SELECT "account_id", "key_id", "method", "day", sum("requests"), sum("ru")
FROM "usage_day_key_method" GROUP BY 1, 2, 3, 4;