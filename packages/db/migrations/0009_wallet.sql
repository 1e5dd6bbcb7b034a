CREATE TABLE "account_discounts" (
	"account_id" uuid NOT NULL,
	"code" text NOT NULL,
	"attached_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"purchase_id" uuid
);
--> statement-breakpoint
CREATE TABLE "discount_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"percent_off" integer NOT NULL,
	"sku_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "money_ledger" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"delta" bigint NOT NULL,
	"kind" text NOT NULL,
	"ref" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid,
	"request_key" text NOT NULL,
	"sku_id" text NOT NULL,
	"sku_version" text NOT NULL,
	"type" text NOT NULL,
	"name" jsonb NOT NULL,
	"reason" text NOT NULL,
	"channel" text NOT NULL,
	"price_cents" bigint NOT NULL,
	"discount_cents" bigint DEFAULT 0 NOT NULL,
	"paid_cents" bigint NOT NULL,
	"discount_code" text,
	"ru" bigint NOT NULL,
	"package_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ru_packages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"sku_id" text NOT NULL,
	"sku_version" text NOT NULL,
	"type" text NOT NULL,
	"name" jsonb NOT NULL,
	"tier" text NOT NULL,
	"ru_total" bigint NOT NULL,
	"ru_used" bigint DEFAULT 0 NOT NULL,
	"payg_cents_per_million_ru" integer,
	"arrears_limit_cents" bigint,
	"status" text DEFAULT 'active' NOT NULL,
	"auto_renew" boolean DEFAULT false NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"renewed_by" uuid,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ru_packages_used_within_total" CHECK ("ru_packages"."ru_used" >= 0 AND "ru_packages"."ru_used" <= "ru_packages"."ru_total")
);
--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"chain" text PRIMARY KEY NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_addresses" (
	"account_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"address" text NOT NULL,
	"derivation_index" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_addresses_account_id_chain_pk" PRIMARY KEY("account_id","chain")
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"coin" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"from_address" text,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"usd_cents" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"credited_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "wallet_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "payg_allowance_ru" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "payg_carry_micro_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "account_discounts" ADD CONSTRAINT "account_discounts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_discounts" ADD CONSTRAINT "account_discounts_code_discount_codes_code_fk" FOREIGN KEY ("code") REFERENCES "public"."discount_codes"("code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_ledger" ADD CONSTRAINT "money_ledger_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ru_packages" ADD CONSTRAINT "ru_packages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_discounts_account_code_unique" ON "account_discounts" USING btree ("account_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "money_ledger_idempotency_unique" ON "money_ledger" USING btree ("account_id","kind","ref");--> statement-breakpoint
CREATE INDEX "money_ledger_account_created_idx" ON "money_ledger" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_request_key_unique" ON "purchases" USING btree ("account_id","request_key");--> statement-breakpoint
CREATE INDEX "purchases_account_created_idx" ON "purchases" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "ru_packages_account_status_idx" ON "ru_packages" USING btree ("account_id","status","expires_at");--> statement-breakpoint
CREATE INDEX "ru_packages_status_expires_idx" ON "ru_packages" USING btree ("status","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_chain_address_unique" ON "deposit_addresses" USING btree ("chain","address");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_chain_index_unique" ON "deposit_addresses" USING btree ("chain","derivation_index");--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_chain_tx_log_unique" ON "deposits" USING btree ("chain","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "deposits_account_created_idx" ON "deposits" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "deposits_status_idx" ON "deposits" USING btree ("status","chain");--> statement-breakpoint
-- The register gift becomes a package (free, never expires), so usage can be spent from packages only: what an
-- account already used of its gift is what its balance no longer holds.
INSERT INTO "ru_packages" ("account_id", "sku_id", "sku_version", "type", "name", "tier", "ru_total", "ru_used", "starts_at", "created_at")
SELECT l."account_id", 'register-gift', 'register', 'free', '{"en":"Welcome gift","zh":"注册赠送"}'::jsonb, 'free',
  l."delta", LEAST(l."delta", GREATEST(0, l."delta" - GREATEST(a."ru_balance", 0))), l."created_at", l."created_at"
FROM "ru_ledger" l JOIN "accounts" a ON a."id" = l."account_id"
WHERE l."kind" = 'register_gift' AND l."delta" > 0;
