CREATE TABLE "spend_alerts" (
	"account_id" uuid NOT NULL,
	"month" text NOT NULL,
	"metric" text NOT NULL,
	"percent" integer NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "spend_alerts_account_id_month_metric_percent_pk" PRIMARY KEY("account_id","month","metric","percent")
);
--> statement-breakpoint
CREATE TABLE "spend_limits" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"monthly_ru_cap" bigint,
	"monthly_cents_cap" bigint,
	"action" text DEFAULT 'alert' NOT NULL,
	"alert_percents" jsonb DEFAULT '[50,80,100]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "spend_blocked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "spend_alerts" ADD CONSTRAINT "spend_alerts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spend_limits" ADD CONSTRAINT "spend_limits_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;