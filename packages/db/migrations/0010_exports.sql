CREATE TABLE "export_download_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"export_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "export_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"filter" jsonb NOT NULL,
	"filter_key" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"file_name" text,
	"rows" integer,
	"truncated" boolean DEFAULT false NOT NULL,
	"csv" text,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "export_download_tokens" ADD CONSTRAINT "export_download_tokens_export_id_export_jobs_id_fk" FOREIGN KEY ("export_id") REFERENCES "public"."export_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "export_download_tokens_export" ON "export_download_tokens" USING btree ("export_id");--> statement-breakpoint
CREATE UNIQUE INDEX "export_jobs_one_open_per_filter" ON "export_jobs" USING btree ("account_id","kind","filter_key") WHERE "export_jobs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "export_jobs_account_created" ON "export_jobs" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "export_jobs_status" ON "export_jobs" USING btree ("status");
