CREATE TABLE "usage_refusal_hour" (
	"account_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"code" integer NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	CONSTRAINT "usage_refusal_hour_account_id_hour_key_id_chain_code_pk" PRIMARY KEY("account_id","hour","key_id","chain","code")
);
--> statement-breakpoint
CREATE TABLE "usage_refusal_minute" (
	"account_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"code" integer NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	CONSTRAINT "usage_refusal_minute_key_id_chain_code_minute_pk" PRIMARY KEY("key_id","chain","code","minute")
);
--> statement-breakpoint
ALTER TABLE "usage_refusal_hour" ADD CONSTRAINT "usage_refusal_hour_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_refusal_hour" ADD CONSTRAINT "usage_refusal_hour_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_refusal_minute" ADD CONSTRAINT "usage_refusal_minute_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_refusal_minute" ADD CONSTRAINT "usage_refusal_minute_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_refusal_hour_key_hour_idx" ON "usage_refusal_hour" USING btree ("key_id","hour");--> statement-breakpoint
CREATE INDEX "usage_refusal_minute_account_minute_idx" ON "usage_refusal_minute" USING btree ("account_id","minute");