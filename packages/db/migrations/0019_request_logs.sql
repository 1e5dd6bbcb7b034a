CREATE TABLE "request_log_drops" (
	"account_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "request_log_drops_key_id_minute_pk" PRIMARY KEY("key_id","minute")
);
--> statement-breakpoint
CREATE TABLE "request_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"chain" text NOT NULL,
	"method" text DEFAULT '' NOT NULL,
	"transport" text NOT NULL,
	"outcome" text NOT NULL,
	"error_code" integer,
	"latency_ms" integer DEFAULT 0 NOT NULL,
	"ru" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "request_log_drops" ADD CONSTRAINT "request_log_drops_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_log_drops" ADD CONSTRAINT "request_log_drops_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_logs" ADD CONSTRAINT "request_logs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_logs" ADD CONSTRAINT "request_logs_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_logs_key_at_idx" ON "request_logs" USING btree ("key_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_logs_at_idx" ON "request_logs" USING btree ("at");