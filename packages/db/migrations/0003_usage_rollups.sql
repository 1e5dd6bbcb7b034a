CREATE TABLE "usage_day" (
	"account_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"day" date NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"ru" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"latency_ms_sum" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_day_account_id_day_key_id_chain_pk" PRIMARY KEY("account_id","day","key_id","chain")
);
--> statement-breakpoint
CREATE TABLE "usage_day_key_method" (
	"account_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"method" text NOT NULL,
	"day" date NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"ru" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_day_key_method_key_id_day_chain_method_pk" PRIMARY KEY("key_id","day","chain","method")
);
--> statement-breakpoint
CREATE TABLE "usage_day_method" (
	"account_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"method" text NOT NULL,
	"day" date NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"ru" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_day_method_account_id_day_chain_method_pk" PRIMARY KEY("account_id","day","chain","method")
);
--> statement-breakpoint
CREATE TABLE "usage_hour" (
	"account_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"ru" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"latency_ms_sum" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_hour_account_id_hour_key_id_chain_pk" PRIMARY KEY("account_id","hour","key_id","chain")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "usage_day" ADD CONSTRAINT "usage_day_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_day" ADD CONSTRAINT "usage_day_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_day_key_method" ADD CONSTRAINT "usage_day_key_method_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_day_key_method" ADD CONSTRAINT "usage_day_key_method_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_day_method" ADD CONSTRAINT "usage_day_method_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_hour" ADD CONSTRAINT "usage_hour_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_hour" ADD CONSTRAINT "usage_hour_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_day_key_day_idx" ON "usage_day" USING btree ("key_id","day");--> statement-breakpoint
CREATE INDEX "usage_hour_key_hour_idx" ON "usage_hour" USING btree ("key_id","hour");