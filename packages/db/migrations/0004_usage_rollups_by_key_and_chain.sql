CREATE TABLE "usage_day_chain" (
	"account_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"day" date NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"ru" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"latency_ms_sum" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_day_chain_account_id_day_chain_pk" PRIMARY KEY("account_id","day","chain")
);
--> statement-breakpoint
CREATE TABLE "usage_day_key" (
	"account_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"day" date NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"ru" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"latency_ms_sum" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_day_key_account_id_day_key_id_pk" PRIMARY KEY("account_id","day","key_id")
);
--> statement-breakpoint
CREATE TABLE "usage_hour_chain" (
	"account_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"ru" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"latency_ms_sum" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_hour_chain_account_id_hour_chain_pk" PRIMARY KEY("account_id","hour","chain")
);
--> statement-breakpoint
CREATE TABLE "usage_hour_key" (
	"account_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"ru" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"latency_ms_sum" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_hour_key_account_id_hour_key_id_pk" PRIMARY KEY("account_id","hour","key_id")
);
--> statement-breakpoint
ALTER TABLE "usage_day_chain" ADD CONSTRAINT "usage_day_chain_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_day_key" ADD CONSTRAINT "usage_day_key_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_day_key" ADD CONSTRAINT "usage_day_key_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_hour_chain" ADD CONSTRAINT "usage_hour_chain_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_hour_key" ADD CONSTRAINT "usage_hour_key_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_hour_key" ADD CONSTRAINT "usage_hour_key_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_day_account_chain_day_idx" ON "usage_day" USING btree ("account_id","chain","day");--> statement-breakpoint
CREATE INDEX "usage_hour_account_chain_hour_idx" ON "usage_hour" USING btree ("account_id","chain","hour");--> statement-breakpoint
-- Backfill from the rollups written before this migration, so reports keep their history.
INSERT INTO "usage_hour_key" ("account_id", "key_id", "hour", "requests", "ru", "errors", "latency_ms_sum")
SELECT "account_id", "key_id", "hour", sum("requests"), sum("ru"), sum("errors"), sum("latency_ms_sum")
FROM "usage_hour" GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "usage_hour_chain" ("account_id", "chain", "hour", "requests", "ru", "errors", "latency_ms_sum")
SELECT "account_id", "chain", "hour", sum("requests"), sum("ru"), sum("errors"), sum("latency_ms_sum")
FROM "usage_hour" GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "usage_day_key" ("account_id", "key_id", "day", "requests", "ru", "errors", "latency_ms_sum")
SELECT "account_id", "key_id", "day", sum("requests"), sum("ru"), sum("errors"), sum("latency_ms_sum")
FROM "usage_day" GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "usage_day_chain" ("account_id", "chain", "day", "requests", "ru", "errors", "latency_ms_sum")
SELECT "account_id", "chain", "day", sum("requests"), sum("ru"), sum("errors"), sum("latency_ms_sum")
FROM "usage_day" GROUP BY 1, 2, 3;
