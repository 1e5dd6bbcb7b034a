CREATE TABLE "usage_day_method_all_chains" (
	"account_id" uuid NOT NULL,
	"method" text NOT NULL,
	"day" date NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"ru" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_day_method_all_chains_account_id_day_method_pk" PRIMARY KEY("account_id","day","method")
);
--> statement-breakpoint
CREATE TABLE "usage_hour_method" (
	"account_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"method" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"ru" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_hour_method_account_id_hour_chain_method_pk" PRIMARY KEY("account_id","hour","chain","method")
);
--> statement-breakpoint
ALTER TABLE "usage_day_method" DROP CONSTRAINT "usage_day_method_account_id_day_chain_method_pk";--> statement-breakpoint
ALTER TABLE "usage_day_method" ADD CONSTRAINT "usage_day_method_account_id_chain_day_method_pk" PRIMARY KEY("account_id","chain","day","method");--> statement-breakpoint
ALTER TABLE "usage_day_method_all_chains" ADD CONSTRAINT "usage_day_method_all_chains_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_hour_method" ADD CONSTRAINT "usage_hour_method_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Backfill, so an upgraded database answers as before: the per-method days summed over the chains from the
-- rollup written before this migration, and the per-method hours from the minute rows still kept (the hour
-- rollup is kept only as long as they are).
INSERT INTO "usage_day_method_all_chains" ("account_id", "method", "day", "requests", "ru")
SELECT "account_id", "method", "day", sum("requests"), sum("ru")
FROM "usage_day_method" GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "usage_hour_method" ("account_id", "chain", "method", "hour", "requests", "ru")
SELECT "account_id", "chain", "method", date_trunc('hour', "minute", 'UTC'), sum("requests"), sum("ru")
FROM "usage_minute" GROUP BY 1, 2, 3, 4;
