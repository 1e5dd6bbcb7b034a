CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"key" text NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"archive_mode" boolean DEFAULT false NOT NULL,
	"mev" text DEFAULT '' NOT NULL,
	"bundler" text DEFAULT 'default' NOT NULL,
	"allowlists" jsonb DEFAULT '{"origins":[],"ips":[],"contracts":[],"methods":[]}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "api_keys_mev_valid" CHECK ("api_keys"."mev" in ('', 'auto', 'globalcast')),
	CONSTRAINT "api_keys_bundler_valid" CHECK ("api_keys"."bundler" in ('default', 'stackup', 'candide', 'pimlico', 'etherspot'))
);
--> statement-breakpoint
CREATE TABLE "usage_batches" (
	"batch_id" text PRIMARY KEY NOT NULL,
	"ru_table_version" text NOT NULL,
	"rows" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_minute" (
	"account_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"method" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"ru" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"latency_ms_sum" bigint DEFAULT 0 NOT NULL,
	"latency_ms_max" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_minute_key_id_chain_method_minute_pk" PRIMARY KEY("key_id","chain","method","minute")
);
--> statement-breakpoint
CREATE TABLE "ru_ledger" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"delta" bigint NOT NULL,
	"kind" text NOT NULL,
	"ref" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"account_id" uuid,
	"team_id" uuid,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"expand" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "tier" text DEFAULT 'free' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "ru_balance" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_minute" ADD CONSTRAINT "usage_minute_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_minute" ADD CONSTRAINT "usage_minute_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ru_ledger" ADD CONSTRAINT "ru_ledger_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_unique" ON "api_keys" USING btree ("key");--> statement-breakpoint
CREATE INDEX "api_keys_account_live_idx" ON "api_keys" USING btree ("account_id","created_at") WHERE "api_keys"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "usage_minute_account_minute_idx" ON "usage_minute" USING btree ("account_id","minute");--> statement-breakpoint
CREATE UNIQUE INDEX "ru_ledger_idempotency_unique" ON "ru_ledger" USING btree ("account_id","kind","ref");--> statement-breakpoint
CREATE INDEX "ru_ledger_account_created_idx" ON "ru_ledger" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "notices_user_created_idx" ON "notices" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "notices_account_type_created_idx" ON "notices" USING btree ("account_id","type","created_at");